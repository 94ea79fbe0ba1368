import { type FormEvent, useEffect, useState } from 'react';
import { type NotificationSettings, settingsMsg } from '../../../../contract/settings';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toastError, toastSuccess } from '../../../lib/toasts';
import { LockedState } from '../../auth/components/locked-state';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';
import { FormSkeleton, LoadError, SaveButton, SwitchRow } from './settings-form-parts';

const PREFERENCES: Array<{ key: keyof NotificationSettings; label: string; description: string }> = [
  {
    key: 'emailNotifications',
    label: 'Notificações por email',
    description: 'Receba avisos importantes no seu email.',
  },
  {
    key: 'pushNotifications',
    label: 'Notificações no navegador',
    description: 'Alertas enquanto o painel estiver aberto.',
  },
  {
    key: 'campaignUpdates',
    label: 'Atualizações de campanhas',
    description: 'Aviso quando uma campanha termina ou falha.',
  },
  {
    key: 'systemAlerts',
    label: 'Alertas do sistema',
    description: 'Conexão do WhatsApp caiu, limite diário atingido.',
  },
  { key: 'marketingEmails', label: 'Novidades e ofertas', description: 'Dicas de uso, novos recursos e promoções.' },
];

function NotificationsForm({ initial, readOnly }: { initial: NotificationSettings; readOnly: boolean }) {
  const save = useUpdateNotificationSettings();
  const [values, setValues] = useState(initial);
  useEffect(() => setValues(initial), [initial]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values, {
      onSuccess: () => toastSuccess(settingsMsg.saved),
      onError: (error) => toastError(error, settingsMsg.saveError),
    });
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <div className="divide-y">
        {PREFERENCES.map((p) => (
          <SwitchRow
            className="py-3"
            key={p.key}
            id={`notify-${p.key}`}
            label={p.label}
            description={p.description}
            checked={values[p.key]}
            disabled={readOnly}
            onCheckedChange={(checked) => setValues((v) => ({ ...v, [p.key]: checked }))}
          />
        ))}
      </div>
      <div>
        <SaveButton pending={save.isPending} readOnly={readOnly}>
          Salvar preferências
        </SaveButton>
      </div>
    </form>
  );
}

export function NotificationsSection({ readOnly, locked }: { readOnly: boolean; locked: boolean }) {
  const query = useNotificationSettings(!locked);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notificações</CardTitle>
        <CardDescription>Escolha como quer ser avisado.</CardDescription>
      </CardHeader>
      <CardContent>
        {locked ? (
          <LockedState />
        ) : query.isPending ? (
          <FormSkeleton />
        ) : query.isError ? (
          <LoadError onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : (
          <NotificationsForm initial={query.data} readOnly={readOnly} />
        )}
      </CardContent>
    </Card>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { BellRing } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { type NotificationSettings, notificationSettingsSchema, settingsMsg } from '#contract/settings';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { Switch } from '#web/components/ui/switch';
import { browserNotificationsMsg, pushSwitchView, useBrowserPermission } from '#web/lib/browser-notifications';
import { usePublicConfig } from '#web/lib/public-config';
import { useNotificationSettings } from '#web/lib/queries/get-notification-settings';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { cn } from '#web/lib/utils';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';
import { LoadedSettingsCard, SaveButton, SwitchRow } from './settings-form-parts';

const PREFERENCES: Array<{ key: keyof NotificationSettings; label: string; description: string }> = [
  {
    key: 'emailNotifications',
    label: 'Notificações por email',
    description:
      'Receba por email o fim ou a pausa das campanhas e o WhatsApp desconectado há mais de 10 minutos, conforme as opções abaixo.',
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

/**
 * 'Notificações no navegador': the account's preference as this browser can honour it. Turning it
 * on asks the browser (from the click, as browsers require); a refusal shows it off and
 * unavailable with how to allow it; on but never asked offers 'Permitir notificações'.
 */
function BrowserNotificationsRow({
  preference,
  readOnly,
  label,
  description,
  onChange,
}: {
  preference: boolean;
  readOnly: boolean;
  label: string;
  description: string;
  onChange: (on: boolean) => void;
}) {
  const { permission, request } = useBrowserPermission();
  const [asking, setAsking] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const view = pushSwitchView(preference, permission, { readOnly, dismissed });
  const id = useId();

  const ask = async (): Promise<boolean> => {
    setAsking(true);
    const result = await request();
    setAsking(false);
    setDismissed(result === 'default');
    return result === 'granted';
  };
  const toggle = async (on: boolean) => {
    if (!on) return onChange(false);
    // Kept off until the browser allows it: the switch never claims what will not happen.
    if (permission === 'granted' || (await ask())) onChange(true);
  };

  return (
    <div className="grid gap-2 py-3" data-testid="browser-notifications">
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-1">
          <label htmlFor={id} className="text-sm font-medium">
            {label}
          </label>
          <p id={`${id}-desc`} className="text-sm text-muted-foreground">
            {description}
          </p>
          {view.note ? (
            <p
              id={`${id}-note`}
              className={cn(
                'text-sm',
                view.tone === 'warning' ? 'font-medium text-amber-900' : 'text-muted-foreground',
              )}
            >
              {view.note}
            </p>
          ) : null}
        </div>
        <Switch
          id={id}
          checked={view.checked}
          onCheckedChange={(on) => void toggle(on)}
          disabled={view.disabled || asking}
          aria-describedby={view.note ? `${id}-desc ${id}-note` : `${id}-desc`}
        />
      </div>
      {view.askButton ? (
        <div>
          <Button type="button" variant="outline" size="sm" disabled={asking} onClick={() => void ask()}>
            {asking ? <Spinner /> : <BellRing aria-hidden />}
            {asking ? browserNotificationsMsg.asking : browserNotificationsMsg.allow}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function NotificationsForm({ initial, readOnly }: { initial: NotificationSettings; readOnly: boolean }) {
  const save = useUpdateNotificationSettings();
  // Production without SMTP_URL: the switch is kept, and says that no e-mail leaves this server.
  const emailAvailable = usePublicConfig().data?.emailAvailable ?? true;
  const form = useForm({ resolver: zodResolver(notificationSettingsSchema), defaultValues: initial });
  useEffect(() => form.reset(initial), [initial, form]);
  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => toastSuccess(settingsMsg.saved),
      onError: (error) => toastError(error, settingsMsg.saveError),
    }),
  );
  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <div className="divide-y">
        {PREFERENCES.map((p) => (
          <Controller
            key={p.key}
            control={form.control}
            name={p.key}
            render={({ field }) =>
              p.key === 'pushNotifications' ? (
                <BrowserNotificationsRow
                  preference={field.value}
                  readOnly={readOnly}
                  label={p.label}
                  description={p.description}
                  onChange={field.onChange}
                />
              ) : (
                <SwitchRow
                  className="py-3"
                  id={`notify-${p.key}`}
                  label={p.label}
                  description={
                    p.key === 'emailNotifications' && !emailAvailable
                      ? `${p.description} O envio de emails não está configurado neste servidor.`
                      : p.description
                  }
                  checked={field.value}
                  disabled={readOnly}
                  onCheckedChange={field.onChange}
                />
              )
            }
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
    <LoadedSettingsCard title="Notificações" description="Escolha como quer ser avisado." query={query} locked={locked}>
      {(data) => <NotificationsForm initial={data} readOnly={readOnly} />}
    </LoadedSettingsCard>
  );
}

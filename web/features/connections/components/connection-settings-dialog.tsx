import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import {
  ACCOUNT_WARMUP,
  type AccountSendingSettings,
  type ConnectionSettingKey,
  type ConnectionSettingsFormValues,
  connectionSettingKeys,
  connectionSettingsForm,
  connectionSettingsFormMsg,
  connectionSettingsFormValues,
} from '#contract/connection-settings-form';
import type { ConnectionSettings, ConnectionView } from '#contract/connections';
import { FormField } from '#web/components/form-field';
import { ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { SwitchRow } from '#web/components/ui/switch-row';
import { isApiError } from '#web/lib/api';
import { formatNumber } from '#web/lib/format';
import { useWhatsappSettings } from '#web/lib/queries/get-whatsapp-settings';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useUpdateConnection } from '../api/update-connection';

const onOff = (on: boolean) => (on ? 'ligado' : 'desligado');

/** 'Usar a configuração da conta' under a field; its accessible name says which field. */
function UseAccountChoice({
  checked,
  disabled,
  field,
  onChange,
}: {
  checked: boolean;
  disabled?: boolean;
  /** The field's name for screen readers and tests: 'limite diário'. */
  field: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-muted-foreground">
      <input
        type="checkbox"
        className="size-4 shrink-0 accent-brand-strong"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      {connectionSettingsFormMsg.useAccount}
      <span className="sr-only"> ({field})</span>
    </label>
  );
}

function SettingsSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-busy="true" aria-label="Carregando configurações">
      {[0, 1, 2].map((i) => (
        <div key={i} className="grid gap-2">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}

function SettingsForm({
  connection,
  account,
  onClose,
}: {
  connection: ConnectionView;
  account: AccountSendingSettings;
  onClose: () => void;
}) {
  const personal = connection.kind === 'personal';
  const update = useUpdateConnection();
  const schema = useMemo(() => connectionSettingsForm({ personal, account }), [personal, account]);
  // Mounted each time the dialog opens on a number: it starts from what the number has now.
  const form = useForm<ConnectionSettingsFormValues, unknown, ConnectionSettings>({
    resolver: zodResolver(schema),
    defaultValues: connectionSettingsFormValues(connection.settings, account),
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const useAccount = form.watch('useAccount');
  const respect = form.watch('respectBusinessHours');
  const id = `connection-settings-${connection.id}`;

  /** Ticking 'Usar a configuração da conta' shows the account's value; unticking starts from it. */
  const choose = (key: ConnectionSettingKey, inherit: boolean) => {
    form.setValue(`useAccount.${key}`, inherit);
    form.clearErrors(key);
    if (key === 'messageDelay' || key === 'dailyLimit') {
      form.setValue(key, inherit ? undefined : account[key]);
      if (!inherit) setTimeout(() => form.setFocus(key));
    } else if (inherit) {
      form.setValue(key, key === 'warmup' ? ACCOUNT_WARMUP : account[key]);
    }
  };

  const submit = form.handleSubmit((settings) =>
    update.mutate(
      { id: connection.id, input: { settings } },
      {
        onSuccess: (res) => {
          toastSuccess(res.message);
          onClose();
        },
        onError: (error) => {
          let shown = false;
          if (isApiError(error) && error.fieldErrors) {
            for (const key of connectionSettingKeys) {
              const message = error.fieldErrors[`settings.${key}`] ?? error.fieldErrors[key];
              if (!message) continue;
              form.setError(key, { type: 'server', message });
              shown = true;
            }
          }
          if (!shown) toastError(error, connectionSettingsFormMsg.saveError);
        },
      },
    ),
  );

  const hint = (key: ConnectionSettingKey, own: string, accountValue: string) =>
    useAccount[key] ? `Configuração da conta: ${accountValue}.` : own;

  const group = (title: string, children: ReactNode) => (
    <fieldset className="grid min-w-0 gap-4 rounded-md border p-3 sm:p-4">
      <legend className="px-1 text-sm font-semibold">{title}</legend>
      {children}
    </fieldset>
  );

  const numberField = (
    key: 'messageDelay' | 'dailyLimit',
    props: { label: string; field: string; hint: string; accountText: string; min: number; max?: number },
  ) => (
    <div className="grid content-start gap-2">
      <FormField
        id={`${id}-${key}`}
        label={props.label}
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        disabled={useAccount[key]}
        placeholder={formatNumber(account[key])}
        hint={hint(key, props.hint, props.accountText)}
        error={errors[key]?.message}
        {...form.register(key, { setValueAs: (v) => (v === '' || v == null ? undefined : Number(v)) })}
      />
      <UseAccountChoice checked={useAccount[key]} field={props.field} onChange={(on) => choose(key, on)} />
    </div>
  );

  const timeField = (key: 'businessStart' | 'businessEnd', label: string, field: string) => (
    <div className="grid content-start gap-2">
      <FormField
        id={`${id}-${key}`}
        label={label}
        type="time"
        disabled={useAccount[key]}
        hint={useAccount[key] ? 'Configuração da conta.' : undefined}
        error={errors[key]?.message}
        {...form.register(key)}
      />
      <UseAccountChoice checked={useAccount[key]} field={field} onChange={(on) => choose(key, on)} />
    </div>
  );

  const switchField = (
    key: 'respectBusinessHours' | 'warmup',
    props: { label: string; field: string; description: string; accountValue: boolean },
  ) => (
    <div className="grid gap-2">
      <Controller
        control={form.control}
        name={key}
        render={({ field }) => (
          <SwitchRow
            id={`${id}-${key}`}
            label={props.label}
            description={
              useAccount[key]
                ? `${props.description} Configuração da conta: ${onOff(props.accountValue)}.`
                : props.description
            }
            checked={Boolean(field.value)}
            disabled={useAccount[key]}
            onCheckedChange={field.onChange}
          />
        )}
      />
      <UseAccountChoice checked={useAccount[key]} field={props.field} onChange={(on) => choose(key, on)} />
      {errors[key]?.message ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errors[key]?.message}
        </p>
      ) : null}
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      {group(
        'Ritmo de envio',
        <div className="grid gap-4 sm:grid-cols-2">
          {numberField('messageDelay', {
            label: 'Intervalo entre mensagens (s)',
            field: 'intervalo entre mensagens',
            hint: 'De 1 a 60 segundos.',
            accountText: `${formatNumber(account.messageDelay)} s`,
            min: 1,
            max: 60,
          })}
          {numberField('dailyLimit', {
            label: 'Limite diário de mensagens',
            field: 'limite diário',
            hint: 'Contado no dia de Brasília.',
            accountText: `${formatNumber(account.dailyLimit)} mensagens`,
            min: 1,
          })}
        </div>,
      )}

      {group(
        'Horário comercial',
        <>
          {switchField('respectBusinessHours', {
            label: 'Respeitar horário comercial',
            field: 'horário comercial',
            description: 'Envia só no expediente, de segunda a sexta.',
            accountValue: account.respectBusinessHours,
          })}
          <div className="grid gap-4 sm:grid-cols-2">
            {timeField('businessStart', 'Início do expediente', 'início do expediente')}
            {timeField('businessEnd', 'Fim do expediente', 'fim do expediente')}
          </div>
          {respect ? null : (
            <p className="text-xs text-muted-foreground">
              O início e o fim valem quando o horário comercial está ligado.
            </p>
          )}
        </>,
      )}

      {personal
        ? group(
            'Aquecimento',
            switchField('warmup', {
              label: 'Aquecimento do número',
              field: 'aquecimento do número',
              description:
                'Nos primeiros dias o número envia poucas mensagens e aumenta aos poucos, para o WhatsApp não bloqueá-lo.',
              accountValue: ACCOUNT_WARMUP,
            }),
          )
        : null}

      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancelar
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? <Spinner /> : null}
          {update.isPending ? 'Salvando...' : 'Salvar'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * 'Configurar envio': a number's own interval, daily limit, business hours and (personal numbers)
 * warm-up; each may follow the account's setting instead, whose value the field then shows.
 */
export function ConnectionSettingsDialog({
  connection,
  onOpenChange,
}: {
  /** The number being configured; null closes the dialog. */
  connection: ConnectionView | null;
  onOpenChange: (open: boolean) => void;
}) {
  const accountQuery = useWhatsappSettings(connection !== null);
  const data = accountQuery.data;
  const account = useMemo<AccountSendingSettings | null>(
    () =>
      data
        ? {
            messageDelay: data.messageDelay,
            dailyLimit: data.dailyLimit,
            respectBusinessHours: data.respectBusinessHours,
            businessStart: data.businessStart,
            businessEnd: data.businessEnd,
          }
        : null,
    [data],
  );

  return (
    <Dialog open={connection !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{connectionSettingsFormMsg.title}</DialogTitle>
          <DialogDescription>
            {connection ? <span className="font-medium text-foreground">{connection.label}</span> : null}
            {connection ? ' · ' : null}
            {connectionSettingsFormMsg.description}
          </DialogDescription>
        </DialogHeader>
        {!connection ? null : account ? (
          <SettingsForm connection={connection} account={account} onClose={() => onOpenChange(false)} />
        ) : accountQuery.isError ? (
          <ErrorState
            className="py-4"
            title="Não foi possível carregar as configurações da conta."
            onRetry={() => void accountQuery.refetch()}
            retrying={accountQuery.isFetching}
          />
        ) : (
          <SettingsSkeleton />
        )}
      </DialogContent>
    </Dialog>
  );
}

import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { settingsMsg, type WhatsappSettings, whatsappSettingsSchema } from '#contract/settings';
import { FormField } from '#web/components/form-field';
import { useWhatsappSettings } from '#web/lib/queries/get-whatsapp-settings';
import { toastSuccess } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useUpdateWhatsappSettings } from '../api/update-whatsapp-settings';
import { LoadedSettingsCard, SaveButton, SwitchRow } from './settings-form-parts';

const fields = [
  'autoReconnect',
  'messageDelay',
  'dailyLimit',
  'respectBusinessHours',
  'businessStart',
  'businessEnd',
] as const;

/** The form's two switches, in order. */
const switches = [
  {
    name: 'autoReconnect',
    id: 'wa-reconnect',
    label: 'Reconectar automaticamente',
    description: 'Volta a conectar sozinho se a conexão cair.',
  },
  {
    name: 'respectBusinessHours',
    id: 'wa-business',
    label: 'Respeitar horário comercial',
    description: 'Campanhas só enviam no expediente, de segunda a sexta.',
  },
] as const;

/** The working day's two ends, shown while 'Respeitar horário comercial' is on. */
const businessHours = [
  { name: 'businessStart', id: 'wa-start', label: 'Início do expediente' },
  { name: 'businessEnd', id: 'wa-end', label: 'Fim do expediente' },
] as const;

function WhatsappForm({ initial, readOnly }: { initial: WhatsappSettings; readOnly: boolean }) {
  const save = useUpdateWhatsappSettings();
  const form = useServerForm(whatsappSettingsSchema, { defaultValues: initial, serverFields: fields });
  useEffect(() => form.reset(initial), [initial, form]);
  const respect = form.watch('respectBusinessHours');

  // The six fields of SPEC §3 only: which number sends is chosen on the 'Números' page (its default),
  // so the stored channel is left as it is.
  const onSubmit = form.handleSubmit(({ channel: _channel, ...values }) =>
    save.mutate(values, {
      onSuccess: () => toastSuccess(settingsMsg.saved),
      onError: (error) => form.failed(error, settingsMsg.saveError),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="grid gap-4 md:grid-cols-2">
        <FormField
          id="wa-delay"
          label="Intervalo entre mensagens (segundos)"
          type="number"
          inputMode="numeric"
          min={1}
          max={60}
          hint="De 1 a 60 segundos. Um intervalo maior protege seu número."
          readOnly={readOnly}
          {...formFieldProps(form, 'messageDelay', { valueAsNumber: true })}
        />
        <FormField
          id="wa-daily"
          label="Limite diário de mensagens"
          type="number"
          inputMode="numeric"
          min={1}
          hint="Contado no dia de Brasília."
          readOnly={readOnly}
          {...formFieldProps(form, 'dailyLimit', { valueAsNumber: true })}
        />
      </div>
      <div className="divide-y border-y">
        {switches.map(({ name, id, label, description }) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <SwitchRow
                className="py-3"
                id={id}
                label={label}
                description={description}
                checked={field.value}
                disabled={readOnly}
                onCheckedChange={field.onChange}
              />
            )}
          />
        ))}
      </div>
      {respect ? (
        <div className="grid gap-4 sm:grid-cols-2 md:max-w-md">
          {businessHours.map(({ name, id, label }) => (
            <FormField
              key={name}
              id={id}
              label={label}
              type="time"
              readOnly={readOnly}
              {...formFieldProps(form, name)}
            />
          ))}
        </div>
      ) : null}
      <div>
        <SaveButton pending={save.isPending} readOnly={readOnly} />
      </div>
    </form>
  );
}

export function WhatsappSection({ readOnly, locked }: { readOnly: boolean; locked: boolean }) {
  const query = useWhatsappSettings(!locked);
  return (
    <LoadedSettingsCard
      title="WhatsApp"
      description="Como e quando suas mensagens são enviadas. O envio segue estas regras."
      query={query}
      locked={locked}
    >
      {(data) => <WhatsappForm initial={data} readOnly={readOnly} />}
    </LoadedSettingsCard>
  );
}

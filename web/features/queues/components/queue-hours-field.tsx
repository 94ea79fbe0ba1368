import { type ComponentProps, useId } from 'react';
import { QUEUE_MESSAGE_MAX } from '#contract/queues';
import { FieldError } from '#web/components/field-error';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { SwitchRow } from '#web/components/ui/switch-row';
import { Textarea } from '#web/components/ui/textarea';
import { WeekdayToggles } from '#web/components/weekday-toggles';
import { cn } from '#web/lib/utils';
import type { QueueHoursValues } from '../queue-view';

export interface QueueHoursErrors {
  start?: string;
  end?: string;
  days?: string;
  outOfHoursMessage?: string;
}

/**
 * 'Horário de atendimento' of a queue, as the chatbot's business hours are edited: 'Aberta 24
 * horas' (no hours), or the start, the end and the days (Brasília time); then the message a
 * contact gets once a day when writing outside them.
 */
export function QueueHoursField({
  hours,
  onAlwaysOpenChange,
  onHoursChange,
  outOfHoursMessage,
  outOfHoursProps,
  errors,
}: {
  hours: QueueHoursValues | null;
  onAlwaysOpenChange: (alwaysOpen: boolean) => void;
  onHoursChange: (hours: QueueHoursValues) => void;
  outOfHoursMessage: string;
  /** The message's registration (react-hook-form's `register('outOfHoursMessage')`). */
  outOfHoursProps: Omit<ComponentProps<'textarea'>, 'value' | 'defaultValue'>;
  errors: QueueHoursErrors;
}) {
  const ids = {
    start: useId(),
    end: useId(),
    hoursError: useId(),
    daysError: useId(),
    daysHint: useId(),
    message: useId(),
    messageHint: useId(),
    messageError: useId(),
  };
  const hoursError = errors.start ?? errors.end;
  const days = hours?.days ?? [];
  return (
    <fieldset className="grid min-w-0 gap-4 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Horário de atendimento</legend>
      <SwitchRow
        label="Aberta 24 horas"
        description={
          hours
            ? 'Desligado: fora do horário abaixo, o contato recebe a mensagem de fora do horário.'
            : 'Ligado: a fila atende a qualquer hora, todos os dias.'
        }
        checked={hours === null}
        onCheckedChange={onAlwaysOpenChange}
      />
      {hours ? (
        <>
          <div className="grid gap-3 min-[420px]:grid-cols-2 sm:max-w-sm">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.start}>Início</Label>
              <Input
                id={ids.start}
                type="time"
                value={hours.start}
                aria-invalid={errors.start ? true : undefined}
                aria-describedby={hoursError ? ids.hoursError : undefined}
                onChange={(e) => onHoursChange({ ...hours, start: e.target.value })}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.end}>Fim</Label>
              <Input
                id={ids.end}
                type="time"
                value={hours.end}
                aria-invalid={errors.end ? true : undefined}
                aria-describedby={hoursError ? ids.hoursError : undefined}
                onChange={(e) => onHoursChange({ ...hours, end: e.target.value })}
              />
            </div>
          </div>
          <FieldError id={ids.hoursError} message={hoursError} />
          <WeekdayToggles
            days={days}
            onChange={(next) => onHoursChange({ ...hours, days: next })}
            describedBy={[ids.daysHint, errors.days ? ids.daysError : null].filter(Boolean).join(' ')}
          />
          <p
            id={ids.daysHint}
            className={cn('text-xs', days.length === 0 ? 'text-amber-900' : 'text-muted-foreground')}
          >
            {days.length === 0
              ? 'Nenhum dia marcado: a fila fica sempre fora do horário.'
              : 'No horário de Brasília. Nos outros dias e horas, a fila está fechada.'}
          </p>
          <FieldError id={ids.daysError} message={errors.days} />

          <div className="grid gap-2">
            <Label htmlFor={ids.message}>Mensagem fora do horário</Label>
            <Textarea
              id={ids.message}
              rows={3}
              maxLength={QUEUE_MESSAGE_MAX}
              placeholder="Nosso atendimento é de segunda a sexta, das 9h às 18h. Respondemos assim que voltarmos!"
              aria-invalid={errors.outOfHoursMessage ? true : undefined}
              aria-describedby={[ids.messageHint, errors.outOfHoursMessage ? ids.messageError : null]
                .filter(Boolean)
                .join(' ')}
              {...outOfHoursProps}
            />
            <p id={ids.messageHint} className="text-xs text-muted-foreground">
              Enviada uma vez por dia a quem escreve fora do horário da fila.{' '}
              {outOfHoursMessage.trim() ? null : 'Em branco: nenhuma mensagem.'}
            </p>
            <FieldError id={ids.messageError} message={errors.outOfHoursMessage} />
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

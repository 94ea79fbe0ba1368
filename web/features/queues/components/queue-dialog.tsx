import { type ReactNode, useEffect, useId, useRef } from 'react';
import type { FieldError as FormFieldError } from 'react-hook-form';
import { Link } from 'react-router';
import { formatPhone } from '#contract/phone';
import {
  QUEUE_ASSIGNMENT_LABELS,
  QUEUE_NAME_MAX,
  type Queue,
  type QueueInput,
  queueAssignments,
  queueInput,
} from '#contract/queues';
import { TEAM_ROLE_LABELS } from '#contract/team';
import { FieldError } from '#web/components/field-error';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { Label } from '#web/components/ui/label';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group';
import { Skeleton } from '#web/components/ui/skeleton';
import { paths } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { useTeamDirectory } from '#web/lib/queries/get-team-directory';
import { toastOutcome } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useSaveQueue } from '../api/save-queue';
import {
  defaultQueueHours,
  type QueueFormValues,
  type QueueHoursValues,
  queueFormValues,
  toggleId,
} from '../queue-view';
import { QueueHoursField } from './queue-hours-field';

const SAVE_ERROR = 'Não foi possível salvar a fila. Tente novamente.';

/** What each way of handing out conversations means, under its label. */
const ASSIGNMENT_HINTS: Record<QueueInput['assignment'], string> = {
  manual: 'As conversas ficam na fila até alguém da equipe assumir.',
  round_robin: 'Cada conversa nova vai para a próxima pessoa da fila que estiver online.',
};

/** The server's field names for the form's fields (a bad hour comes back as `hours.end`). */
const SERVER_FIELDS = {
  name: 'name',
  connectionIds: 'connectionIds',
  memberIds: 'memberIds',
  'hours.start': 'hours.start',
  'hours.end': 'hours.end',
  'hours.days': 'hours.days',
  outOfHoursMessage: 'outOfHoursMessage',
  assignment: 'assignment',
} as const;

/** The message of a list's error: on the list itself, or on one of its items. */
function listError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as Partial<FormFieldError> & { root?: FormFieldError } & Record<number, FormFieldError | undefined>;
  if (e.message) return e.message;
  if (e.root?.message) return e.root.message;
  for (const item of Object.values(e)) {
    if (item && typeof item === 'object' && 'message' in item && typeof item.message === 'string') return item.message;
  }
  return undefined;
}

interface CheckOption {
  id: string;
  label: string;
  detail?: string;
}

/** A labelled list of checkboxes (the queue's numbers, its people), with its hint and its error. */
function CheckListField({
  legend,
  hint,
  options,
  value,
  onChange,
  error,
  loading,
  empty,
  testId,
}: {
  legend: string;
  hint: string;
  options: readonly CheckOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string;
  loading: boolean;
  empty: ReactNode;
  testId: string;
}) {
  const ids = { hint: useId(), error: useId() };
  let body: ReactNode;
  if (loading) {
    body = (
      <div
        className="grid gap-2 rounded-md border p-3"
        role="status"
        aria-busy="true"
        aria-label={`Carregando ${legend}`}
      >
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-5 w-32" />
      </div>
    );
  } else if (options.length === 0) {
    body = <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">{empty}</p>;
  } else {
    body = (
      <ul className="grid max-h-48 gap-0.5 overflow-y-auto rounded-md border p-1.5" data-testid={testId}>
        {options.map((o) => (
          <li key={o.id}>
            <label className="flex min-w-0 cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-muted pointer-coarse:min-h-11">
              <input
                type="checkbox"
                className="size-4 shrink-0 accent-brand-strong"
                checked={value.includes(o.id)}
                onChange={(e) => onChange(toggleId(value, o.id, e.target.checked))}
              />
              <span className="min-w-0 flex-1 truncate font-medium">{o.label}</span>
              {o.detail ? (
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{o.detail}</span>
              ) : null}
            </label>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <fieldset
      className="grid min-w-0 gap-2"
      aria-describedby={[ids.hint, error ? ids.error : null].filter(Boolean).join(' ')}
    >
      <legend className="pb-2 text-sm font-medium">{legend}</legend>
      {body}
      <p id={ids.hint} className="text-xs text-muted-foreground">
        {hint}
      </p>
      <FieldError id={ids.error} message={error} />
    </fieldset>
  );
}

/**
 * 'Nova fila' / 'Editar fila': the name, the numbers whose new conversations join it, who works it,
 * how conversations are handed out, and its hours with the out-of-hours message; checked by the
 * contract's `queueInput`, the server's field messages (a name taken) under the fields.
 */
export function QueueDialog({
  open,
  queue,
  onOpenChange,
}: {
  open: boolean;
  queue: Queue | null;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveQueue();
  const connections = useConnections();
  const directory = useTeamDirectory(open);
  const form = useServerForm<QueueFormValues, QueueInput>(queueInput, {
    defaultValues: queueFormValues(null),
    serverFields: SERVER_FIELDS,
  });
  const { errors } = form.formState;
  const values = form.watch();
  const assignmentLegend = useId();
  const assignmentError = useId();
  // The hours set before 'Aberta 24 horas' was switched on, back if it is switched off again.
  const lastHours = useRef<QueueHoursValues | null>(null);

  useEffect(() => {
    if (!open) return;
    form.reset(queueFormValues(queue));
    lastHours.current = null;
  }, [open, queue, form]);

  /** Sets a field the inputs do not register; checked again once the form was submitted. */
  const set = <K extends 'connectionIds' | 'memberIds' | 'hours' | 'assignment'>(key: K, value: QueueFormValues[K]) =>
    form.setValue(key, value as never, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { id: queue?.id, input },
      toastOutcome(
        () => onOpenChange(false),
        (error) => form.failed(error, SAVE_ERROR),
      ),
    ),
  );

  // Ids the lists no longer have (a number removed, a person deactivated) stay ticked until unticked.
  const numberOptions: CheckOption[] = (connections.data?.connections ?? []).map((c) => ({
    id: c.id,
    label: c.label,
    detail: c.phoneNumber ? formatPhone(c.phoneNumber) : undefined,
  }));
  const chosenNumbers = values.connectionIds ?? [];
  if (connections.data) {
    for (const id of chosenNumbers) {
      if (!numberOptions.some((o) => o.id === id)) numberOptions.push({ id, label: 'Número removido da conta' });
    }
  }
  const memberOptions: CheckOption[] = (directory.data ?? []).map((m) => ({
    id: m.id,
    label: m.name,
    detail: TEAM_ROLE_LABELS[m.role],
  }));
  const chosenMembers = values.memberIds ?? [];
  if (directory.data) {
    for (const id of chosenMembers) {
      if (!memberOptions.some((o) => o.id === id)) memberOptions.push({ id, label: 'Membro desativado' });
    }
  }

  const hours = values.hours ?? null;
  const hoursErrors = errors.hours as
    | (FormFieldError & { start?: FormFieldError; end?: FormFieldError; days?: unknown })
    | undefined;
  const assignment = values.assignment ?? 'manual';

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={queue ? 'Editar fila' : 'Nova fila'}
      description="Separe as conversas por número ou assunto, com quem atende e o horário da fila."
      className="sm:max-w-xl"
      onSubmit={submit}
      pending={save.isPending}
      submitLabel={queue ? 'Salvar Alterações' : 'Criar Fila'}
      pendingLabel="Salvando..."
    >
      <FormField
        label="Nome"
        placeholder="Financeiro"
        autoComplete="off"
        maxLength={QUEUE_NAME_MAX + 1}
        hint={`Até ${QUEUE_NAME_MAX} caracteres, diferente das outras filas.`}
        {...formFieldProps(form, 'name')}
      />

      <CheckListField
        legend="Números"
        hint="As conversas novas destes números entram na fila. Sem número, a fila recebe só as conversas que o chatbot encaminhar."
        options={numberOptions}
        value={chosenNumbers}
        onChange={(next) => set('connectionIds', next)}
        error={listError(errors.connectionIds)}
        loading={connections.isPending}
        empty={
          <>
            Nenhum número cadastrado.{' '}
            <Link to={paths.connections} className="font-medium text-foreground underline underline-offset-4">
              Adicionar número
            </Link>
          </>
        }
        testId="queue-numbers"
      />

      <CheckListField
        legend="Equipe"
        hint="Quem atende as conversas desta fila."
        options={memberOptions}
        value={chosenMembers}
        onChange={(next) => set('memberIds', next)}
        error={listError(errors.memberIds)}
        loading={directory.isPending}
        empty="Ninguém na equipe ainda. Convide pessoas em Equipe."
        testId="queue-members"
      />

      <div className="grid gap-2">
        <span id={assignmentLegend} className="text-sm font-medium">
          Distribuição das conversas
        </span>
        <RadioGroup
          aria-labelledby={assignmentLegend}
          aria-describedby={errors.assignment ? assignmentError : undefined}
          value={assignment}
          onValueChange={(next) => set('assignment', next as QueueInput['assignment'])}
        >
          {queueAssignments.map((a) => {
            const id = `${assignmentLegend}-${a}`;
            return (
              <div key={a} className="flex items-start gap-3 rounded-md border p-3">
                <RadioGroupItem value={a} id={id} className="mt-0.5" aria-describedby={`${id}-hint`} />
                <div className="grid min-w-0 gap-0.5">
                  <Label htmlFor={id} className="cursor-pointer">
                    {QUEUE_ASSIGNMENT_LABELS[a]}
                  </Label>
                  <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                    {ASSIGNMENT_HINTS[a]}
                  </p>
                </div>
              </div>
            );
          })}
        </RadioGroup>
        <FieldError id={assignmentError} message={errors.assignment?.message} />
      </div>

      <QueueHoursField
        hours={hours}
        onAlwaysOpenChange={(alwaysOpen) => {
          if (alwaysOpen) {
            lastHours.current = hours;
            set('hours', null);
          } else {
            set('hours', lastHours.current ?? defaultQueueHours());
          }
        }}
        onHoursChange={(next) => set('hours', next)}
        outOfHoursMessage={values.outOfHoursMessage ?? ''}
        outOfHoursProps={form.register('outOfHoursMessage')}
        errors={{
          start: hoursErrors?.start?.message ?? hoursErrors?.message,
          end: hoursErrors?.end?.message,
          days: listError(hoursErrors?.days),
          outOfHoursMessage: errors.outOfHoursMessage?.message,
        }}
      />
    </FormDialog>
  );
}

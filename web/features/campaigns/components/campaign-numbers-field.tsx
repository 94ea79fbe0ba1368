import { useId } from 'react';
import type { ConnectionView } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { ConnectionBadges } from '#web/components/connection-badges';
import { FieldError } from '#web/components/field-error';
import { Button } from '#web/components/ui/button';
import { Label } from '#web/components/ui/label';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group';
import { formatNumber } from '#web/lib/format';
import { capacityToday, useConnections } from '#web/lib/queries/connections';

/** A number as the picker names it: 'Vendas (+55 11 98765-4321)'. */
function numberName(c: ConnectionView): string {
  return c.phoneNumber ? `${c.label} (${formatPhone(c.phoneNumber)})` : c.label;
}

/** The numbers ready to send now: connected and not paused. */
function sendingNow(c: ConnectionView): boolean {
  return c.status === 'connected' && !c.paused;
}

/** 'Capacidade hoje dos números escolhidos: 1.400 mensagens' over the chosen numbers. */
export function chosenCapacityText(connections: readonly ConnectionView[], chosen: readonly string[]): string {
  const total = connections.filter((c) => chosen.includes(c.id)).reduce((sum, c) => sum + capacityToday(c), 0);
  return `Capacidade hoje dos números escolhidos: ${countLabel(total, 'mensagem', 'mensagens')}`;
}

/**
 * 'Números que enviam', shown when the account has two numbers or more (or the campaign was saved
 * with chosen numbers): the default number, or a choice among the account's numbers with each one's
 * state and what it may still send today. `value` absent is the default number.
 */
export function CampaignNumbersField({
  active,
  value,
  error,
  onChange,
}: {
  active: boolean;
  value: string[] | undefined;
  error?: string;
  onChange: (value: string[] | undefined) => void;
}) {
  const connections = useConnections();
  const ids = { legend: useId(), hint: useId(), error: useId(), capacity: useId() };
  const list = connections.data?.connections ?? [];
  const chosen = value ?? [];
  if (!active || !connections.data || (list.length < 2 && chosen.length === 0)) return null;

  const defaultNumber = list.find((c) => c.isDefault);
  const mode = value === undefined ? 'default' : 'chosen';
  const toggle = (id: string, checked: boolean) =>
    onChange(checked ? [...chosen.filter((x) => x !== id), id] : chosen.filter((x) => x !== id));
  const connected = list.filter(sendingNow).map((c) => c.id);
  // Ids no longer in the account (a number removed since the campaign was saved) stay chosen until unticked.
  const missing = chosen.filter((id) => !list.some((c) => c.id === id));

  return (
    <fieldset
      className="grid gap-3"
      aria-describedby={[ids.hint, error ? ids.error : null].filter(Boolean).join(' ')}
      data-testid="campaign-numbers"
    >
      <legend id={ids.legend} className="mb-2 text-sm font-medium">
        Números que enviam
      </legend>
      <p id={ids.hint} className="text-xs text-muted-foreground">
        Com vários números, os destinatários são divididos entre eles pela capacidade de cada um; se um número parar, os
        outros continuam o envio.
      </p>
      <RadioGroup
        aria-labelledby={ids.legend}
        value={mode}
        onValueChange={(next) => {
          if (next === 'default') onChange(undefined);
          // Starts from the default number, the one that would have sent it.
          else onChange(chosen.length > 0 ? chosen : defaultNumber ? [defaultNumber.id] : []);
        }}
        className="sm:grid-cols-2"
      >
        <div className="flex items-start gap-3 rounded-md border p-3">
          <RadioGroupItem value="default" id={`${ids.legend}-default`} className="mt-0.5" />
          <div className="grid min-w-0 gap-0.5">
            <Label htmlFor={`${ids.legend}-default`} className="cursor-pointer">
              Número padrão
            </Label>
            <p className="text-xs break-words text-muted-foreground">
              {defaultNumber ? numberName(defaultNumber) : 'O número padrão da conta'}
            </p>
          </div>
        </div>
        <div className="flex items-start gap-3 rounded-md border p-3">
          <RadioGroupItem value="chosen" id={`${ids.legend}-chosen`} className="mt-0.5" />
          <div className="grid min-w-0 gap-0.5">
            <Label htmlFor={`${ids.legend}-chosen`} className="cursor-pointer">
              Escolher números
            </Label>
            <p className="text-xs text-muted-foreground">Envie por um ou mais números da conta.</p>
          </div>
        </div>
      </RadioGroup>

      {mode === 'chosen' ? (
        <div className="grid gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-xs text-muted-foreground">
              {countLabel(chosen.length, 'número escolhido', 'números escolhidos')}
            </span>
            <Button variant="outline" size="sm" disabled={connected.length === 0} onClick={() => onChange(connected)}>
              Todos os conectados
            </Button>
          </div>
          <ul className="grid max-h-56 gap-1 overflow-y-auto rounded-md border p-2" aria-label="Números da conta">
            {list.map((c) => {
              return (
                <li key={c.id}>
                  <label
                    className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-muted"
                    data-testid="campaign-number-option"
                  >
                    <input
                      type="checkbox"
                      className="mt-0.5 size-4 shrink-0 accent-brand-strong"
                      checked={chosen.includes(c.id)}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                    />
                    <span className="grid min-w-0 flex-1 gap-1">
                      <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                        <span className="min-w-0 truncate font-medium">{c.label}</span>
                        {c.phoneNumber ? (
                          <span className="text-xs text-muted-foreground tabular-nums">
                            {formatPhone(c.phoneNumber)}
                          </span>
                        ) : null}
                      </span>
                      <span className="flex flex-wrap items-center gap-1.5">
                        <ConnectionBadges connection={c} />
                        <span className="text-xs text-muted-foreground tabular-nums">
                          Hoje: {formatNumber(c.sentToday)} de {formatNumber(c.dailyLimit)} · restam{' '}
                          {formatNumber(capacityToday(c))}
                        </span>
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          {missing.length > 0 ? (
            <p className="text-xs text-amber-900">
              {countLabel(missing.length, 'número escolhido foi removido', 'números escolhidos foram removidos')} da
              conta: escolha outro.
            </p>
          ) : null}
          <p
            id={ids.capacity}
            className="rounded-md bg-muted/60 px-3 py-2 text-sm font-medium"
            aria-live="polite"
            data-testid="campaign-numbers-capacity"
          >
            {chosenCapacityText(list, chosen)}
          </p>
        </div>
      ) : null}
      <FieldError id={ids.error} message={error} />
    </fieldset>
  );
}

import { useId } from 'react';
import type { CampaignNumbers } from '#contract/campaigns';
import { type ConnectionStopReason, connectionStopReasons, stopReasonLabels } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { formatNumber } from '#web/lib/format';
import { useIsMobile } from '#web/lib/use-media-query';

type NumberLine = CampaignNumbers['numbers'][number];

/** 'Parou: restrito pelo WhatsApp', or null while the number sends (or for a reason the browser does not know). */
export function stoppedText(reason: string | null): string | null {
  if (!reason || !(connectionStopReasons as readonly string[]).includes(reason)) return null;
  return `Parou: ${stopReasonLabels[reason as ConnectionStopReason]}`;
}

const FIGURES = [
  { key: 'sent', label: 'Enviadas' },
  { key: 'delivered', label: 'Entregues' },
  { key: 'read', label: 'Lidas' },
  { key: 'failed', label: 'Falhas' },
  { key: 'queued', label: 'Na fila' },
] as const;

/** Whether a campaign's report has a 'Por número' section: it chose numbers, or more than one sent it. */
export function showsNumbers(connectionIds: readonly string[] | undefined, data: CampaignNumbers | undefined): boolean {
  return (connectionIds?.length ?? 0) > 0 || (data?.numbers.length ?? 0) >= 2;
}

function NumberName({ n }: { n: NumberLine }) {
  const stopped = stoppedText(n.stopReason);
  return (
    <span className="grid min-w-0 gap-0.5">
      <span className="font-medium">
        {n.label}
        {n.removed ? <span className="font-normal text-muted-foreground"> (removido)</span> : null}
      </span>
      {n.phoneNumber ? (
        <span className="text-xs text-muted-foreground tabular-nums">{formatPhone(n.phoneNumber)}</span>
      ) : null}
      {stopped ? (
        <span className="text-xs font-medium text-amber-900" data-testid="campaign-number-stopped">
          {stopped}
        </span>
      ) : null}
    </span>
  );
}

/**
 * 'Por número': how each number that sends the campaign did (sent, delivered, read, failed, still
 * queued), why one stopped, and the lines no number has taken yet. A table, or cards on a phone.
 */
export function CampaignNumbersReport({ data }: { data: CampaignNumbers }) {
  const titleId = useId();
  const isMobile = useIsMobile();
  return (
    <section aria-labelledby={titleId} className="grid gap-2" data-testid="campaign-numbers-report">
      <h3 id={titleId} className="text-sm font-semibold">
        Por número
      </h3>
      {isMobile ? (
        <ul className="grid gap-2" aria-label="Envios por número">
          {data.numbers.map((n) => (
            <li key={n.connectionId} className="grid gap-2 rounded-md border p-3 text-sm" data-testid="number-row">
              <NumberName n={n} />
              <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-xs">
                {FIGURES.map((f) => (
                  <div key={f.key} className="grid gap-0.5">
                    <dt className="text-muted-foreground">{f.label}</dt>
                    <dd className="text-sm font-medium tabular-nums" data-testid={`number-${f.key}`}>
                      {formatNumber(n[f.key])}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Envios da campanha por número</caption>
            <thead className="bg-muted/60 text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Número
                </th>
                {FIGURES.map((f) => (
                  <th key={f.key} scope="col" className="px-3 py-2 text-right font-medium">
                    {f.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.numbers.map((n) => (
                <tr key={n.connectionId} className="border-t align-top" data-testid="number-row">
                  <th scope="row" className="px-3 py-2 text-left font-normal">
                    <NumberName n={n} />
                  </th>
                  {FIGURES.map((f) => (
                    <td key={f.key} className="px-3 py-2 text-right tabular-nums" data-testid={`number-${f.key}`}>
                      {formatNumber(n[f.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.unassigned > 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="campaign-numbers-unassigned">
          Aguardando um número: {formatNumber(data.unassigned)}
        </p>
      ) : null}
      {data.numbers.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhum número enviou esta campanha ainda.</p>
      ) : null}
    </section>
  );
}

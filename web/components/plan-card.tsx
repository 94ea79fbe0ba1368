import { Check, ExternalLink, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { connectionLimitFor, connectionLimitText, MONEY_BACK_GUARANTEE_DAYS, type Plan } from '#contract/plans';
import { countLabel } from '#contract/plural';
import { formatMoney } from '#web/lib/format';
import { cn } from '#web/lib/utils';

const PERIOD_LABEL: Record<string, string> = {
  mensal: 'Mensal',
  trimestral: 'Trimestral',
  semestral: 'Semestral',
  anual: 'Anual',
};

const PERIOD_SUFFIX: Record<string, string> = {
  mensal: 'por mês',
  trimestral: 'por trimestre',
  semestral: 'por semestre',
  anual: 'por ano',
};

export function contactLimitText(limit: number | null): string {
  return limit === null ? 'Contatos ilimitados' : `Até ${countLabel(limit, 'contato', 'contatos')}`;
}

/** A plan of SPEC §9 as a card; the landing page and the settings' Planos section both use it. */
export function PlanCard({
  plan,
  highlight = false,
  badge,
  action,
}: {
  plan: Plan;
  highlight?: boolean;
  badge?: string;
  action?: ReactNode;
}) {
  const headingId = `plano-${plan.type}`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid={`plan-${plan.type}`}
      className={cn(
        'relative flex flex-col gap-4 rounded-lg border bg-card p-6 shadow-sm',
        highlight && 'border-2 border-brand-strong shadow-md',
      )}
    >
      {badge ? (
        <span className="absolute -top-3 left-6 rounded-full bg-brand-deep px-3 py-0.5 text-xs font-semibold text-white">
          {badge}
        </span>
      ) : null}
      <div className="grid gap-1">
        <p className="text-sm font-medium text-brand-ink">{PERIOD_LABEL[plan.period] ?? plan.period}</p>
        <h3 id={headingId} className="text-xl font-semibold">
          {plan.label}
        </h3>
      </div>
      <div className="grid gap-0.5">
        <p className="text-sm text-muted-foreground">
          De <s>{formatMoney(plan.listPrice)}</s> por
        </p>
        <p className="text-3xl font-bold tracking-tight whitespace-nowrap tabular-nums">
          {formatMoney(plan.price)}
          <span className="block text-sm font-normal tracking-normal text-muted-foreground">
            {PERIOD_SUFFIX[plan.period] ?? ''}
          </span>
        </p>
        {plan.note ? <p className="text-xs text-muted-foreground">Valor do {plan.note}</p> : null}
      </div>
      <ul className="grid gap-2 text-sm">
        {[
          connectionLimitText(connectionLimitFor(plan.type)),
          contactLimitText(plan.contactLimit),
          'Campanhas e chatbot',
          'Relatórios de entrega',
        ].map((item) => (
          <li key={item} className="flex items-center gap-2">
            <Check aria-hidden className="size-4 shrink-0 text-brand-strong" />
            {item}
          </li>
        ))}
        <li className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-4 shrink-0 text-brand-strong" />
          Garantia de {countLabel(MONEY_BACK_GUARANTEE_DAYS, 'dia', 'dias')}
        </li>
      </ul>
      {action ? <div className="mt-auto pt-2">{action}</div> : null}
    </article>
  );
}

/** The external payment link of a plan as a button (opens in a new window). */
export function PaymentLinkButton({ href, label, className }: { href: string; label: string; className?: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-primary px-3 text-sm font-semibold whitespace-nowrap text-primary-foreground shadow-sm transition-colors hover:bg-brand-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        className,
      )}
    >
      {label}
      <ExternalLink aria-hidden className="size-4" />
      <span className="sr-only">(abre em nova janela)</span>
    </a>
  );
}

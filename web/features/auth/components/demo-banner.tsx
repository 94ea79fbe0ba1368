import { useQueryClient } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { useEffect } from 'react';
import type { User } from '#contract/auth';
import { formatRemaining } from '#web/lib/format';
import { useProductName } from '#web/lib/public-config';
import { meQueryKey } from '#web/lib/query-keys';
import { useNow } from '#web/lib/use-now';

/** Time left of a demo account: 'Expira em 1h 23min', or 'Expirado'. */
export function demoCountdownText(demoExpiresAt: string | null, now: number): string {
  if (!demoExpiresAt) return 'Expirado';
  const remaining = formatRemaining(Date.parse(demoExpiresAt) - now);
  return remaining ? `Expira em ${remaining}` : 'Expirado';
}

/**
 * Countdown banner for demo accounts (SPEC §4). At zero it re-checks the
 * session: the server answers 401 and the app moves to /login?expired=1.
 */
export function DemoBanner({ user }: { user: User }) {
  const product = useProductName();
  const now = useNow(15_000);
  const queryClient = useQueryClient();
  const expiresAt = user.demoExpiresAt ? Date.parse(user.demoExpiresAt) : 0;
  const expired = expiresAt <= now;

  useEffect(() => {
    if (expired) void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [expired, queryClient]);

  // Wake up right at the expiry instead of waiting for the next tick.
  useEffect(() => {
    const wait = expiresAt - Date.now();
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const id = window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: meQueryKey }), wait + 1_000);
    return () => window.clearTimeout(id);
  }, [expiresAt, queryClient]);

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900 sm:px-6 lg:px-8">
      <Clock aria-hidden className="size-4 shrink-0" />
      <p className="font-semibold">Conta Demo</p>
      <p className="order-last w-full sm:order-none sm:w-auto sm:min-w-0 sm:flex-1">
        Você está testando o {product}. As ações ficam desativadas na demonstração.
      </p>
      <p
        className="ml-auto rounded-full bg-amber-100 px-2.5 py-0.5 font-semibold tabular-nums sm:ml-0"
        data-testid="demo-countdown"
      >
        {demoCountdownText(user.demoExpiresAt, now)}
      </p>
    </div>
  );
}

import { useEffect, useRef } from 'react';
import { TOAST } from '#contract/constants';
import { toast } from '#web/components/ui/use-toast';
import { formatRelativeTime } from '#web/lib/format';
import { useRecentActivations } from '../api/get-recent-activations';

/** 'Um cliente assinou o Plano Profissional 12m atrás', with the app's one relative-time text. */
export function purchaseNoticeText(a: { planLabel: string; activatedAt: string }, now: number): string {
  return `Um cliente assinou o ${a.planLabel} ${formatRelativeTime(a.activatedAt, now)}`;
}

/** Seconds to wait before the n-th notice (0-based): 3, 10, 15, 25, 40, 60, 90, then 90 again. */
export function noticeDelaySec(n: number): number {
  const delays = TOAST.purchaseDelaysSec;
  return delays[Math.min(n, delays.length - 1)];
}

/**
 * The demo's purchase notice (SPEC §6, §9): real plan activations of the last 30 days, without who
 * bought, one every 3, 10, 15… seconds, each shown 4 s. With none, nothing is shown.
 */
export function usePurchaseNotice(enabled: boolean): void {
  const { data } = useRecentActivations(enabled);
  const activations = data?.activations ?? [];
  const latest = useRef(activations);
  latest.current = activations;
  const hasAny = activations.length > 0;

  useEffect(() => {
    if (!enabled || !hasAny) return;
    let shown = 0;
    let timer: number;
    const schedule = () => {
      timer = window.setTimeout(() => {
        const list = latest.current;
        if (list.length) {
          const a = list[shown % list.length];
          toast({
            title: 'Nova assinatura',
            description: purchaseNoticeText(a, Date.now()),
            durationMs: TOAST.purchaseToastMs,
          });
        }
        shown++;
        schedule();
      }, noticeDelaySec(shown) * 1000);
    };
    schedule();
    return () => window.clearTimeout(timer);
  }, [enabled, hasAny]);
}

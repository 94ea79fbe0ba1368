import { useEffect, useRef } from 'react';
import { TOAST } from '../../../../contract/constants';
import { countLabel } from '../../../../contract/plural';
import { toast } from '../../../components/ui/use-toast';
import { useRecentActivations } from '../api/get-recent-activations';

/** 'há 12 min', 'há 3 h', 'há 2 dias'. */
export function timeAgo(iso: string, now: number): string {
  const minutes = Math.max(1, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${hours} h`;
  const days = Math.floor(hours / 24);
  return `há ${countLabel(days, 'dia', 'dias')}`;
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
            description: `Um cliente assinou o ${a.planLabel} ${timeAgo(a.activatedAt, Date.now())}`,
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

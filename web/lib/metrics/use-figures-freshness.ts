import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { Campaign } from '#contract/campaigns';
import { campaignsQueryKey } from '../query-keys';
import { campaignFiguresKey, figuresPollMsNow, isFiguresQueryKey } from './figures-freshness';

/**
 * The figure queries' refetch interval and stale time (see figures-freshness.ts): a function of the
 * cache, so TanStack Query evaluates it again after every fetch and a campaign ending, starting or
 * finishing its receipts changes the pace without a reload.
 */
export function useFiguresPace(): () => number {
  const client = useQueryClient();
  return useCallback(() => figuresPollMsNow(client), [client]);
}

/**
 * Asks every figure on screen again (GET /api/metrics…) the moment the campaign cards' counts move,
 * so the header, the dashboard and Relatórios show the rows of the same moment as the cards. Mounted
 * once, by the header's figures (on every screen of the signed-in app).
 */
export function useFiguresFollowCampaigns(enabled: boolean): void {
  const client = useQueryClient();
  const memo = useRef<{ data: unknown; key: string }>({ data: undefined, key: '' });
  const snapshot = () => {
    const data = client.getQueryData<Campaign[] | null>(campaignsQueryKey);
    if (data !== memo.current.data) memo.current = { data, key: campaignFiguresKey(data) };
    return memo.current.key;
  };
  const key = useSyncExternalStore(
    useCallback((onChange: () => void) => client.getQueryCache().subscribe(onChange), [client]),
    snapshot,
    snapshot,
  );
  const previous = useRef('');
  useEffect(() => {
    const before = previous.current;
    previous.current = key;
    // The list's first answer is no movement: the figures on screen are being fetched already.
    if (!enabled || before === '' || before === key) return;
    void client.invalidateQueries({ predicate: (q) => isFiguresQueryKey(q.queryKey) });
  }, [client, key, enabled]);
}

import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Campaign } from '#contract/campaigns';
import { POLL_INTERVALS_MS } from '#contract/constants';
import { FIGURES_LIVE_POLL_MS, isLiveCampaign, type TodayMetrics } from '#contract/metrics';
import { campaignsQueryKey, todayMetricsQueryKey } from '../query-keys';

/*
 * How fresh the figures on screen are. The campaign cards refresh every FIGURES_LIVE_POLL_MS while
 * a campaign runs; the header, the dashboard and Relatórios used to wait 30 to 60 s, so a header
 * said 'Enviadas hoje 0' beside a card's 7. Every figure query now refreshes at the cards' pace
 * while a campaign is live — as the server says (`live` of GET /api/metrics/today) or as the
 * campaigns list in the cache already shows (a campaign just started) — and every
 * POLL_INTERVALS_MS.todayFigures otherwise; and when a card's counts move, the figures are asked
 * again at once (`useFiguresFollowCampaigns`), so they come from the same moment's rows.
 */

/** Whether figures are moving: the server says a campaign is live, or a cached campaign is (`isLiveCampaign`). */
export function figuresLive(
  today: Pick<TodayMetrics, 'live'> | null | undefined,
  campaigns: readonly Pick<Campaign, 'status' | 'scheduledAt' | 'finishedAt'>[] | null | undefined,
  now: number = Date.now(),
): boolean {
  return Boolean(today?.live) || (campaigns ?? []).some((c) => isLiveCampaign(c, now));
}

/** How often the figures refresh, and how long an answer stays fresh: the cards' pace while live. */
export function figuresPollMs(live: boolean): number {
  return live ? FIGURES_LIVE_POLL_MS : POLL_INTERVALS_MS.todayFigures;
}

/** The figures' pace now, from what the cache holds (evaluated again after every fetch). */
export function figuresPollMsNow(client: QueryClient, now: number = Date.now()): number {
  return figuresPollMs(
    figuresLive(
      client.getQueryData<TodayMetrics | null>(todayMetricsQueryKey),
      client.getQueryData<Campaign[] | null>(campaignsQueryKey),
      now,
    ),
  );
}

/** The queries of GET /api/metrics and everything under it (today, analytics, report). */
export function isFiguresQueryKey(key: QueryKey): boolean {
  const path = key[0];
  return typeof path === 'string' && (path === '/api/metrics' || path.startsWith('/api/metrics/'));
}

/** A fingerprint of what the campaign cards count: it changes exactly when a card's figures do. */
export function campaignFiguresKey(
  campaigns:
    | readonly Pick<Campaign, 'id' | 'status' | 'messagesSent' | 'messagesDelivered' | 'progress'>[]
    | null
    | undefined,
): string {
  return (campaigns ?? [])
    .map((c) => {
      const p = c.progress;
      return [c.id, c.status, c.messagesSent, c.messagesDelivered, p?.read ?? 0, p?.failed ?? 0].join(':');
    })
    .join('|');
}

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Campaign } from '#contract/campaigns';
import { CAMPAIGN_PROGRESS_POLL_MS } from '#contract/campaigns';
import { POLL_INTERVALS_MS } from '#contract/constants';
import { todayMetricsQueryKey } from '../query-keys';
import {
  campaignFiguresKey,
  figuresLive,
  figuresPollMs,
  figuresPollMsNow,
  isFiguresQueryKey,
} from './figures-freshness';

const now = Date.parse('2026-11-25T15:00:00Z');
const campaign = (status: string, over: Partial<Campaign> = {}): Campaign => ({
  id: `c-${status}`,
  name: status,
  message: 'Oi',
  status,
  messagesSent: 0,
  messagesDelivered: 0,
  targetType: 'all',
  targetGroups: [],
  createdAt: '2026-11-25T12:00:00Z',
  ...over,
});

describe('how fresh the figures are', () => {
  it('refresh at the campaign cards’ pace while a campaign is live, every minute otherwise', () => {
    expect(figuresPollMs(true)).toBe(CAMPAIGN_PROGRESS_POLL_MS);
    expect(figuresPollMs(false)).toBe(POLL_INTERVALS_MS.todayFigures);
  });

  it('are live when the server says so or when a cached campaign already shows it', () => {
    expect(figuresLive(undefined, undefined, now)).toBe(false);
    expect(figuresLive({ live: false }, [campaign('draft'), campaign('paused')], now)).toBe(false);
    expect(figuresLive({ live: true }, null, now)).toBe(true);
    // A campaign just sent from its card: live before the header's next (idle) poll says so.
    expect(figuresLive({ live: false }, [campaign('sending')], now)).toBe(true);
    const finished = (at: number) => campaign('completed', { finishedAt: new Date(at).toISOString() });
    expect(figuresLive({ live: false }, [finished(now - 60_000)], now)).toBe(true);
    expect(figuresLive({ live: false }, [finished(now - 3 * 60_000)], now)).toBe(false);
  });

  it('read the pace from the query cache, again at every evaluation', () => {
    const client = new QueryClient();
    expect(figuresPollMsNow(client, now)).toBe(POLL_INTERVALS_MS.todayFigures);
    client.setQueryData(['/api/campaigns'], [campaign('in_progress')]);
    expect(figuresPollMsNow(client, now)).toBe(CAMPAIGN_PROGRESS_POLL_MS);
    client.setQueryData(['/api/campaigns'], [campaign('completed', { finishedAt: new Date(now).toISOString() })]);
    expect(figuresPollMsNow(client, now + 10_000)).toBe(CAMPAIGN_PROGRESS_POLL_MS);
    // Receipts over: back to the idle pace with no new answer needed.
    expect(figuresPollMsNow(client, now + 5 * 60_000)).toBe(POLL_INTERVALS_MS.todayFigures);
    client.setQueryData(todayMetricsQueryKey, { live: true });
    expect(figuresPollMsNow(client, now + 5 * 60_000)).toBe(CAMPAIGN_PROGRESS_POLL_MS);
  });

  it('knows the figure queries: /api/metrics and everything under it', () => {
    expect(isFiguresQueryKey(['/api/metrics'])).toBe(true);
    expect(isFiguresQueryKey(todayMetricsQueryKey)).toBe(true);
    expect(isFiguresQueryKey(['/api/metrics/report', '2026-11-01', '2026-11-30'])).toBe(true);
    expect(isFiguresQueryKey(['/api/metrics/analytics', '2026-11-01', '2026-11-30'])).toBe(true);
    expect(isFiguresQueryKey(['/api/campaigns'])).toBe(false);
    expect(isFiguresQueryKey(['/api/metricsx'])).toBe(false);
  });

  it('see a card’s counts move, and only that', () => {
    const progress = { total: 10, queued: 4, sending: 0, sent: 1, delivered: 2, read: 1, failed: 1, skipped: 1 };
    const a = campaign('sending', { messagesSent: 4, messagesDelivered: 3, progress });
    const key = campaignFiguresKey([a]);
    expect(campaignFiguresKey([{ ...a }])).toBe(key);
    // The expected finish moves on every answer: not a figure.
    const later: Campaign = { ...a, expectedFinishAt: new Date(now).toISOString() };
    expect(campaignFiguresKey([later])).toBe(key);
    expect(campaignFiguresKey([{ ...a, messagesSent: 5 }])).not.toBe(key);
    expect(campaignFiguresKey([{ ...a, progress: { ...progress, failed: 2 } }])).not.toBe(key);
    expect(campaignFiguresKey([{ ...a, progress: { ...progress, read: 2 } }])).not.toBe(key);
    expect(campaignFiguresKey([{ ...a, status: 'completed' }])).not.toBe(key);
    expect(campaignFiguresKey(undefined)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import {
  attempted,
  deliveryRate,
  deliveryTone,
  FIGURES_LIVE_POLL_MS,
  failureRate,
  isLiveCampaign,
  messageCounts,
  openRate,
  RECEIPTS_GRACE_MS,
  SCHEDULED_LIVE_AHEAD_MS,
} from './metrics';

/** Rows by current status, as a campaign's progress counts them. */
const rows = (sent: number, delivered: number, read: number, failed: number) => ({ sent, delivered, read, failed });

describe('the figures of campaign messages (one definition, server and browser)', () => {
  it('counts a delivered row as sent and a read row as delivered and sent; failed rows apart', () => {
    expect(messageCounts(rows(1, 30, 20, 6))).toEqual({ sent: 51, delivered: 50, read: 20, failed: 6 });
    expect(messageCounts(rows(0, 0, 0, 0))).toEqual({ sent: 0, delivered: 0, read: 0, failed: 0 });
    // Queued, sending and skipped rows are in no figure: extra fields are ignored.
    expect(
      messageCounts({ ...rows(2, 0, 0, 0), queued: 5, sending: 1, skipped: 3 } as ReturnType<typeof rows>),
    ).toEqual({ sent: 2, delivered: 0, read: 0, failed: 0 });
  });

  it('takes the delivery rate over what was tried: sent or failed', () => {
    // The report that started this: 51 sent (50 delivered), 6 failures. Neither 98 % nor 100 %.
    const user = messageCounts(rows(1, 30, 20, 6));
    expect(attempted(user)).toBe(57);
    expect(deliveryRate(user)).toBe(87.7);
    expect(failureRate(user)).toBe(10.5);
    expect(openRate(user)).toBe(40);
    // All delivered, 6 failed: 51 ÷ 57.
    expect(deliveryRate({ sent: 51, delivered: 51, failed: 6 })).toBe(89.5);
    expect(deliveryRate({ sent: 51, delivered: 51, failed: 0 })).toBe(100);
    // Only failures: 0 %, a rate of something; nothing at all: 0 over nothing.
    expect(deliveryRate({ sent: 0, delivered: 0, failed: 4 })).toBe(0);
    expect(failureRate({ sent: 0, failed: 4 })).toBe(100);
    expect(deliveryRate({ sent: 0, delivered: 0, failed: 0 })).toBe(0);
    expect(openRate({ delivered: 0, read: 0 })).toBe(0);
  });

  it('delivery and failure rates cover the same messages', () => {
    for (const [sent, delivered, failed] of [
      [10, 10, 0],
      [10, 7, 3],
      [3, 0, 9],
      [1234, 1200, 56],
    ]) {
      const c = { sent, delivered, failed };
      // Delivered, failed and sent-not-yet-delivered make up the whole.
      expect(deliveryRate(c) + failureRate(c)).toBeCloseTo(100 - (100 * (sent - delivered)) / (sent + failed), 0);
    }
  });

  it('colours a rate as SPEC §9 says, neutral only when nothing was tried', () => {
    expect(deliveryTone({ sent: 10, delivered: 9, failed: 0 })).toBe('green');
    expect(deliveryTone({ sent: 51, delivered: 51, failed: 6 })).toBe('yellow');
    expect(deliveryTone({ sent: 10, delivered: 7, failed: 0 })).toBe('yellow');
    expect(deliveryTone({ sent: 10, delivered: 6, failed: 0 })).toBe('red');
    expect(deliveryTone({ sent: 0, delivered: 0, failed: 3 })).toBe('red');
    expect(deliveryTone({ sent: 0, delivered: 0, failed: 0 })).toBe('neutral');
  });
});

describe('live campaigns: when figures follow at the cards’ pace', () => {
  const now = Date.parse('2026-11-25T15:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('is live while sending or waiting to go on', () => {
    expect(isLiveCampaign({ status: 'sending' }, now)).toBe(true);
    expect(isLiveCampaign({ status: 'in_progress' }, now)).toBe(true);
    expect(isLiveCampaign({ status: 'draft' }, now)).toBe(false);
    expect(isLiveCampaign({ status: 'paused' }, now)).toBe(false);
  });

  it('is live when scheduled to start before the idle poll would look again', () => {
    expect(isLiveCampaign({ status: 'scheduled', scheduledAt: ago(-SCHEDULED_LIVE_AHEAD_MS) }, now)).toBe(true);
    expect(isLiveCampaign({ status: 'scheduled', scheduledAt: ago(-SCHEDULED_LIVE_AHEAD_MS - 1) }, now)).toBe(false);
    expect(isLiveCampaign({ status: 'scheduled', scheduledAt: ago(5_000) }, now)).toBe(true);
  });

  it('stays live while the receipts of its last messages may come in', () => {
    for (const status of ['completed', 'failed', 'cancelled']) {
      expect(isLiveCampaign({ status, finishedAt: ago(RECEIPTS_GRACE_MS - 1) }, now)).toBe(true);
      expect(isLiveCampaign({ status, finishedAt: ago(RECEIPTS_GRACE_MS) }, now)).toBe(false);
    }
    expect(isLiveCampaign({ status: 'completed', finishedAt: null }, now)).toBe(false);
  });

  it('follows at the campaign cards’ own pace', () => {
    expect(FIGURES_LIVE_POLL_MS).toBe(3000);
  });
});

import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import type { ClaimedRow } from './claim';
import { MAX_WINDOWS, Outcomes } from './outcomes';

/** The burst windows are bounded: campaigns that ended elsewhere do not pile up in memory. */
describe('Outcomes burst windows', () => {
  it('keeps at most MAX_WINDOWS campaigns, dropping the one that sent least recently', async () => {
    const statements: unknown[] = [];
    const execute = async (q: unknown) => {
      statements.push(q);
      return { rows: [] };
    };
    const db = { execute } as unknown as Db;
    const log = { warn: () => undefined, error: () => undefined } as never;
    const outcomes = new Outcomes({ db, log, scale: 1, random: () => 0.5 });
    const lane = { userId: 'u', connectionId: 'n', isDefault: true };
    const sent = (campaignId: string) => ({
      row: { id: `${campaignId}-row`, campaignId } as unknown as ClaimedRow,
      ok: true as const,
      providerMessageId: `wamid.${campaignId}`,
    });
    for (let i = 0; i < MAX_WINDOWS + 10; i++) await outcomes.apply(lane, [sent(`c${i}`)]);
    expect(outcomes.windowCount).toBe(MAX_WINDOWS);
    expect(statements).toHaveLength(MAX_WINDOWS + 10);
    // The one that sent again moves to the back: the next newcomer pushes out c11, not c10.
    await outcomes.apply(lane, [sent('c10')]);
    await outcomes.apply(lane, [sent('new')]);
    expect(outcomes.windowCount).toBe(MAX_WINDOWS);
    outcomes.forget('c10');
    expect(outcomes.windowCount).toBe(MAX_WINDOWS - 1);
    outcomes.forget('c11');
    expect(outcomes.windowCount).toBe(MAX_WINDOWS - 1);
  });
});

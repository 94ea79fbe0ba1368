import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import { rowsOf } from '../db/rows';
import { campaignRecipients, contacts } from '../db/schema';
import { BURST_FAILURES } from '../sending/dispatcher';
import { appPerFile } from '../testing/app-per-file';
import { apiFetch, listen, readCampaign, startCampaign, untilCampaign } from '../testing/raw-http';
import {
  connectSimulator,
  createSimulatorTestApp,
  newCustomer,
  setAccountSettings,
  waitFor,
  whenStatusesSettle,
} from '../testing/test-app';
import { DriverError } from '../whatsapp/driver';
import type { SimulatorDriver, SimulatorSendFault } from '../whatsapp/simulator/simulator-driver';

/**
 * The personal number (the simulator) under faults, over real HTTP: sends that fail, sends that
 * went out but whose answer was lost, receipts repeated and backwards, the connection dropping and
 * the number logged out mid-campaign, WhatsApp's time lock. Campaigns wait, pause and resume as
 * designed (decision 009), every recipient gets one message id, and the counters agree with the rows.
 */
const ctx = appPerFile(() => createSimulatorTestApp({ deliveredMs: 30, readMs: 60 }));
let base: string;
beforeAll(async () => {
  base = `http://127.0.0.1:${await listen(ctx)}`;
});

const http = (cookie: string, method: string, path: string, body?: unknown) =>
  apiFetch(base, cookie, method, path, body);

let accounts = 0;

/** A customer with a connected simulated number and `n` contacts (ending in an odd digit, never 0: all on WhatsApp). */
async function account(n: number) {
  const k = ++accounts;
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false, messageDelay: 20 });
  const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
  const phones = Array.from({ length: n }, (_, i) => `55219${String(k).padStart(3, '0')}${String(10_001 + i * 2)}`);
  await ctx.database.db
    .insert(contacts)
    .values(phones.map((p, i) => ({ userId: user.id, name: `Cliente ${i}`, phone: `+${p}` })));
  return { base, user, cookie, driver, phones };
}

type Account = Awaited<ReturnType<typeof account>>;

const rowsOfCampaign = (id: string) =>
  ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));

/** Per recipient, the message ids it got: one each, however often a send was tried. */
function idsByRecipient(outbox: SimulatorDriver['outbox']): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const m of outbox) ids.set(m.to, (ids.get(m.to) ?? new Set()).add(m.providerMessageId));
  return ids;
}

/** The campaign's figures, the dashboard and the rollups (decision 016) all say what the rows say. */
async function countersMatchRows(a: Account, id: string) {
  const rows = await whenStatusesSettle(ctx, () => rowsOfCampaign(id));
  const count = (...statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).length;
  const c = await readCampaign(a, id);
  expect(c.progress).toMatchObject({ total: rows.length, queued: 0, sending: 0, read: count('read') });
  expect(c.messagesSent).toBe(count('sent', 'delivered', 'read'));
  expect(c.messagesDelivered).toBe(count('delivered', 'read'));
  const m = (await http(a.cookie, 'GET', '/api/metrics')).body;
  expect(m).toMatchObject({ messagesSent: c.messagesSent, delivered: c.messagesDelivered, read: count('read') });
  const snapshot = async () =>
    rowsOf(
      await ctx.database.db.execute(sql`
        select campaign_id, hour::text, sent, delivered, read, failed from stats_campaign_hours
        where user_id = ${a.user.id} and (sent, delivered, read, failed) <> (0, 0, 0, 0) order by 1, 2`),
    );
  const kept = await snapshot();
  await ctx.database.db.execute(sql`select stats_rebuild(${a.user.id}::uuid)`);
  expect(kept).toEqual(await snapshot());
}

const chance = (key: string) => createHash('sha256').update(`faults-sim:${key}`).digest().readUInt32BE(0) / 2 ** 32;

describe('the simulated number under faults', () => {
  it('failed sends, lost answers, receipts 3× backwards and a dropped connection: completed, one message id per recipient, all read', async () => {
    const a = await account(20);
    const injected: Array<{ to: string; kind: SimulatorSendFault['kind'] }> = [];
    a.driver.faults = {
      send: (to, attempt) => {
        if (attempt > 2) return null;
        // Two sure faults, then chance: about one send in five fails, one in ten loses its answer.
        const r =
          attempt > 1
            ? chance(`${to}:${attempt}`)
            : to === a.phones[0]
              ? 0
              : to === a.phones[1]
                ? 0.25
                : chance(`${to}:1`);
        const fault: SimulatorSendFault | null =
          r < 0.2
            ? { kind: 'fail', error: new DriverError('transient', 'Tempo esgotado ao enviar') }
            : r < 0.3
              ? { kind: 'lose-answer', error: new DriverError('transient', 'Conexão perdida antes da confirmação') }
              : null;
        if (fault) injected.push({ to, kind: fault.kind });
        return fault;
      },
      receiptCopies: 3,
      reverseReceipts: true,
    };
    const id = await startCampaign(a);
    await waitFor(
      async () => a.driver.outbox.length,
      (n) => n >= 6,
      10_000,
    );
    // The phone loses signal for a second: the campaign waits for it, then goes on by itself.
    a.driver.dropConnection(1000);
    const waiting = await untilCampaign(a, id, (c) => c.waitingReason === 'offline', 5000);
    expect(waiting.status).toBe('in_progress');
    await untilCampaign(a, id, (c) => c.status === 'completed');
    await waitFor(
      () => rowsOfCampaign(id),
      (rows) => rows.every((r) => r.status === 'read'),
      8000,
    );

    expect(injected.filter((f) => f.kind === 'fail').length).toBeGreaterThan(0);
    expect(injected.filter((f) => f.kind === 'lose-answer').length).toBeGreaterThan(0);
    expect(injected.length).toBeLessThan(BURST_FAILURES);
    const ids = idsByRecipient(a.driver.outbox);
    expect([...ids.keys()].sort()).toEqual([...a.phones].sort());
    const rows = new Map((await rowsOfCampaign(id)).map((r) => [r.recipient, r]));
    for (const p of a.phones) {
      // A send tried again goes under the id chosen before the first try: WhatsApp sees one message.
      expect([...(ids.get(p) ?? [])], p).toEqual([rows.get(p)?.providerMessageId]);
      // Only a send whose answer was lost may have gone out more than once, under that same id.
      const lost = injected.filter((f) => f.to === p && f.kind === 'lose-answer').length;
      expect(a.driver.outbox.filter((m) => m.to === p).length, p).toBeLessThanOrEqual(1 + lost);
      expect(rows.get(p)).toMatchObject({ status: 'read', error: null });
      expect(rows.get(p)?.deliveredAt).not.toBeNull();
    }
    await countersMatchRows(a, id);
  });

  it('WhatsApp’s time lock (463) pauses the campaign with the reason; resumed, the rest go out, none twice', async () => {
    const a = await account(8);
    const locked = a.phones[3];
    a.driver.faults = {
      send: (to, attempt) =>
        to === locked && attempt === 1
          ? { kind: 'fail', error: new DriverError('transient', 'Conta temporariamente bloqueada', undefined, 463) }
          : null,
    };
    const id = await startCampaign(a);
    const paused = await untilCampaign(a, id, (c) => c.status === 'paused');
    expect(paused.pauseReason).toBe(campaignMsg.pauseReason.timeLock);
    await new Promise((r) => setTimeout(r, 200));
    const atPause = a.driver.outbox.length;
    expect(atPause).toBeLessThan(8);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.driver.outbox.length).toBe(atPause);
    const held = (await rowsOfCampaign(id)).find((r) => r.recipient === locked);
    expect(held?.status).toBe('queued');

    expect((await http(a.cookie, 'POST', `/api/campaigns/${id}/resume`)).status).toBe(200);
    const done = await untilCampaign(a, id, (c) => c.status === 'completed');
    expect(done.progress).toMatchObject({ total: 8, failed: 0, queued: 0 });
    expect(a.driver.outbox.map((m) => m.to).sort()).toEqual([...a.phones].sort());
  });

  it('the number logged out mid-campaign: the campaign waits offline; connected again, the rest go out, none twice', async () => {
    const a = await account(12);
    await setAccountSettings(ctx, a.user.id, { messageDelay: 60 });
    const id = await startCampaign(a);
    await waitFor(
      async () => a.driver.outbox.length,
      (n) => n >= 3,
      10_000,
    );
    expect((await http(a.cookie, 'POST', '/api/whatsapp/disconnect')).status).toBe(200);
    const waiting = await untilCampaign(a, id, (c) => c.waitingReason === 'offline', 5000);
    expect(waiting.status).toBe('in_progress');
    const before = [...a.driver.outbox];
    await new Promise((r) => setTimeout(r, 200));
    expect(a.driver.outbox).toHaveLength(before.length);

    const again = (await connectSimulator(ctx, a.user.id, a.cookie)) as SimulatorDriver;
    expect(again).not.toBe(a.driver);
    const done = await untilCampaign(a, id, (c) => c.status === 'completed');
    expect(done.progress).toMatchObject({ total: 12, failed: 0 });
    const all = [...before, ...again.outbox];
    expect(all.map((m) => m.to).sort()).toEqual([...a.phones].sort());
    expect(new Set(all.map((m) => m.providerMessageId)).size).toBe(12);
    await countersMatchRows(a, id);
  });
});

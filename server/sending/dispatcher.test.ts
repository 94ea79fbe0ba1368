import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import { rowsOf } from '../db/rows';
import { campaignRecipients, campaigns, contacts } from '../db/schema';
import { simulatorAppPerFile } from '../testing/app-per-file';
import { createAndSendCampaign, getCampaign, insertCampaign, postAs, waitForCampaign } from '../testing/campaigns';
import { apiCall, connectSimulator, newCustomer, setAccountSettings, waitFor } from '../testing/test-app';
import type { SimulatorDriver } from '../whatsapp/simulator/simulator-driver';
import { recordReceipt } from './receipts';

/**
 * The send loop through the real app and the simulator driver: every rule of pacing runs as in
 * production, with waits scaled down a thousand times.
 */
const ctx = simulatorAppPerFile({ deliveredMs: 30, readMs: 60 });

interface Account {
  userId: string;
  cookie: string;
  driver: SimulatorDriver;
}

/** A customer with a connected simulated number, sending at any hour. */
async function account(settings: Parameters<typeof setAccountSettings>[2] = {}): Promise<Account> {
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false, ...settings });
  const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
  return { userId: user.id, cookie, driver };
}

/** Contacts with numbers 5521 9 8765 43NN; a number ending in 0 has no WhatsApp in the simulator. */
async function addContacts(userId: string, n: number, extra: Partial<typeof contacts.$inferInsert> = {}) {
  const rows = Array.from({ length: n }, (_, i) => ({
    userId,
    name: `Cliente ${String(i + 1).padStart(3, '0')} Silva`,
    phone: `+55219876${String(54301 + i * 2).padStart(5, '0')}`,
    email: `c${i}@example.com`,
    ...extra,
  }));
  return ctx.database.db.insert(contacts).values(rows).returning();
}

const rowsOfCampaign = (id: string) =>
  ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));

describe('sending a campaign', () => {
  it('sends each recipient one personalised message, follows receipts to read, and completes', async () => {
    const a = await account();
    await addContacts(a.userId, 6);
    await addContacts(a.userId, 1, { name: 'Saiu', phone: '+5521987650001', optedOut: true });
    await addContacts(a.userId, 1, { name: 'Sem Zap', phone: '+5521987650011', isWhatsappActive: false });
    const id = await createAndSendCampaign(ctx, a.cookie);

    const done = await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed' && c.progress?.read === 6);
    expect(done.progress).toMatchObject({ total: 8, sent: 0, delivered: 0, read: 6, skipped: 2, failed: 0, queued: 0 });
    expect(done.messagesSent).toBe(6);
    expect(done.messagesDelivered).toBe(6);
    expect(done.finishedAt).not.toBeNull();

    const outbox = a.driver.outbox;
    expect(outbox).toHaveLength(6);
    expect(new Set(outbox.map((m) => m.to)).size).toBe(6);
    expect(outbox.map((m) => (m.message.kind === 'text' ? m.message.text : ''))).toEqual(
      expect.arrayContaining(['Oi Cliente!']),
    );
    // "typing…" before each message, to the same recipient.
    for (const m of outbox) expect(a.driver.typingLog.some((t) => t.to === m.to && t.at <= m.at)).toBe(true);

    const rows = await rowsOfCampaign(id);
    const skipped = rows.filter((r) => r.status === 'skipped').map((r) => r.error);
    expect(skipped.sort()).toEqual([campaignMsg.reason.noWhatsapp, campaignMsg.reason.optedOut].sort());
    for (const r of rows.filter((x) => x.status === 'read')) {
      expect(r.sentAt && r.deliveredAt && r.readAt).toBeTruthy();
      expect(r.sentAt?.getTime()).toBeLessThanOrEqual(r.readAt?.getTime() ?? 0);
      // The id recorded before the send is the one the message went out with.
      expect(outbox.map((m) => m.providerMessageId)).toContain(r.providerMessageId);
    }
  });

  it('fails a number the driver refuses, with the reason, and completes the rest', async () => {
    const a = await account();
    await addContacts(a.userId, 2);
    await addContacts(a.userId, 1, { name: 'Fixo', phone: '+5521987650020' });
    const id = await createAndSendCampaign(ctx, a.cookie);
    const done = await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    expect(done.progress).toMatchObject({ total: 3, failed: 1 });
    const [failed] = (await rowsOfCampaign(id)).filter((r) => r.status === 'failed');
    expect(failed.error).toBe('Número sem WhatsApp');
    expect(failed.failedAt).not.toBeNull();
  });

  it('goes to groups through the group chat', async () => {
    const a = await account();
    const synced = await postAs(ctx, a.cookie, '/api/groups/sync');
    expect(synced.statusCode, synced.body).toBe(200);
    const groups = (await apiCall(ctx, 'GET', '/api/groups', { cookie: a.cookie })).json() as Array<{ name: string }>;
    const id = await createAndSendCampaign(ctx, a.cookie, { targetType: 'groups', targetGroups: [groups[0].name] });
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    expect(a.driver.outbox.map((m) => m.to)).toEqual([expect.stringMatching(/@g\.us$/)]);
  });

  it('keeps the gap between messages at the delay plus jitter', async () => {
    // timeScale 0.001 turns a 20 s delay into 20 ms (jitter up to 6 ms).
    const a = await account({ messageDelay: 20 });
    await addContacts(a.userId, 5);
    const id = await createAndSendCampaign(ctx, a.cookie);
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    const times = a.driver.outbox.map((m) => m.at.getTime());
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(gaps).toHaveLength(4);
    // Never sooner than the delay; not much later either: a busy machine may slow one send (every
    // gap stays under a second), but the typical gap is the delay plus jitter and a few statements.
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(20 * 0.9);
      expect(gap).toBeLessThan(1000);
    }
    const median = [...gaps].sort((x, y) => x - y)[Math.floor(gaps.length / 2)];
    expect(median).toBeLessThan(200);
  });

  it('never exceeds the daily limit and waits with the reason shown', async () => {
    const a = await account({ dailyLimit: 3 });
    await addContacts(a.userId, 5);
    const id = await createAndSendCampaign(ctx, a.cookie);
    const waiting = await waitForCampaign(
      ctx,
      a.cookie,
      id,
      (c) => c.status === 'in_progress' && c.waitingReason === 'daily_limit',
    );
    expect(waiting.messagesSent).toBe(3);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.driver.outbox).toHaveLength(3);
  });

  it('waits outside business hours', async () => {
    const a = await account({ respectBusinessHours: true, businessDays: [] });
    await addContacts(a.userId, 2);
    const id = await createAndSendCampaign(ctx, a.cookie);
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'in_progress' && c.waitingReason === 'outside_hours');
    expect(a.driver.outbox).toHaveLength(0);
    // Hours that include now: it resumes by itself.
    await setAccountSettings(ctx, a.userId, { respectBusinessHours: false });
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    expect(a.driver.outbox).toHaveLength(2);
  });

  it('waits while the number is offline and resumes when it reconnects', async () => {
    const a = await account();
    await addContacts(a.userId, 2);
    await a.driver.disconnect();
    const res = await postAs(ctx, a.cookie, '/api/campaigns', {
      name: 'Offline',
      message: 'Oi',
      targetType: 'contacts',
    });
    await postAs(ctx, a.cookie, `/api/campaigns/${res.json().id}/send`);
    await waitForCampaign(ctx, a.cookie, res.json().id, (c) => c.waitingReason === 'offline');
    const again = (await connectSimulator(ctx, a.userId, a.cookie)) as SimulatorDriver;
    await waitForCampaign(ctx, a.cookie, res.json().id, (c) => c.status === 'completed', 10_000);
    expect(again.outbox).toHaveLength(2);
  });
});

describe('controls', () => {
  /** A campaign to `contacts` contacts at a minute's pace (scaled down), once `sent` have gone out. */
  async function sendingSlowly(contacts: number, sent: number) {
    const a = await account({ messageDelay: 60 });
    await addContacts(a.userId, contacts);
    const id = await createAndSendCampaign(ctx, a.cookie);
    await waitFor(
      async () => a.driver.outbox.length,
      (n) => n >= sent,
    );
    return { a, id };
  }

  it('pauses (nothing more goes out), resumes, and refuses what the status does not allow', async () => {
    const { a, id } = await sendingSlowly(8, 2);
    const paused = await postAs(ctx, a.cookie, `/api/campaigns/${id}/pause`);
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ success: true, message: campaignMsg.paused, campaign: { status: 'paused' } });
    await new Promise((r) => setTimeout(r, 150));
    const atPause = a.driver.outbox.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(a.driver.outbox.length).toBe(atPause);
    expect(atPause).toBeLessThan(8);

    const again = await postAs(ctx, a.cookie, `/api/campaigns/${id}/pause`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(campaignMsg.transition('pause', 'paused'));
    expect((await postAs(ctx, a.cookie, `/api/campaigns/${id}/send`)).statusCode).toBe(409);
    const edit = await apiCall(ctx, 'PUT', `/api/campaigns/${id}`, { cookie: a.cookie, payload: { name: 'Outro' } });
    expect(edit.statusCode).toBe(409);

    expect((await postAs(ctx, a.cookie, `/api/campaigns/${id}/resume`)).statusCode).toBe(200);
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    expect(a.driver.outbox).toHaveLength(8);
    expect(new Set(a.driver.outbox.map((m) => m.to)).size).toBe(8);
    expect((await postAs(ctx, a.cookie, `/api/campaigns/${id}/resume`)).statusCode).toBe(409);
  });

  it('cancels: the recipients not yet sent are skipped with the reason', async () => {
    const { a, id } = await sendingSlowly(10, 1);
    const res = await postAs(ctx, a.cookie, `/api/campaigns/${id}/cancel`);
    expect(res.json().campaign.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 200));
    const rows = await rowsOfCampaign(id);
    const skipped = rows.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => r.error === campaignMsg.reason.cancelled)).toBe(true);
    expect(a.driver.outbox.length).toBe(rows.length - skipped.length);
  });

  it('deleting a campaign that is sending stops it', async () => {
    const { a, id } = await sendingSlowly(10, 1);
    const res = await apiCall(ctx, 'DELETE', `/api/campaigns/${id}`, { cookie: a.cookie });
    expect(res.json()).toEqual({ success: true, message: campaignMsg.deleted });
    const sentAtDelete = a.driver.outbox.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(a.driver.outbox.length).toBeLessThanOrEqual(sentAtDelete + 1);
    expect(await rowsOfCampaign(id)).toHaveLength(0);
  });

  it('starting twice at once sends nothing twice', async () => {
    const a = await account();
    await addContacts(a.userId, 4);
    const res = await postAs(ctx, a.cookie, '/api/campaigns', { name: 'Duplo', message: 'Oi', targetType: 'contacts' });
    const id = res.json().id;
    const [one, two] = await Promise.all([
      postAs(ctx, a.cookie, `/api/campaigns/${id}/send`),
      postAs(ctx, a.cookie, `/api/campaigns/${id}/send`),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    expect(await rowsOfCampaign(id)).toHaveLength(4);
    expect(a.driver.outbox).toHaveLength(4);
  });

  it('a scheduled campaign starts by itself, also one whose time passed while the server was down', async () => {
    const a = await account();
    await addContacts(a.userId, 2);
    const at = new Date(Date.now() + 400).toISOString();
    const res = await postAs(ctx, a.cookie, '/api/campaigns', {
      name: 'Agendada',
      message: 'Oi',
      targetType: 'contacts',
      scheduledAt: at,
    });
    expect(res.json(), res.body).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const id = res.json().id;
    expect((await getCampaign(ctx, a.cookie, id)).status).toBe('scheduled');
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');

    // Overdue: written as if the server had been down at its time.
    const [late] = await ctx.database.db
      .insert(campaigns)
      .values({
        userId: a.userId,
        name: 'Atrasada',
        message: 'Oi',
        targetType: 'contacts',
        status: 'scheduled',
        scheduledAt: new Date(Date.now() - 3_600_000),
      })
      .returning();
    await waitForCampaign(ctx, a.cookie, late.id, (c) => c.status === 'completed');
  });
});

describe('crash safety and receipts', () => {
  it('a row left mid-send by a dead process is sent once; one whose receipt came is not sent again', async () => {
    const a = await account();
    const [c1, c2] = await addContacts(a.userId, 2);
    const [row] = await ctx.database.db
      .insert(campaigns)
      .values({
        userId: a.userId,
        name: 'Crash',
        message: 'Oi',
        targetType: 'contacts',
        status: 'paused',
        startedAt: new Date(),
      })
      .returning();
    const past = new Date(Date.now() - 120_000);
    await ctx.database.db.insert(campaignRecipients).values([
      // In flight when the process died: its send may or may not have left.
      {
        campaignId: row.id,
        userId: a.userId,
        contactId: c1.id,
        recipient: c1.phone.slice(1),
        name: c1.name,
        status: 'sending',
        providerMessageId: '3EB0CRASHED000001',
        claimedBy: 'dead',
        leaseUntil: past,
        attempts: 1,
      },
      {
        campaignId: row.id,
        userId: a.userId,
        contactId: c2.id,
        recipient: c2.phone.slice(1),
        name: c2.name,
        status: 'sending',
        providerMessageId: '3EB0CRASHED000002',
        claimedBy: 'dead',
        leaseUntil: past,
        attempts: 1,
      },
    ]);
    // The first one did leave: its receipt arrives after the restart.
    expect(
      await recordReceipt(ctx.database.db, a.userId, {
        providerMessageId: '3EB0CRASHED000001',
        status: 'delivered',
        at: new Date(),
      }),
    ).toBe(true);
    await ctx.database.db.update(campaigns).set({ status: 'sending' }).where(eq(campaigns.id, row.id));
    await waitForCampaign(ctx, a.cookie, row.id, (c) => c.status === 'completed');
    expect(a.driver.outbox.map((m) => m.to)).toEqual([c2.phone.slice(1)]);
    // Resent under the id chosen before the crash, so a late receipt of the first attempt still matches.
    expect(a.driver.outbox[0].providerMessageId).toBe('3EB0CRASHED000002');
  });

  it('a receipt whose message id is written between its update and its check still moves the row', async () => {
    const a = await account();
    const [c] = await addContacts(a.userId, 1);
    const row = await insertCampaign(ctx.database.db, {
      userId: a.userId,
      name: 'Corrida',
      message: 'Oi',
      status: 'sending',
    });
    const [recipient] = await ctx.database.db
      .insert(campaignRecipients)
      .values({ campaignId: row.id, userId: a.userId, recipient: c.phone.slice(1), status: 'sending' })
      .returning();
    // The send's answer is written (on another connection) right after the receipt's update found no row.
    const db = ctx.database.db;
    let raced = false;
    const racing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return async (query: Parameters<typeof db.execute>[0]) => {
          const result = await target.execute(query);
          if (!raced) {
            raced = true;
            await target
              .update(campaignRecipients)
              .set({ status: 'sent', providerMessageId: 'wamid.RACE' })
              .where(eq(campaignRecipients.id, recipient.id));
          }
          return result;
        };
      },
    });
    expect(
      await recordReceipt(racing, a.userId, { providerMessageId: 'wamid.RACE', status: 'delivered', at: new Date() }),
    ).toBe(true);
    expect(raced).toBe(true);
    const [after] = await rowsOfCampaign(row.id);
    expect(after.status).toBe('delivered');
    expect(after.deliveredAt).not.toBeNull();
  });

  it('receipts move rows forward only, whatever their order', async () => {
    const a = await account();
    const [c] = await addContacts(a.userId, 1);
    const row = await insertCampaign(
      ctx.database.db,
      { userId: a.userId, name: 'Recibos', message: 'Oi', status: 'completed' },
      [{ recipient: c.phone.slice(1), status: 'sent', providerMessageId: 'wamid.ORDER' }],
    );
    const at = new Date();
    const r = (status: 'sent' | 'delivered' | 'read' | 'failed') =>
      recordReceipt(ctx.database.db, a.userId, { providerMessageId: 'wamid.ORDER', status, at });
    await r('read');
    await r('delivered');
    await r('failed');
    await r('sent');
    const [after] = await rowsOfCampaign(row.id);
    expect(after.status).toBe('read');
    expect(after.readAt).not.toBeNull();
    expect(after.deliveredAt).not.toBeNull();
    expect(after.error).toBeNull();

    // Meta may send 'failed' and then 'delivered': the message did arrive.
    await ctx.database.db
      .update(campaignRecipients)
      .set({ status: 'failed', error: 'x' })
      .where(and(eq(campaignRecipients.campaignId, row.id)));
    await r('delivered');
    const [fixed] = await rowsOfCampaign(row.id);
    expect(fixed.status).toBe('delivered');
    expect(fixed.error).toBeNull();
  });

  it('a lane is held by one process at a time', async () => {
    const a = await account();
    const number = ctx.app.deps.registry.primaryOf(a.userId);
    await ctx.database.db.execute(
      sql`insert into sending_lanes (connection_id, user_id, owner, lease_until) values (${number}, ${a.userId}, 'other-process', now() + interval '1 hour')`,
    );
    await addContacts(a.userId, 2);
    const id = await createAndSendCampaign(ctx, a.cookie);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.driver.outbox).toHaveLength(0);
    expect((await getCampaign(ctx, a.cookie, id)).status).toBe('sending');
    // The other process dies: its lease lapses and this one takes over.
    await ctx.database.db.execute(
      sql`update sending_lanes set lease_until = now() - interval '1 second' where connection_id = ${number}`,
    );
    await waitForCampaign(ctx, a.cookie, id, (c) => c.status === 'completed');
    const [lane] = rowsOf<{ owner: string }>(
      await ctx.database.db.execute(sql`select owner from sending_lanes where connection_id = ${number}`),
    );
    expect(lane.owner).toBe(ctx.app.deps.sending.dispatcher.owner);
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import { campaignRecipients, contacts } from '../db/schema';
import { appPerFile, simulatorAppPerFile } from '../testing/app-per-file';
import { createAndSendCampaign, getCampaign, postAs } from '../testing/campaigns';
import { insertConnection } from '../testing/connections';
import { ConnectedTestDriver } from '../testing/fake-driver';
import {
  apiCall,
  connectSimulator,
  createTestApp,
  newCustomer,
  setAccountSettings,
  waitFor,
} from '../testing/test-app';
import type { Driver, DriverProvider, OutgoingMessage } from '../whatsapp/driver';
import type { SimulatorDriver } from '../whatsapp/simulator/simulator-driver';
import { followUpMessageId } from './send-strategies';

/**
 * Pausar and Cancelar stop the very next message. The personal lane claims its next row as soon as
 * the last one went out and then waits for the row's turn, so a pause or cancel almost always lands
 * between a row's claim and its send: the row must not go out. Waits are scaled down 20 times (a
 * 2 s delay is 100–150 ms, "typing…" at least 40 ms), slow enough for an acknowledged pause to land
 * inside a gap, fast enough for a short test.
 */
const SCALE = 0.05;
const ctx = simulatorAppPerFile({ deliveredMs: 30, readMs: 60 }, { timeScale: SCALE });

interface Account {
  userId: string;
  cookie: string;
  driver: SimulatorDriver;
}

async function account(): Promise<Account> {
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false, messageDelay: 2 });
  const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
  return { userId: user.id, cookie, driver };
}

async function addContacts(userId: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    userId,
    name: `Pessoa ${String(i + 1).padStart(2, '0')}`,
    phone: `+55219877${String(64301 + i * 2).padStart(5, '0')}`,
  }));
  await ctx.database.db.insert(contacts).values(rows);
}

/** The campaign these tests start: to all the account's contacts. */
const STOP_CAMPAIGN = { name: 'Parar', message: 'Oi {{primeiro_nome}}' };

const rowsOf = (id: string) =>
  ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `n` messages went out, then until the lane has claimed the next row (it does at once). */
async function midCampaign(a: Account, id: string, n: number): Promise<void> {
  await waitFor(
    async () => a.driver.outbox.length,
    (sent) => sent >= n,
    10_000,
  );
  await waitFor(
    async () =>
      (await rowsOf(id)).some((r) => r.claimedBy !== null && (r.status === 'queued' || r.status === 'sending')),
    Boolean,
    2_000,
  );
}

/** Sends received after `at`, the moment an action was acknowledged. */
const receivedAfter = (a: Account, at: number) => a.driver.outbox.filter((m) => m.at.getTime() > at);

describe('Pausar and Cancelar stop the next message', () => {
  it('after a pause is acknowledged nothing goes out until Retomar; then every recipient gets one message', async () => {
    const a = await account();
    await addContacts(a.userId, 6);
    const id = await createAndSendCampaign(ctx, a.cookie, STOP_CAMPAIGN);

    for (let round = 1; round <= 2; round++) {
      await midCampaign(a, id, 2 * round);
      const res = await postAs(ctx, a.cookie, `/api/campaigns/${id}/pause`);
      expect(res.statusCode, res.body).toBe(200);
      const acknowledged = Date.now();
      // Several whole gaps: the claimed row would have gone out by now.
      await pause(600);
      expect(receivedAfter(a, acknowledged)).toEqual([]);
      // The claimed row is back in the queue, not counted as an attempt, and shown as queued.
      const rows = await rowsOf(id);
      expect(rows.filter((r) => r.status === 'sending')).toEqual([]);
      for (const r of rows.filter((x) => x.status === 'queued')) expect(r.attempts).toBe(0);
      const paused = await getCampaign(ctx, a.cookie, id);
      expect(paused.status).toBe('paused');
      expect(paused.messagesSent).toBe(a.driver.outbox.length);
      expect(paused.progress?.queued).toBe(6 - a.driver.outbox.length);

      expect((await postAs(ctx, a.cookie, `/api/campaigns/${id}/resume`)).statusCode).toBe(200);
    }

    const done = await waitFor(
      () => getCampaign(ctx, a.cookie, id),
      (c) => c.status === 'completed',
      10_000,
    );
    expect(done.messagesSent).toBe(6);
    expect(a.driver.outbox).toHaveLength(6);
    expect(new Set(a.driver.outbox.map((m) => m.to)).size).toBe(6);
    // What the browser test reads: the simulator's own outbox, through the simulator-only route.
    const listed = await apiCall(ctx, 'GET', '/api/whatsapp/simulator/outbox', { cookie: a.cookie });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().messages).toEqual(
      a.driver.outbox.map((m) => ({
        to: m.to,
        at: m.at.toISOString(),
        providerMessageId: m.providerMessageId,
        kind: 'text',
      })),
    );
  });

  it('after a cancel is acknowledged nothing more goes out, and the report says so', async () => {
    const a = await account();
    await addContacts(a.userId, 8);
    const id = await createAndSendCampaign(ctx, a.cookie, STOP_CAMPAIGN);
    await midCampaign(a, id, 2);

    const res = await postAs(ctx, a.cookie, `/api/campaigns/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const acknowledged = Date.now();
    const sentAtCancel = a.driver.outbox.length;
    // The claimed row is skipped by the cancel itself: nothing is left 'Na fila'.
    expect(res.json().campaign.progress).toMatchObject({ queued: 0, sending: 0, skipped: 8 - sentAtCancel });

    await pause(600);
    expect(receivedAfter(a, acknowledged)).toEqual([]);
    const rows = await rowsOf(id);
    expect(rows.filter((r) => r.status === 'queued' || r.status === 'sending')).toEqual([]);
    const skipped = rows.filter((r) => r.status === 'skipped');
    expect(skipped).toHaveLength(8 - sentAtCancel);
    for (const r of skipped) {
      expect(r.error).toBe(campaignMsg.reason.cancelled);
      expect(r.claimedBy).toBeNull();
    }
    const after = await getCampaign(ctx, a.cookie, id);
    expect(after.status).toBe('cancelled');
    expect(after.messagesSent).toBe(sentAtCancel);
  });

  it('a message already handed to WhatsApp when the cancel lands completes and is counted as sent', async () => {
    const a = await account();
    await addContacts(a.userId, 4);
    // The first send hangs in the driver (on the network) until released.
    const send = a.driver.send.bind(a.driver);
    let entered!: () => void;
    const inFlight = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    a.driver.send = async (...args) => {
      entered();
      await gate;
      return send(...args);
    };
    const id = await createAndSendCampaign(ctx, a.cookie, STOP_CAMPAIGN);
    await inFlight;

    const res = await postAs(ctx, a.cookie, `/api/campaigns/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().campaign.progress).toMatchObject({ sending: 1, skipped: 3 });
    release();

    await waitFor(
      async () => (await rowsOf(id)).filter((r) => r.status === 'sending').length,
      (n) => n === 0,
    );
    await pause(300);
    expect(a.driver.outbox).toHaveLength(1);
    const rows = await rowsOf(id);
    const out = rows.filter((r) => r.sentAt !== null);
    expect(out).toHaveLength(1);
    expect(out[0].providerMessageId).toBe(a.driver.outbox[0].providerMessageId);
    const after = await getCampaign(ctx, a.cookie, id);
    expect(after.status).toBe('cancelled');
    expect(after.messagesSent).toBe(1);
    expect(after.progress).toMatchObject({ skipped: 3, queued: 0, sending: 0 });
  });
});

/** A Cloud API number answering each send after `latencyMs`, as the Graph API does; it notes when each send began. */
class SlowCloudDriver extends ConnectedTestDriver {
  readonly kind = 'cloud' as const;
  readonly started: Array<{ to: string; at: number }> = [];
  private seq = 0;
  constructor(private readonly latencyMs: number) {
    super('+5511930009999');
  }
  async send(to: string, _message: OutgoingMessage) {
    this.started.push({ to, at: Date.now() });
    await pause(this.latencyMs);
    return { providerMessageId: `wamid.slow${++this.seq}` };
  }
  async messagingLimit() {
    return null;
  }
}

describe('a recipient’s follow-up messages', () => {
  it('carry ids derived from the first message’s chosen id, so a send repeated after a crash repeats them', async () => {
    const a = await account();
    await addContacts(a.userId, 2);
    const id = await createAndSendCampaign(ctx, a.cookie, {
      ...STOP_CAMPAIGN,
      location: { latitude: -22.9, longitude: -43.2, name: 'Loja' },
      contactCard: { name: 'Atendimento', phone: '(21) 99876-5432' },
    });
    await waitFor(
      async () => (await rowsOf(id)).filter((r) => r.sentAt !== null).length,
      (n) => n === 2,
      15_000,
    );
    await waitFor(
      async () => a.driver.outbox.length,
      (n) => n === 6,
      5_000,
    );
    for (const row of await rowsOf(id)) {
      const mine = a.driver.outbox.filter((m) => row.recipient.endsWith(m.to.replace(/\D/g, '').slice(-8)));
      expect(mine.map((m) => m.message.kind)).toEqual(['text', 'location', 'contact']);
      const first = row.providerMessageId as string;
      expect(first).toMatch(/^3EB0[0-9A-F]{18}$/);
      expect(mine.map((m) => m.providerMessageId)).toEqual([
        first,
        followUpMessageId(first, 1),
        followUpMessageId(first, 2),
      ]);
    }
    expect(followUpMessageId('3EB0AAAA', 1)).toBe(followUpMessageId('3EB0AAAA', 1));
    expect(followUpMessageId('3EB0AAAA', 1)).not.toBe(followUpMessageId('3EB0AAAA', 2));
  });
});

describe('on the Cloud API', () => {
  const cloud = new Map<string, Driver>();
  const drivers: DriverProvider = { get: async (userId) => cloud.get(userId) ?? null };
  const app = appPerFile(() => createTestApp({}, undefined, { drivers, dispatcher: { tickMs: 20 } }));

  it('no send begins after Pausar or Cancelar is acknowledged, though half a second’s worth was claimed', async () => {
    const { user, cookie } = await newCustomer(app);
    await setAccountSettings(app, user.id, { respectBusinessHours: false, channel: 'cloud' });
    const driver = new SlowCloudDriver(150);
    cloud.set(user.id, driver);
    // The account's Cloud number (the driver above stands for it).
    await insertConnection(app.database.db, user.id, 'cloud');
    await app.database.db.insert(contacts).values(
      Array.from({ length: 300 }, (_, i) => ({
        userId: user.id,
        name: `Nuvem ${i}`,
        phone: `+55219866${String(10001 + i * 2).padStart(5, '0')}`,
      })),
    );
    const id = await createAndSendCampaign(app, cookie, { name: 'Nuvem', message: 'Oi' });

    // 80 a second, claimed 40 at a time: a pause lands with most of a batch still to start.
    await waitFor(
      async () => driver.started.length,
      (n) => n >= 10,
    );
    expect((await postAs(app, cookie, `/api/campaigns/${id}/pause`)).statusCode).toBe(200);
    const paused = Date.now();
    await pause(800);
    expect(driver.started.filter((s) => s.at > paused)).toEqual([]);
    const rows = () => app.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));
    await waitFor(
      async () => (await rows()).filter((r) => r.status === 'sending').length,
      (n) => n === 0,
    );
    const atPause = driver.started.length;
    expect((await rows()).filter((r) => r.sentAt !== null)).toHaveLength(atPause);

    expect((await postAs(app, cookie, `/api/campaigns/${id}/resume`)).statusCode).toBe(200);
    await waitFor(
      async () => driver.started.length,
      (n) => n >= atPause + 10,
    );
    expect((await postAs(app, cookie, `/api/campaigns/${id}/cancel`)).statusCode).toBe(200);
    const cancelled = Date.now();
    await pause(800);
    expect(driver.started.filter((s) => s.at > cancelled)).toEqual([]);
    await waitFor(
      async () => (await rows()).filter((r) => r.status === 'sending').length,
      (n) => n === 0,
    );
    const final = await rows();
    // Every send that began is in the report as sent, once; the rest were skipped by the cancel.
    expect(final.filter((r) => r.sentAt !== null)).toHaveLength(driver.started.length);
    expect(new Set(driver.started.map((s) => s.to)).size).toBe(driver.started.length);
    expect(final.filter((r) => r.status === 'skipped')).toHaveLength(300 - driver.started.length);
    expect(final.filter((r) => r.status === 'queued')).toEqual([]);
  });
});

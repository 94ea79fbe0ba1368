import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_KEPT, type NotificationList } from '../../../contract/notifications';
import { rowsOf } from '../../db/rows';
import { notify, notifyAdmins } from '../../records/notify';
import {
  apiCall,
  createTestApp,
  createUser,
  loginAs,
  newCustomer,
  type TestContext,
  waitFor,
} from '../../testing/test-app';
import { ConnectionAlerts } from './connection-alerts';

let ctx: TestContext;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const list = async (cookie: string, query = ''): Promise<NotificationList> => {
  const res = await apiCall(ctx, 'GET', `/api/notifications${query}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const unread = async (cookie: string): Promise<number> =>
  (await apiCall(ctx, 'GET', '/api/notifications/unread-count', { cookie })).json().unread;
const markRead = (cookie: string, payload?: object) =>
  apiCall(ctx, 'POST', '/api/notifications/read', { cookie, payload });

/** Notifications written straight through the recorder, oldest first, a millisecond apart. */
async function seed(userId: string, titles: string[]): Promise<void> {
  for (const title of titles) {
    expect(
      await notify(db(), log, userId, { kind: 'contacts_imported', title, body: `${title}!`, link: '/contacts' }),
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('GET /api/notifications and the unread count', () => {
  it('answers the caller’s own notifications, newest first, with the unread count', async () => {
    const a = await newCustomer(ctx);
    const b = await newCustomer(ctx);
    await seed(a.user.id, ['primeira', 'segunda', 'terceira']);
    await seed(b.user.id, ['de B']);

    const got = await list(a.cookie);
    expect(got.notifications.map((n) => n.title)).toEqual(['terceira', 'segunda', 'primeira']);
    expect(got.notifications[0]).toMatchObject({
      kind: 'contacts_imported',
      body: 'terceira!',
      link: '/contacts',
      read: false,
    });
    expect(Date.parse(got.notifications[0].createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(got.unread).toBe(3);
    expect(await unread(a.cookie)).toBe(3);
    expect((await list(b.cookie)).notifications.map((n) => n.title)).toEqual(['de B']);
    expect(await unread(b.cookie)).toBe(1);
  });

  it('honours limit and refuses one out of range', async () => {
    const a = await newCustomer(ctx);
    await seed(a.user.id, ['1', '2', '3']);
    const two = await list(a.cookie, '?limit=2');
    expect(two.notifications.map((n) => n.title)).toEqual(['3', '2']);
    expect(two.unread).toBe(3);
    for (const bad of ['0', '101', 'x']) {
      const res = await apiCall(ctx, 'GET', `/api/notifications?limit=${bad}`, { cookie: a.cookie });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('serves accounts awaiting approval (their own, empty), and nobody signed out', async () => {
    const pending = await createUser(ctx, { accountType: 'pending', isActive: false });
    const cookie = await loginAs(ctx, pending);
    expect(await list(cookie)).toEqual({ notifications: [], unread: 0 });
    expect((await apiCall(ctx, 'GET', '/api/notifications')).statusCode).toBe(401);
    expect((await apiCall(ctx, 'GET', '/api/notifications/unread-count')).statusCode).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it('marks the given ids read, then all of them without ids', async () => {
    const a = await newCustomer(ctx);
    await seed(a.user.id, ['a', 'b', 'c']);
    const [c, b] = (await list(a.cookie)).notifications;

    const one = await markRead(a.cookie, { ids: [c.id] });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ success: true, marked: 1, unread: 2 });
    const after = await list(a.cookie);
    expect(after.notifications.map((n) => [n.title, n.read])).toEqual([
      ['c', true],
      ['b', false],
      ['a', false],
    ]);
    // Marking a read one again changes nothing.
    expect((await markRead(a.cookie, { ids: [c.id, b.id] })).json()).toMatchObject({ marked: 1, unread: 1 });

    const all = await markRead(a.cookie, {});
    expect(all.json()).toMatchObject({ marked: 1, unread: 0 });
    expect(await unread(a.cookie)).toBe(0);
    expect((await list(a.cookie)).notifications.every((n) => n.read)).toBe(true);
    // No body at all means all too.
    await seed(a.user.id, ['d']);
    expect((await markRead(a.cookie)).json()).toMatchObject({ marked: 1, unread: 0 });
  });

  it('never marks another account’s notifications, even by their ids', async () => {
    const a = await newCustomer(ctx);
    const b = await newCustomer(ctx);
    await seed(a.user.id, ['de A']);
    await seed(b.user.id, ['de B']);
    const [ofA] = (await list(a.cookie)).notifications;

    const byId = await markRead(b.cookie, { ids: [ofA.id] });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ marked: 0, unread: 1 });
    expect((await markRead(b.cookie, {})).json()).toMatchObject({ marked: 1, unread: 0 });
    expect(await unread(a.cookie)).toBe(1);
    expect((await list(a.cookie)).notifications[0]).toMatchObject({ id: ofA.id, read: false });
  });

  it('refuses ids that are not ids, and demo accounts (read-only)', async () => {
    const a = await newCustomer(ctx);
    expect((await markRead(a.cookie, { ids: ['nao-e-um-id'] })).statusCode).toBe(400);
    const demo = await newCustomer(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await markRead(demo.cookie, {})).json().code).toBe('DEMO_READ_ONLY');
  });
});

describe('the recorder', () => {
  it('keeps the newest NOTIFICATIONS_KEPT of an account', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await db().execute(sql`
      insert into notifications (user_id, kind, title, created_at)
      select ${user.id}, 'contacts_imported', 'antiga ' || n, now() - (n || ' minutes')::interval
      from generate_series(1, ${NOTIFICATIONS_KEPT}) as n`);
    await seed(user.id, ['nova']);
    const [{ total }] = rowsOf<{ total: number }>(
      await db().execute(sql`select count(*)::int as total from notifications where user_id = ${user.id}`),
    );
    expect(total).toBe(NOTIFICATIONS_KEPT);
    const got = await list(cookie, '?limit=100');
    expect(got.notifications[0].title).toBe('nova');
    expect(got.notifications.map((n) => n.title)).not.toContain(`antiga ${NOTIFICATIONS_KEPT}`);
    expect(got.notifications.map((n) => n.title)).toContain(`antiga ${NOTIFICATIONS_KEPT - 1}`);
  });

  it('obeys the account’s settings for the kinds they cover, and never throws', async () => {
    const { user } = await newCustomer(ctx);
    await db().execute(sql`insert into account_settings (user_id, campaign_updates) values (${user.id}, false)`);
    const n = { title: 't', body: 'b' };
    expect(await notify(db(), log, user.id, { kind: 'campaign_completed', ...n })).toBe(false);
    // systemAlerts is off by default (SPEC §9).
    expect(await notify(db(), log, user.id, { kind: 'whatsapp_disconnected', ...n })).toBe(false);
    expect(await notify(db(), log, user.id, { kind: 'conversation_handoff', ...n })).toBe(true);
    const errors: unknown[] = [];
    const broken = { error: (obj: unknown) => errors.push(obj) };
    expect(await notify(db(), broken, 'not-a-uuid', { kind: 'conversation_handoff', ...n })).toBe(false);
    expect(errors).toHaveLength(1);
  });

  it('notifyAdmins writes one row per administrator', async () => {
    const admins = [
      await createUser(ctx, { accountType: 'admin', planType: 'admin' }),
      await createUser(ctx, { accountType: 'admin', planType: 'admin' }),
    ];
    const [{ count }] = rowsOf<{ count: number }>(
      await db().execute(sql`select count(*)::int as count from users where account_type = 'admin'`),
    );
    const written = await notifyAdmins(db(), log, { kind: 'account_pending', title: 'Nova conta', body: 'x' });
    expect(written).toBe(count);
    for (const a of admins) expect(await unread(await loginAs(ctx, a))).toBe(1);
  });
});

describe('connection alerts', () => {
  const state = (isConnected: boolean, s: 'connected' | 'connecting' | 'disconnected') => ({
    phoneNumber: null,
    isConnected,
    state: s,
    qr: null,
  });

  it('count a dropped connection as lost only when it is not back in time', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await db().execute(sql`insert into account_settings (user_id, system_alerts) values (${user.id}, true)`);
    const alerts = new ConnectionAlerts({ db: db(), log, jobs: ctx.app.deps.jobs, lostAfterMs: 60 });
    const on = (s: ReturnType<typeof state>) =>
      alerts.onConnection({ userId: user.id, connectionId: user.id, state: s });

    await on(state(true, 'connected'));
    // A blip: reconnecting, back within the grace period.
    await on(state(false, 'connecting'));
    await on(state(true, 'connected'));
    await new Promise((r) => setTimeout(r, 120));
    expect(await unread(cookie)).toBe(0);

    // Still reconnecting after the grace period: lost.
    await on(state(false, 'connecting'));
    await new Promise((r) => setTimeout(r, 150));
    const lost = await list(cookie);
    expect(lost.notifications.map((n) => n.kind)).toEqual(['whatsapp_disconnected']);
    // Further reconnect attempts are not new losses.
    await on(state(false, 'connecting'));
    await new Promise((r) => setTimeout(r, 120));
    expect(await unread(cookie)).toBe(1);

    await on(state(true, 'connected'));
    expect((await list(cookie)).notifications.map((n) => n.kind)).toEqual([
      'whatsapp_reconnected',
      'whatsapp_disconnected',
    ]);
    alerts.close();
  });

  it('take a number’s events in the order they came: a drop right after the connection is a loss', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await db().execute(sql`insert into account_settings (user_id, system_alerts) values (${user.id}, true)`);
    const alerts = new ConnectionAlerts({ db: db(), log, jobs: ctx.app.deps.jobs, lostAfterMs: 20 });
    // The drop comes while the connection is still being recorded (a busy database): it waits its turn.
    await Promise.all([
      alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(true, 'connected') }),
      alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(false, 'disconnected') }),
    ]);
    const lost = await waitFor(
      () => list(cookie),
      (l) => l.notifications.length === 1,
      10_000,
    );
    expect(lost.notifications[0].kind).toBe('whatsapp_disconnected');
    alerts.close();
  });

  it('ignore a server shutting down and a connection that never came up', async () => {
    const { user, cookie } = await newCustomer(ctx);
    await db().execute(sql`insert into account_settings (user_id, system_alerts) values (${user.id}, true)`);
    const alerts = new ConnectionAlerts({ db: db(), log, jobs: ctx.app.deps.jobs, lostAfterMs: 20 });
    // QR codes expiring before a scan: never connected, nothing lost.
    await alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(false, 'disconnected') });
    await alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(true, 'connected') });
    await alerts.onConnection({
      userId: user.id,
      connectionId: user.id,
      state: state(false, 'disconnected'),
      requested: 'shutdown',
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(await unread(cookie)).toBe(0);
    alerts.close();
  });
});

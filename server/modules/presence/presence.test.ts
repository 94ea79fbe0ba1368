import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage } from '../../../contract/activity';
import type { ActiveUsers, OnlineCount } from '../../../contract/presence';
import { rowsOf } from '../../db/rows';
import type { UserRow } from '../../db/schema';
import { recordActivity } from '../../records/activity';
import { PRESENCE_WRITE_EVERY_MS, PresenceTracker } from '../../records/presence-tracker';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, createUser, loginAs, newCustomer } from '../../testing/test-app';
import { sessionPollFastPath } from '../whatsapp';

const ctx = appPerFile();
const log = pino({ level: 'silent' });

const db = () => ctx.database.db;
const get = async <T>(cookie: string, url: string): Promise<T> => {
  const res = await apiCall(ctx, 'GET', url, { cookie });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};
const lastSeenInDb = async (userId: string): Promise<number | null> => {
  const [r] = rowsOf<{ at: string | Date | null }>(
    await db().execute(sql`select last_seen_at as at from users where id = ${userId}`),
  );
  return r.at === null ? null : new Date(r.at).getTime();
};
const setLastSeen = (userId: string, msAgo: number) =>
  db().execute(
    sql`update users set last_seen_at = ${new Date(Date.now() - msAgo).toISOString()}::timestamptz where id = ${userId}`,
  );

describe('online users (SPEC §3): platform-wide for admins, the own account for anyone else', () => {
  let admin: { user: UserRow; cookie: string };
  let c1: { user: UserRow; cookie: string };
  let c2: { user: UserRow; cookie: string };
  let recent: UserRow;
  let old: UserRow;

  beforeAll(async () => {
    // This file's database holds only the accounts this file creates.
    admin = await newCustomer(ctx, { accountType: 'admin', planType: 'admin' });
    c1 = await newCustomer(ctx);
    c2 = await newCustomer(ctx);
    // Signed-in requests are what counts (signing in is a public route).
    for (const a of [admin, c1, c2]) await get(a.cookie, '/api/auth/me');
    // Never signed in here: only the column says when they were last seen.
    recent = await createUser(ctx);
    old = await createUser(ctx);
    await setLastSeen(recent.id, 10 * 60_000);
    await setLastSeen(old.id, 2 * 86_400_000);
  });

  it('counts every account for an administrator: online (2 min), offline recently (24 h), their sum', async () => {
    const count = await get<OnlineCount>(admin.cookie, '/api/users/online-count');
    // admin, c1 and c2 made requests just now; `recent` 10 minutes ago; `old` two days ago.
    expect(count).toEqual({ currentlyOnline: 3, offlineRecently: 1, totalActive: 4 });

    const { activeUsers } = await get<ActiveUsers>(admin.cookie, '/api/users/active');
    expect(activeUsers.map((u) => u.userId).sort()).toEqual([admin.user.id, c1.user.id, c2.user.id, recent.id].sort());
    expect(activeUsers.at(-1)).toMatchObject({ userId: recent.id, name: recent.name, isOnline: false });
    expect(Date.parse(activeUsers.at(-1)?.lastSeen ?? '')).toBeLessThan(Date.now() - 9 * 60_000);
    expect(activeUsers.find((u) => u.userId === c1.user.id)).toMatchObject({ isOnline: true, name: c1.user.name });
    // Newest first.
    const times = activeUsers.map((u) => Date.parse(u.lastSeen));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('gives a customer only its own account, never another customer’s', async () => {
    const count = await get<OnlineCount>(c1.cookie, '/api/users/online-count');
    expect(count).toEqual({ currentlyOnline: 1, offlineRecently: 0, totalActive: 1 });
    const res = await apiCall(ctx, 'GET', '/api/users/active', { cookie: c1.cookie });
    expect(res.json()).toEqual({
      activeUsers: [{ userId: c1.user.id, name: c1.user.name, isOnline: true, lastSeen: expect.any(String) }],
    });
    for (const other of [admin.user, c2.user, recent]) {
      expect(res.body).not.toContain(other.id);
      expect(res.body).not.toContain(other.name);
    }
  });

  it('a customer seen last hours ago by another process is offline recently until its next request', async () => {
    const c3 = await createUser(ctx);
    await setLastSeen(c3.id, 3 * 60 * 60_000);
    const before = await get<ActiveUsers>(admin.cookie, '/api/users/active');
    expect(before.activeUsers.find((u) => u.userId === c3.id)).toMatchObject({ isOnline: false });
    const cookie = await loginAs(ctx, c3);
    expect(await get<OnlineCount>(cookie, '/api/users/online-count')).toEqual({
      currentlyOnline: 1,
      offlineRecently: 0,
      totalActive: 1,
    });
    const after = await get<ActiveUsers>(admin.cookie, '/api/users/active');
    expect(after.activeUsers[0]).toMatchObject({ userId: expect.any(String), isOnline: true });
    expect(after.activeUsers.find((u) => u.userId === c3.id)).toMatchObject({ isOnline: true });
  });

  it('refuses anonymous callers and accounts awaiting approval', async () => {
    expect((await apiCall(ctx, 'GET', '/api/users/online-count')).statusCode).toBe(401);
    const pending = await loginAs(ctx, await createUser(ctx, { accountType: 'pending', isActive: false }));
    const res = await apiCall(ctx, 'GET', '/api/users/active', { cookie: pending });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ACCOUNT_PENDING');
  });
});

describe('presence is recorded without a database write per request', () => {
  it('requests, and the 2-second poll’s fast path, only touch memory until the tracker writes', async () => {
    const { user, cookie } = await newCustomer(ctx);
    expect(ctx.app.deps.presence.lastSeen(user.id)).toBeUndefined();
    await get(cookie, '/api/auth/me');
    expect(await lastSeenInDb(user.id)).toBeNull();
    await ctx.app.deps.presence.flush();
    const written = await lastSeenInDb(user.id);
    expect(written).not.toBeNull();

    await setLastSeen(user.id, 30 * 60_000);
    const staleInDb = await lastSeenInDb(user.id);
    for (let i = 0; i < 20; i++) await apiCall(ctx, 'GET', '/api/notifications/unread-count', { cookie });
    // Twenty requests later the column is as it was: memory only.
    expect(await lastSeenInDb(user.id)).toBe(staleInDb);
    // Yet the account counts as online (the column merged with the tracker).
    expect(await get<OnlineCount>(cookie, '/api/users/online-count')).toMatchObject({ currentlyOnline: 1 });

    // The session poll answered before Fastify marks presence too.
    const fast = sessionPollFastPath(ctx.app.deps, {});
    const response = { writeHead: () => response, end: () => undefined } as unknown as ServerResponse;
    const before = ctx.app.deps.presence.lastSeen(user.id) ?? 0;
    await new Promise((r) => setTimeout(r, 1100));
    expect(
      fast({ url: '/api/whatsapp-session', method: 'GET', headers: { cookie } } as IncomingMessage, response),
    ).toBe(true);
    expect(ctx.app.deps.presence.lastSeen(user.id)).toBeGreaterThan(before);
  });

  it('writes each account at most once a minute (fake clock)', async () => {
    const a = await createUser(ctx);
    const b = await createUser(ctx);
    let now = Date.parse('2026-11-22T12:00:00.000Z');
    const tracker = new PresenceTracker({ db: db(), log, now: () => now });
    const writes: number[] = [];
    const flush = async () => {
      const n = await tracker.flush();
      writes.push(n);
      return n;
    };

    for (let i = 0; i < 100; i++) tracker.seen(a.id);
    expect(await flush()).toBe(1);
    expect(await lastSeenInDb(a.id)).toBe(now);

    now += 30_000;
    tracker.seen(a.id);
    tracker.seen(b.id); // never written: due at once
    expect(await flush()).toBe(1);
    expect(await lastSeenInDb(a.id)).toBe(Date.parse('2026-11-22T12:00:00.000Z'));
    expect(await lastSeenInDb(b.id)).toBe(now);

    now += 20_000; // 50 s after a's write
    tracker.seen(a.id);
    expect(await flush()).toBe(0);

    now += PRESENCE_WRITE_EVERY_MS - 50_000; // a minute after a's write
    expect(await flush()).toBe(1);
    expect(await lastSeenInDb(a.id)).toBe(Date.parse('2026-11-22T12:00:50.000Z'));
    // Nothing new since: nothing to write, however long it waits.
    now += 5 * 60_000;
    expect(await flush()).toBe(0);
    expect(writes).toEqual([1, 1, 0, 1, 0]);
  });

  it("announces an account's first request, and the first after a minute without one, to the other processes", async () => {
    const a = await createUser(ctx);
    let now = Date.parse('2026-11-22T12:00:00.000Z');
    const elsewhere = new PresenceTracker({ db: db(), log, now: () => now });
    const announced: Array<[string, number]> = [];
    const here = new PresenceTracker({
      db: db(),
      log,
      now: () => now,
      announce: (userId, at) => {
        announced.push([userId, at]);
        elsewhere.seenElsewhere(userId, at);
      },
    });
    expect(elsewhere.lastSeen(a.id)).toBeUndefined();
    for (let i = 0; i < 30; i++) {
      here.seen(a.id);
      now += 2000;
    }
    // One announcement for a minute of polling; the other process counts the account at once.
    expect(announced).toEqual([[a.id, Date.parse('2026-11-22T12:00:00.000Z')]]);
    expect(elsewhere.lastSeen(a.id)).toBe(Date.parse('2026-11-22T12:00:00.000Z'));
    expect([...elsewhere.seenSince(now - 120_000).keys()]).toEqual([a.id]);
    // Back after five minutes away: announced again.
    now += 5 * 60_000;
    here.seen(a.id);
    expect(announced).toHaveLength(2);
    expect(elsewhere.lastSeen(a.id)).toBe(now);
    // A time from the future (a clock far ahead) is not taken.
    elsewhere.seenElsewhere(a.id, now + 10 * 60_000);
    expect(elsewhere.lastSeen(a.id)).toBe(now);
  });

  it('never moves the column backwards (another process may have written a later request)', async () => {
    const a = await createUser(ctx);
    await setLastSeen(a.id, 0);
    const later = await lastSeenInDb(a.id);
    const tracker = new PresenceTracker({ db: db(), log, now: () => Date.now() - 3_600_000 });
    tracker.seen(a.id);
    expect(await tracker.flush()).toBe(1);
    expect(await lastSeenInDb(a.id)).toBe(later);
  });
});

describe('GET /api/activity', () => {
  it('gives a customer its own log only, newest first and paged, whatever userId it asks for', async () => {
    const a = await newCustomer(ctx);
    const b = await newCustomer(ctx);
    for (let i = 1; i <= 5; i++) {
      await recordActivity(db(), log, { userId: a.user.id, actorId: a.user.id, kind: 'bot_changed', detail: `a${i}` });
      await new Promise((r) => setTimeout(r, 2));
    }
    await recordActivity(db(), log, {
      userId: b.user.id,
      actorId: b.user.id,
      kind: 'bot_changed',
      detail: 'segredo-b',
    });

    const first = await get<ActivityPage>(a.cookie, '/api/activity?limit=2');
    // The login of newCustomer is the oldest event.
    expect(first).toMatchObject({ page: 1, limit: 2, total: 6, scope: 'account' });
    expect(first.events.map((e) => e.detail)).toEqual(['a5', 'a4']);
    expect(first.events[0]).toMatchObject({
      kind: 'bot_changed',
      userId: a.user.id,
      userName: a.user.name,
      actorId: a.user.id,
      actorName: a.user.name,
    });
    const third = await get<ActivityPage>(a.cookie, '/api/activity?limit=2&page=3');
    expect(third.events.map((e) => [e.kind, e.detail])).toEqual([
      ['bot_changed', 'a1'],
      ['login', ''],
    ]);

    const asking = await apiCall(ctx, 'GET', `/api/activity?userId=${b.user.id}&limit=100`, { cookie: a.cookie });
    expect(asking.json().scope).toBe('account');
    expect(asking.body).not.toContain('segredo-b');
    expect(asking.body).not.toContain(b.user.id);
  });

  it('lets an administrator read every account’s log, or one account’s', async () => {
    const admin = await newCustomer(ctx, { accountType: 'admin', planType: 'admin' });
    const a = await newCustomer(ctx);
    await recordActivity(db(), log, { userId: a.user.id, actorId: null, kind: 'campaign_finished', detail: 'Promo' });

    const all = await get<ActivityPage>(admin.cookie, '/api/activity?limit=100');
    expect(all.scope).toBe('all');
    expect(all.events[0]).toMatchObject({
      kind: 'campaign_finished',
      userId: a.user.id,
      userName: a.user.name,
      actorId: null,
      actorName: null,
    });
    expect(new Set(all.events.map((e) => e.userId)).size).toBeGreaterThan(2);

    const one = await get<ActivityPage>(admin.cookie, `/api/activity?userId=${a.user.id}`);
    expect(one.scope).toBe('account');
    expect(one.events.map((e) => e.kind)).toEqual(['campaign_finished', 'login']);
    expect(one.total).toBe(2);
  });

  it('refuses bad paging and ids', async () => {
    const a = await newCustomer(ctx);
    for (const q of ['page=0', 'limit=0', 'limit=101', 'userId=x']) {
      expect((await apiCall(ctx, 'GET', `/api/activity?${q}`, { cookie: a.cookie })).statusCode, q).toBe(400);
    }
  });

  it('records what accounts do: sign-in, settings, campaigns, exports', async () => {
    const { user, cookie } = await newCustomer(ctx);
    const put = (url: string, payload: object) => apiCall(ctx, 'PUT', url, { cookie, payload });
    expect(
      (
        await put('/api/settings/notifications', {
          emailNotifications: true,
          pushNotifications: true,
          campaignUpdates: true,
          systemAlerts: true,
          marketingEmails: false,
        })
      ).statusCode,
    ).toBe(200);
    const created = await apiCall(ctx, 'POST', '/api/campaigns', {
      cookie,
      payload: { name: 'Ofertas', message: 'Oi', targetType: 'all' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id as string;
    expect((await apiCall(ctx, 'POST', `/api/campaigns/${id}/duplicate`, { cookie })).statusCode).toBe(200);
    expect((await apiCall(ctx, 'GET', '/api/contacts/export?format=csv', { cookie })).statusCode).toBe(200);
    const log = await get<ActivityPage>(cookie, '/api/activity');
    expect(log.events.map((e) => [e.kind, e.detail])).toEqual([
      ['contacts_exported', expect.stringMatching(/^contatos-.*\.csv: 0 contatos$/)],
      ['campaign_created', 'Ofertas (cópia)'],
      ['campaign_created', 'Ofertas'],
      ['settings_changed', 'Notificações'],
      ['login', ''],
    ]);
    expect(log.events.every((e) => e.actorId === user.id)).toBe(true);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMsg } from '../../../contract/verification';
import { FakeDrivers } from '../../testing/fake-driver';
import { listen } from '../../testing/raw-http';
import { createTestApp, createUser, loginAs, type TestContext, waitFor } from '../../testing/test-app';

let ctx: TestContext;
const drivers = new FakeDrivers();
beforeAll(async () => {
  ctx = await createTestApp({}, undefined, { drivers, verification: { batchSize: 4, delayMs: 10 } });
});
afterAll(() => ctx.close());

async function account(n: number) {
  const user = await createUser(ctx);
  await ctx.database.db.execute(
    // Odd contacts end in their (odd) digit, even ones in a 0: half have WhatsApp (simulatedNumberExists).
    sql`insert into contacts (user_id, name, phone) select ${user.id}, 'C' || i, '+55219' || lpad((case when i % 2 = 1 then i else i * 10 end)::text, 8, '0') from generate_series(1, ${n}) as i`,
  );
  return { user, cookie: await loginAs(ctx, user) };
}
const verify = (cookie: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/users/verify-list', headers: { cookie } });

/** The list once the verification is no longer running. */
const untilDone = (cookie: string) =>
  waitFor(
    async () => (await verify(cookie)).json(),
    (body) => body.progress.status !== 'running',
    5000,
    20,
  );

describe('contact verification', () => {
  it('asks to connect WhatsApp when numbers need checking', async () => {
    const { cookie } = await account(2);
    const res = await verify(cookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(verifyMsg.connectToVerify);
  });

  it('runs one verification of an account however many requests start it at once', async () => {
    const { user, cookie } = await account(10);
    const driver = drivers.connect(user.id);
    const base = `http://127.0.0.1:${await listen(ctx)}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/api/users/verify-list`, { headers: { cookie } })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    await untilDone(cookie);
    // Each number asked of WhatsApp once: one job, not one per request.
    const asked = driver.checkCalls.flat();
    expect(asked).toHaveLength(10);
    expect(new Set(asked).size).toBe(10);
  });

  it('checks in small batches in the background, answers at once, and caches each result', async () => {
    const { user, cookie } = await account(10);
    const driver = drivers.connect(user.id);
    const first = (await verify(cookie)).json();
    expect(first).toMatchObject({ totalContacts: 10, progress: { status: 'running' } });
    expect(first.contacts).toHaveLength(10);
    const done = await untilDone(cookie);
    expect(done).toMatchObject({
      totalContacts: 10,
      activeContacts: 5,
      inactiveContacts: 5,
      progress: { status: 'done', checked: 10, pending: 0, error: null },
    });
    expect(done.contacts.find((c: { phone: string }) => c.phone === '+5521900000001')).toMatchObject({
      isWhatsAppActive: true,
      lastSeen: null,
    });
    expect(driver.checkCalls.map((c) => c.length)).toEqual([4, 4, 2]);
    expect(driver.checkCalls.flat().sort()[0]).toBe('5521900000001');
    // Cached: asking again checks nothing, even without a connection.
    driver.connected = false;
    const again = (await verify(cookie)).json();
    expect(again.progress.status).toBe('done');
    expect(driver.checkCalls).toHaveLength(3);
    // The contacts list shows the result too.
    const list = (await ctx.app.inject({ method: 'GET', url: '/api/contacts?q=C1', headers: { cookie } })).json();
    expect(list.items[0]).toMatchObject({ isWhatsAppActive: true });
    expect(list.items[0].whatsappCheckedAt).not.toBeNull();
  });

  it('reports a driver failure as an error state', async () => {
    const { user, cookie } = await account(3);
    drivers.connect(user.id).failChecks = true;
    await verify(cookie);
    const done = await untilDone(cookie);
    expect(done.progress).toMatchObject({ status: 'error', error: verifyMsg.error, pending: 3 });
  });
});

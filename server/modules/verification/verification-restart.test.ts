import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows';
import { databasePerFile } from '../../testing/app-per-file';
import { FakeDrivers } from '../../testing/fake-driver';
import { createTestApp, newCustomer, type TestContext, waitFor } from '../../testing/test-app';

/**
 * A rolling restart in the middle of a contact verification: the process that started it stops
 * after a batch or two, and a process started afterwards on the same database checks the rest —
 * each number asked of WhatsApp once, the run's state read from the database by either process.
 */
const database = databasePerFile();

const drivers = new FakeDrivers();
const verification = { batchSize: 2, delayMs: 400 };
const verify = (ctx: TestContext, cookie: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/users/verify-list', headers: { cookie } });

describe('contact verification across a rolling restart', () => {
  it('is finished by a process started after the one that began it stopped', async () => {
    const first = await createTestApp({}, undefined, { database, drivers, verification });
    const { user, cookie } = await newCustomer(first);
    await database.db.execute(
      sql`insert into contacts (user_id, name, phone) select ${user.id}, 'C' || i, '+55219' || lpad((case when i % 2 = 1 then i else i * 10 end)::text, 8, '0') from generate_series(1, 9) as i`,
    );
    const driver = drivers.connect(user.id);
    expect((await verify(first, cookie)).json().progress.status).toBe('running');
    await waitFor(
      () => driver.checkCalls.length,
      (n) => n >= 1,
      5_000,
      10,
    );
    await first.app.close();
    const before = driver.checkCalls.length;
    expect(before).toBeLessThan(5);
    // Still under way for whoever looks: the next batch is a queued job, not a timer of the closed process.
    const queued = rowsOf<{ state: string }>(
      await database.db.execute(sql`select state from jobs where dedupe_key = ${`contact-verification:${user.id}`}`),
    );
    expect(queued).toEqual([{ state: 'queued' }]);

    const second = await createTestApp({}, undefined, { database, drivers, verification });
    try {
      expect((await verify(second, cookie)).json().progress.status).toBe('running');
      const done = await waitFor(
        async () => (await verify(second, cookie)).json(),
        (body) => body.progress.status !== 'running',
        15_000,
        50,
      );
      expect(done).toMatchObject({
        totalContacts: 9,
        activeContacts: 5,
        inactiveContacts: 4,
        progress: { status: 'done', checked: 9, pending: 0, error: null },
      });
      expect(driver.checkCalls.length).toBeGreaterThan(before);
      const asked = driver.checkCalls.flat();
      expect(asked).toHaveLength(9);
      expect(new Set(asked).size).toBe(9);
      await second.app.deps.jobs.idle();
      const left = rowsOf(await database.db.execute(sql`select 1 from jobs where name = 'contacts.verify'`));
      expect(left).toHaveLength(0);
    } finally {
      await second.app.close();
    }
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, newCustomer, setAccountSettings, waitFor } from '../../testing/test-app';
import { createTestDatabase } from '../../testing/test-db';
import { ConnectionAlerts } from './connection-alerts';

/**
 * A rolling restart: the process that saw a number drop stops before the disconnect e-mail is due,
 * and a process started after it sends that e-mail, once — the wait is a job on the database, not a
 * timer of the process that stopped.
 */
let sink: SmtpSink;
let database: Database;
beforeAll(async () => {
  sink = await new SmtpSink().start();
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  await sink.stop();
});

const EMAIL_AFTER_MS = 1_500;
const state = (isConnected: boolean, s: 'connected' | 'connecting') => ({
  phoneNumber: null,
  isConnected,
  state: s,
  qr: null,
});

describe('disconnect e-mail across a rolling restart', () => {
  it('is sent once by a process started after the one that saw the drop stopped', async () => {
    const env = { SMTP_URL: sink.url, PUBLIC_URL: 'https://painel.disparo.example' };
    const first = await createTestApp(env, undefined, { database });
    const { user } = await newCustomer(first);
    await setAccountSettings(first, user.id, { systemAlerts: true });
    const alerts = new ConnectionAlerts({
      db: database.db,
      log: first.app.log,
      jobs: first.app.deps.jobs,
      emailNotices: first.app.deps.mail.notices,
      emailAfterMs: EMAIL_AFTER_MS,
    });
    const droppedAt = Date.now();
    await alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(true, 'connected') });
    await alerts.onConnection({ userId: user.id, connectionId: user.id, state: state(false, 'connecting') });
    alerts.close();
    await first.app.close();
    expect(Date.now() - droppedAt).toBeLessThan(EMAIL_AFTER_MS);
    expect(sink.to(user.email)).toHaveLength(0);

    const second = await createTestApp(env, undefined, { database });
    try {
      const mails = await waitFor(
        () => sink.to(user.email),
        (m) => m.length > 0,
        10_000,
        50,
      );
      expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(EMAIL_AFTER_MS);
      expect(mails[0].subject).toBe('Seu WhatsApp está desconectado – Disparo');
      // Once: nothing else is due, and the job is done by the second process.
      await second.app.deps.jobs.idle();
      await new Promise((r) => setTimeout(r, 300));
      await second.app.deps.mail.mailer.idle();
      expect(sink.to(user.email)).toHaveLength(1);
      const rows = rowsOf<{ state: string; claimed_by: string | null }>(
        await database.db.execute(sql`
          select state, claimed_by from jobs where dedupe_key = ${`connection-down-mail:${user.id}`}`),
      );
      expect(rows).toEqual([{ state: 'done', claimed_by: null }]);
    } finally {
      await second.app.close();
    }
  });
});

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../scripts/launch-server.mjs';
import { BUS_PAYLOAD_MAX_BYTES, BusPayloadError, LocalBus, PgBus } from './bus';

/**
 * The change bus on PostgreSQL (LISTEN/NOTIFY): what one process publishes reaches the others and
 * not itself, and a listening connection that breaks makes every subscriber drop its caches, then
 * listens again. (PostgreSQL only: on the embedded database one process runs, and nobody listens.)
 */
let database: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;

beforeAll(async () => {
  database = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_bus');
  pool = new pg.Pool({ connectionString: database.url, max: 3 });
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

const bus = (origin: string, onError?: (err: unknown) => void) =>
  new PgBus({
    connectionString: database.url,
    origin,
    notify: (channel, payload) => pool.query('select pg_notify($1, $2)', [channel, payload]),
    onError,
  });

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the change bus', () => {
  it('carries a change to the other processes, keys with tabs intact, never back to its sender', async () => {
    const a = bus('a');
    const b = bus('b');
    await Promise.all([a.start(), b.start()]);
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    a.subscribe('sessions', (k) => heardByA.push(k));
    b.subscribe('sessions', (k) => heardByB.push(k));
    b.subscribe('other', (k) => heardByB.push(`other:${k}`));
    a.publish('sessions', 'user:1');
    a.publish('sessions', 'user:2\t{"x":1}');
    await a.flushed();
    await until(() => heardByB.length === 2);
    expect(heardByB).toEqual(['user:1', 'user:2\t{"x":1}']);
    expect(heardByA).toEqual([]);
    await a.close();
    await b.close();
  });

  it('a broken listening connection drops every cache, and the bus listens again', async () => {
    const a = bus('a2');
    const b = bus('b2');
    // b listens last: its session is the newest LISTEN.
    await a.start();
    await b.start();
    let resets = 0;
    b.onReset(() => resets++);
    const heard: string[] = [];
    b.subscribe('contacts', (k) => heard.push(k));
    // The database ends b's listening session, as a restart or a dropped network would.
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'
       and pid <> pg_backend_pid() and backend_start = (select max(backend_start) from pg_stat_activity where query ilike 'LISTEN%')`,
    );
    await until(() => resets >= 1);
    // Listening again: a change published now arrives (and the reconnect dropped the caches once more).
    await until(() => {
      a.publish('contacts', 'again');
      return heard.includes('again');
    }, 10_000);
    expect(resets).toBeGreaterThanOrEqual(2);
    await a.close();
    await b.close();
  });

  it('refuses a notification over its limit: reported, thrown, never sent; ids pass', async () => {
    const errors: unknown[] = [];
    const a = bus('a3', (err) => errors.push(err));
    const b = bus('b3');
    await Promise.all([a.start(), b.start()]);
    const heard: string[] = [];
    b.subscribe('connection-command', (k) => heard.push(k));
    // What an image inlined into a command looked like: its bytes as base64.
    const bytes = Buffer.alloc(BUS_PAYLOAD_MAX_BYTES).toString('base64');
    expect(() => a.publish('connection-command', bytes)).toThrow(BusPayloadError);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ topic: 'connection-command' });
    // Multi-byte text counts in bytes, not characters.
    expect(() => a.publish('connection-command', 'ç'.repeat(BUS_PAYLOAD_MAX_BYTES / 2))).toThrow(BusPayloadError);
    a.publish('connection-command', 'p2\nid\n0\n1\neyJvcCI6InNlbmQifQ==');
    await a.flushed();
    await until(() => heard.length === 1);
    expect(heard).toEqual(['p2\nid\n0\n1\neyJvcCI6InNlbmQifQ==']);
    await a.close();
    await b.close();
  });

  it('alone on its database, refuses what it would refuse with others', () => {
    const errors: unknown[] = [];
    const alone = new LocalBus((err) => errors.push(err));
    expect(() => alone.publish('connection-command', 'x'.repeat(BUS_PAYLOAD_MAX_BYTES + 1))).toThrow(BusPayloadError);
    expect(errors).toHaveLength(1);
    expect(() => alone.publish('sessions', 'user:1')).not.toThrow();
  });
});

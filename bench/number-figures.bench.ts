import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { startOfSaoPauloDay } from '../contract/sao-paulo-time';
import { createDatabase, type FreshDatabase } from '../scripts/launch-server.mjs';
import { type Database, openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/rows';
import { hashPassword } from '../server/modules/auth';
import { BLOCK_REASONS } from '../server/sending/failures';
import { login } from './lib/accounts';
import { request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { startDisparoOn } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: the Números page's list (`GET /api/connections`) of an account whose number sent
 * 300,000 campaign messages today (`BENCH_NUMBER_SENDS`), with 3,000 failures (a third of them
 * blocks) and 30,000 messages received in the last 24 h, written straight into a migrated database
 * (the rollup triggers on, as the engine's writes would have them), beside a second account whose
 * number sent 10,000. The built server then starts on that database and both lists are requested
 * in turn, one at a time. Each number's card carries its figures (failures and blocks in 24 h, sent
 * today, replies and opt-outs in 24 h): read from counters, the busy account's list costs about what
 * the quiet one's does (docs/decisions/027-number-figures-by-trigger.md); recounted from the day's
 * rows it cost 5 to 6 times more, and 65–93 ms at 300,000.
 */
export const name = 'number-figures';

const MAX_P95_MS = 50;
/** A second account's number sent this many today: the list must cost about the same for both. */
const SMALL_SENDS = 10_000;
const MAX_VOLUME_RATIO = 1.5;
const FAILURES = 3_000;
const INBOUND = 30_000;

interface Seeded {
  username: string;
  password: string;
  connectionId: string;
  /** Counted from the rows: what the number's card must say. */
  sentToday: number;
  failures: number;
  blocks: number;
  replies: number;
}

async function seed(database: Database, sends: number, n: number): Promise<Seeded> {
  const { db } = database;
  const username = `benchnumbers${n}`;
  const password = 'bench-numbers-password-1';
  const started = performance.now();
  const [{ id: userId }] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
      values ('Bench Números', ${`numbers${n}@bench.example`}, ${username}, '+55 11 90000-0002', ${await hashPassword(password)},
              'active', 'enterprise', true)
      returning id`),
  );
  // A Cloud API number without credentials: listed, with its figures, and nothing to connect.
  const [{ id: connectionId }] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into connections (user_id, kind, label, is_default) values (${userId}, 'cloud', 'Vendas', true) returning id`),
  );
  const [{ id: campaignId }] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into campaigns (user_id, name, message, status, started_at)
      values (${userId}, 'Hoje', 'Oi', 'sending', now()) returning id`),
  );
  // Today's sends spread from the start of the São Paulo day to now; failures and replies over the last 24 h.
  const today = startOfSaoPauloDay(new Date()).toISOString();
  await db.execute(sql`
    insert into campaign_recipients (campaign_id, user_id, recipient, name, status, connection_id, sent_at, delivered_at, provider_message_id)
    select ${campaignId}::uuid, ${userId}::uuid, '5511' || lpad(g::text, 9, '0'), 'Contato', (array['sent', 'delivered', 'read'])[1 + g % 3],
      ${connectionId}::uuid, t, case when g % 3 > 0 then t end, 'wamid.' || g
    from generate_series(1, ${sends}) g,
      lateral (select ${today}::timestamptz + (now() - ${today}::timestamptz) * (g::float / ${sends + 1}) as t) x`);
  await db.execute(sql`
    insert into campaign_recipients (campaign_id, user_id, recipient, name, status, connection_id, failed_at, error)
    select ${campaignId}::uuid, ${userId}::uuid, '5521' || lpad(g::text, 9, '0'), 'Contato', 'failed', ${connectionId}::uuid,
      now() - interval '23 hours' * (g::float / ${FAILURES + 1}),
      case when g % 3 = 0 then ${BLOCK_REASONS[0]} else 'Tipo de mensagem não suportado.' end
    from generate_series(1, ${FAILURES}) g`);
  await db.execute(sql`
    insert into whatsapp_inbound_messages (user_id, connection_id, channel, from_phone, text, provider_message_id, received_at)
    select ${userId}::uuid, ${connectionId}::uuid, 'cloud', '5531' || lpad((g % 5000)::text, 9, '0'), 'oi', 'in.' || g,
      now() - interval '23 hours' * (g::float / ${INBOUND + 1})
    from generate_series(1, ${INBOUND}) g`);
  await db.execute(sql`analyze`);
  console.log(
    `  account ${n}: seeded ${fmt(sends, 0)} sends of today, ${fmt(FAILURES, 0)} failures and ${fmt(INBOUND, 0)} replies of the last 24 h on one number in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  return {
    username,
    password,
    connectionId,
    sentToday: sends,
    failures: FAILURES,
    blocks: Math.floor(FAILURES / 3),
    replies: INBOUND,
  };
}

/** The number's card as the list answers it, against what the rows say; answers how many figures differ. */
async function wrongFigures(url: string, cookie: string, seeded: Seeded): Promise<number> {
  const listed = JSON.parse((await request(url, 'GET', '/api/connections', { cookie })).body);
  const card = listed.connections?.find((c: { id: string }) => c.id === seeded.connectionId);
  const said = {
    sentToday: card?.sentToday,
    failures: card?.health?.recentFailures,
    blocks: card?.health?.blocks,
    replies: card?.health?.repliesToday,
  };
  const expected = {
    sentToday: seeded.sentToday,
    failures: seeded.failures,
    blocks: seeded.blocks,
    replies: seeded.replies,
  };
  console.log(`  the number's card: ${JSON.stringify(said)} (expected ${JSON.stringify(expected)})`);
  return Object.entries(expected).filter(([k, v]) => said[k as keyof typeof said] !== v).length;
}

export async function run(): Promise<BenchResult> {
  const sends = envInt('BENCH_NUMBER_SENDS', 300_000, 20_000, 2_000_000);
  const requests = envInt('BENCH_NUMBER_REQUESTS', 200, 20, 5_000);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-number-figures-'));
  let fresh: FreshDatabase | undefined;
  let stopServer: (() => Promise<void>) | undefined;
  try {
    fresh = postgresUrl ? await createDatabase(postgresUrl, 'disparo_bench_number_figures') : undefined;
    const database = await openDatabase({ databaseUrl: fresh?.url, dataDir });
    let busy: Seeded;
    let quiet: Seeded;
    try {
      await database.migrate();
      busy = await seed(database, sends, 1);
      quiet = await seed(database, SMALL_SENDS, 2);
    } finally {
      await database.close();
    }

    const server = await startDisparoOn(dataDir, fresh?.url);
    const accounts = [
      { seeded: busy, cookie: await login(server.url, busy.username, busy.password), ms: [] as number[] },
      { seeded: quiet, cookie: await login(server.url, quiet.username, quiet.password), ms: [] as number[] },
    ];
    let wrong = 0;
    for (const a of accounts) wrong += await wrongFigures(server.url, a.cookie, a.seeded);

    // The two accounts in turn, so the machine's noise falls on both alike.
    let errors = 0;
    for (let i = 0; i < 20; i++)
      for (const a of accounts) await request(server.url, 'GET', '/api/connections', { cookie: a.cookie });
    for (let i = 0; i < requests; i++) {
      for (const a of accounts) {
        const t = performance.now();
        const res = await request(server.url, 'GET', '/api/connections', { cookie: a.cookie });
        a.ms.push(performance.now() - t);
        if (res.status !== 200) errors++;
      }
    }
    const [b, q] = accounts.map((a) => summarize(a.ms));
    console.log(
      `  GET /api/connections, ${fmt(sends, 0)} sends today: p50 ${fmt(b.p50)} ms, p95 ${fmt(b.p95)} ms, max ${fmt(b.max)} ms`,
    );
    console.log(
      `  GET /api/connections, ${fmt(SMALL_SENDS, 0)} sends today: p50 ${fmt(q.p50)} ms, p95 ${fmt(q.p95)} ms, max ${fmt(q.max)} ms`,
    );
    const checks = [
      ceiling(`GET /api/connections p95 (${fmt(sends, 0)} sends today)`, b.p95, MAX_P95_MS, 'ms'),
      ceiling(
        `GET /api/connections p50, ${fmt(sends, 0)} ÷ ${fmt(SMALL_SENDS, 0)} sends today`,
        b.p50 / q.p50,
        MAX_VOLUME_RATIO,
        '×',
      ),
      ceiling('failed requests or wrong figures', errors + wrong, 1, ''),
    ];
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        engine: fresh ? 'PostgreSQL' : 'PGlite',
        'sends today': sends,
        requests,
        'GET /api/connections p50 ms': Number(b.p50.toFixed(2)),
        'GET /api/connections p95 ms': Number(b.p95.toFixed(2)),
        [`GET /api/connections p50 ms (${SMALL_SENDS} sends)`]: Number(q.p50.toFixed(2)),
      },
    };
  } finally {
    await stopServer?.();
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

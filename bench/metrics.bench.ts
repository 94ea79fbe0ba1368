import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { addDays, saoPauloDay } from '../contract/metrics';
import { createDatabase, type FreshDatabase } from '../scripts/launch-server.mjs';
import { type Database, openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/rows';
import { hashPassword } from '../server/modules/auth';
import { login } from './lib/accounts';
import { request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { startDisparoOn } from './lib/server';
import { envInt, median, summarize } from './lib/stats';

/**
 * Benchmark: the dashboard and report figures of a large account. One account gets 100,000
 * contacts, 200 campaigns with 1,000,000 recipient rows sent over the last 90 days, 100,000
 * messages to the chatbot with their replies and events, written straight into a migrated database
 * (generate_series, the rollup triggers off) and then counted into the rollups by
 * `stats_rebuild`, as the migration does for existing data. The built server then starts on that
 * database and each figure is requested one at a time through HTTP, as a dashboard does: p95 must
 * stay under 50 ms each. Before the server starts, the cost of the rollup triggers on the send
 * path is measured on the same database (reported, not checked: the machine's noise is larger).
 */
export const name = 'metrics';

const MAX_P95_MS = 50;
const MAX_PDF_MS = 2000;
const CONTACTS = 100_000;
const CAMPAIGNS = 200;
const DAYS = 90;

interface Seeded {
  userId: string;
  username: string;
  password: string;
  /** Counted from the rows: what /api/metrics must answer. */
  messagesSent: number;
  activeContacts: number;
  recipients: number;
}

/** Runs `body` in a transaction with triggers (and foreign-key checks) off: bulk loading only. */
const withoutTriggers = (db: Database['db'], body: (tx: Database['db']) => Promise<unknown>) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await body(tx as unknown as Database['db']);
  });

async function seed(database: Database, recipients: number): Promise<Seeded> {
  const { db } = database;
  const username = 'benchmetrics';
  const password = 'bench-metrics-password-1';
  const [{ id: userId }] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
      values ('Bench Metrics', 'metrics@bench.example', ${username}, '+55 11 90000-0001', ${await hashPassword(password)},
              'active', 'enterprise', true)
      returning id`),
  );
  const perCampaign = Math.ceil(recipients / CAMPAIGNS);
  const started = performance.now();
  await withoutTriggers(db, async (tx) => {
    // Contacts created over the 90 days: 5 % inactive, 2 % opted out.
    await tx.execute(sql`
      insert into contacts (user_id, name, phone, is_active, opted_out, created_at)
      select ${userId}, 'Contato ' || g, '+55119' || lpad(g::text, 8, '0'), g % 20 <> 0, g % 50 = 7,
             now() - ${`${DAYS} days`}::interval + (g * ${(DAYS * 86_400) / CONTACTS}::float8) * interval '1 second'
      from generate_series(0, ${CONTACTS - 1}) g`);
    await tx.execute(sql`
      insert into groups (user_id, name, whatsapp_group_id, is_active, created_at)
      select ${userId}, 'Grupo ' || g, '1203630000' || g || '@g.us', g % 10 <> 0, now() - (g % ${DAYS}) * interval '1 day'
      from generate_series(1, 200) g`);
    // One campaign every 10.8 hours over the 90 days.
    await tx.execute(sql`
      insert into campaigns (user_id, name, message, status, created_at, started_at, finished_at)
      select ${userId}, 'Campanha ' || k, 'Olá {{nome}}!', 'completed', t, t, t + interval '3 hours'
      from (select k, now() - ${`${DAYS} days`}::interval + k * ${`${(DAYS * 24 * 60) / CAMPAIGNS} minutes`}::interval as t
            from generate_series(0, ${CAMPAIGNS - 1}) k) c`);
  });
  // Each campaign sends its rows 2 s apart from 5 minutes after it was created: 5 % fail; of the
  // rest 45 % are read, 35 % delivered, 20 % only sent.
  for (let first = 0; first < recipients; first += 100_000) {
    const last = Math.min(recipients, first + 100_000) - 1;
    await withoutTriggers(db, (tx) =>
      tx.execute(sql`
        with c as (
          select id, created_at, (row_number() over (order by created_at) - 1)::int as k
          from campaigns where user_id = ${userId}
        ), r as (
          select g, g / ${perCampaign} as k, g % ${perCampaign} as i,
                 case when g % 20 = 3 then 'failed' when g % 20 < 9 then 'read' when g % 20 < 16 then 'delivered' else 'sent' end as status
          from generate_series(${first}::int, ${last}::int) g
        ), t as (
          select r.*, c.id as campaign_id, c.created_at + interval '5 minutes' + r.i * interval '2 seconds' as at
          from r join c on c.k = r.k
        )
        insert into campaign_recipients (campaign_id, user_id, recipient, name, status, attempts, provider_message_id,
                                         sent_at, delivered_at, read_at, failed_at, due_at, created_at, updated_at)
        select campaign_id, ${userId}, '55119' || lpad(((g::bigint * 7919) % ${CONTACTS})::text, 8, '0'), 'Contato', status, 1,
               'wamid.bench.' || g,
               case when status <> 'failed' then at end,
               case when status in ('delivered', 'read') then at + interval '30 seconds' end,
               case when status = 'read' then at + (600 + g % 3600) * interval '1 second' end,
               case when status = 'failed' then at + interval '5 seconds' end,
               at, at - interval '5 minutes', at
        from t`),
    );
  }
  // The chatbot: 100,000 messages from 20,000 contacts over the 90 days; 85 % answered by the bot
  // two seconds later (a reply event each), the rest unmatched.
  // Every conversation is on a number (decision 024): the account's one personal number.
  const [{ id: connectionId }] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into connections (user_id, kind, label, is_default) values (${userId}, 'personal', 'WhatsApp', true)
      returning id`),
  );
  await withoutTriggers(db, async (tx) => {
    await tx.execute(sql`
      with m as (
        select g, '55119' || lpad((g % 20000)::text, 8, '0') as phone,
               now() - ${`${DAYS} days`}::interval + (g * ${(DAYS * 86_400) / 100_000}::float8) * interval '1 second' as at
        from generate_series(0, 99999) g
      ), inbound as (
        insert into conversation_messages (user_id, connection_id, phone, direction, source, text, status, provider_message_id, created_at)
        select ${userId}::uuid, ${connectionId}::uuid, phone, 'in', 'contact', 'quero saber o preço', 'received', 'wamid.in.' || g, at from m
      ), replies as (
        insert into conversation_messages (user_id, connection_id, phone, direction, source, text, status, provider_message_id, created_at)
        select ${userId}::uuid, ${connectionId}::uuid, phone, 'out', 'bot', 'A partir de R$ 10.', 'read', 'wamid.out.' || g, at + interval '2 seconds'
        from m where g % 20 < 17
      ), events as (
        insert into bot_events (user_id, contact_phone, kind, detail, created_at)
        select ${userId}::uuid, phone, 'inbound', null, at from m
        union all
        select ${userId}::uuid, phone, case when g % 20 < 17 then 'auto_reply' else 'no_match' end, null, at + interval '2 seconds' from m
      )
      insert into conversations (user_id, connection_id, phone, last_message_at, last_message_text, last_direction, last_inbound_at)
      select ${userId}::uuid, ${connectionId}::uuid, phone, max(at) + interval '2 seconds', 'A partir de R$ 10.', 'out', max(at) from m group by phone`);
  });
  await db.execute(sql`select stats_rebuild(${userId}::uuid)`);
  await db.execute(sql`vacuum analyze`);
  const [{ sent, total, active }] = rowsOf<{ sent: number; total: number; active: number }>(
    await db.execute(sql`
      select (count(*) filter (where status in ('sent', 'delivered', 'read')))::int as sent, count(*)::int as total,
             (select count(*)::int from contacts where user_id = ${userId} and is_active and not opted_out) as active
      from campaign_recipients where user_id = ${userId}`),
  );
  console.log(
    `  seeded ${fmt(CONTACTS, 0)} contacts, ${fmt(total, 0)} recipient rows (${fmt(sent, 0)} sent), 100,000 chatbot messages in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  return { userId, username, password, messagesSent: sent, activeContacts: active, recipients: total };
}

/**
 * What the rollup triggers add to the send path, on the seeded database: a campaign start of
 * 100,000 queued rows (the triggers skip them) and 500 messages moved sending → sent → delivered →
 * read one statement at a time (the dispatcher and the receipts), each timed with the triggers on
 * and off, alternately; medians of 3.
 */
async function triggerCost(database: Database, userId: string): Promise<Record<string, number>> {
  const { db } = database;
  const times: Record<string, number[]> = {};
  const note = (key: string, ms: number) => {
    times[key] ??= [];
    times[key].push(ms);
  };
  for (let round = 0; round < 3; round++) {
    for (const on of round % 2 ? [false, true] : [true, false]) {
      // Off: only the rollup triggers (foreign keys are checked either way), inside the transaction.
      const run = (body: (tx: Database['db']) => Promise<unknown>) =>
        db.transaction(async (t) => {
          const tx = t as unknown as Database['db'];
          if (!on) {
            await tx.execute(sql`alter table campaign_recipients disable trigger stats_recipient_inserted`);
            await tx.execute(sql`alter table campaign_recipients disable trigger stats_recipient_updated`);
          }
          await body(tx);
          if (!on) {
            await tx.execute(sql`alter table campaign_recipients enable trigger stats_recipient_inserted`);
            await tx.execute(sql`alter table campaign_recipients enable trigger stats_recipient_updated`);
          }
        });
      const [{ id }] = rowsOf<{ id: string }>(
        await db.execute(
          sql`insert into campaigns (user_id, name, message, status) values (${userId}, 'Custo', 'Oi', 'sending') returning id`,
        ),
      );
      let t = performance.now();
      await run((tx) =>
        tx.execute(sql`
          insert into campaign_recipients (campaign_id, user_id, contact_id, recipient, kind, name, email, status)
          select ${id}, ${userId}, c.id, replace(c.phone, '+', ''), 'contact', c.name, c.email, 'queued'
          from contacts c where c.user_id = ${userId}`),
      );
      note(`start ${on ? 'on' : 'off'}`, performance.now() - t);
      const ids = rowsOf<{ id: string }>(
        await db.execute(sql`select id from campaign_recipients where campaign_id = ${id} limit 500`),
      ).map((r) => r.id);
      t = performance.now();
      await run(async (tx) => {
        for (const rid of ids) {
          await tx.execute(sql`update campaign_recipients set status = 'sending' where id = ${rid}`);
          await tx.execute(
            sql`update campaign_recipients set status = 'sent', sent_at = now(), provider_message_id = ${rid} where id = ${rid}`,
          );
          await tx.execute(
            sql`update campaign_recipients set status = 'delivered', delivered_at = now() where id = ${rid}`,
          );
          await tx.execute(sql`update campaign_recipients set status = 'read', read_at = now() where id = ${rid}`);
        }
      });
      note(`messages ${on ? 'on' : 'off'}`, performance.now() - t);
      await db.execute(sql`delete from campaigns where id = ${id}`);
    }
  }
  const m = (k: string) => median(times[k]);
  const info = {
    'campaign start 100k rows, triggers on ms': Math.round(m('start on')),
    'campaign start 100k rows, triggers off ms': Math.round(m('start off')),
    'per message (4 updates), triggers on ms': Number((m('messages on') / 500).toFixed(3)),
    'per message (4 updates), triggers off ms': Number((m('messages off') / 500).toFixed(3)),
  };
  console.log(
    `  send path: campaign start of 100,000 rows ${fmt(m('start on'), 0)} ms with the triggers, ${fmt(m('start off'), 0)} ms without; ` +
      `a message's four updates ${fmt(m('messages on') / 500, 3)} ms with, ${fmt(m('messages off') / 500, 3)} ms without (medians of 3)`,
  );
  return info;
}

export async function run(): Promise<BenchResult> {
  const recipients = envInt('BENCH_METRICS_RECIPIENTS', 1_000_000, 10_000, 2_000_000);
  const requests = envInt('BENCH_METRICS_REQUESTS', 200, 20, 5_000);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-metrics-'));
  let fresh: FreshDatabase | undefined;
  let stopServer: (() => Promise<void>) | undefined;
  try {
    fresh = postgresUrl ? await createDatabase(postgresUrl, 'disparo_bench_metrics') : undefined;
    const database = await openDatabase({ databaseUrl: fresh?.url, dataDir });
    let seeded: Seeded;
    let cost: Record<string, number> = {};
    try {
      await database.migrate();
      seeded = await seed(database, recipients);
      if (process.env.BENCH_METRICS_TRIGGER_COST !== '0') cost = await triggerCost(database, seeded.userId);
    } catch (err) {
      // Drizzle names the query; the database's own words are in the cause.
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw cause ? new Error(`${(err as Error).message.split('\n')[0]}: ${cause}`) : err;
    } finally {
      await database.close();
    }

    // The built server on that database, as bench/lib/server.ts starts one (it starts on fresh ones only).
    const server = await startDisparoOn(dataDir, fresh?.url);
    const cookie = await login(server.url, seeded.username, seeded.password);

    const today = saoPauloDay(new Date());
    const period = `from=${addDays(today, -(DAYS - 1))}&to=${today}`;
    const endpoints = [
      { label: 'GET /api/metrics', path: '/api/metrics' },
      { label: 'GET /api/metrics/today', path: '/api/metrics/today' },
      { label: 'GET /api/metrics/analytics (90 days)', path: `/api/metrics/analytics?${period}` },
      { label: 'GET /api/metrics/report (90 days)', path: `/api/metrics/report?${period}` },
    ];
    // What the answers must say, from the rows themselves.
    const answers = {
      metrics: JSON.parse((await request(server.url, 'GET', '/api/metrics', { cookie })).body),
      report: JSON.parse((await request(server.url, 'GET', endpoints[3].path, { cookie })).body),
    };
    let wrong = 0;
    if (answers.metrics.messagesSent !== seeded.messagesSent) wrong++;
    if (answers.metrics.activeContacts !== seeded.activeContacts) wrong++;
    if (answers.report.series?.days?.length !== DAYS) wrong++;
    if (answers.report.recentCampaigns?.length !== 5 || answers.report.topCampaigns?.length !== 3) wrong++;
    console.log(
      `  /api/metrics: ${fmt(answers.metrics.messagesSent, 0)} sent, open rate ${answers.metrics.openRate} %, ` +
        `${fmt(answers.metrics.activeContacts, 0)} active contacts, response rate ${answers.metrics.responseRate} %`,
    );

    const checks = [];
    const info: Record<string, number | string> = {
      engine: fresh ? 'PostgreSQL' : 'PGlite',
      'recipient rows': seeded.recipients,
      requests,
      ...cost,
    };
    let errors = 0;
    for (const e of endpoints) {
      for (let i = 0; i < 20; i++) await request(server.url, 'GET', e.path, { cookie });
      const ms: number[] = [];
      for (let i = 0; i < requests; i++) {
        const t = performance.now();
        const res = await request(server.url, 'GET', e.path, { cookie });
        ms.push(performance.now() - t);
        if (res.status !== 200) errors++;
      }
      const s = summarize(ms);
      console.log(`  ${e.label}: p50 ${fmt(s.p50)} ms, p95 ${fmt(s.p95)} ms, max ${fmt(s.max)} ms`);
      checks.push(ceiling(`${e.label} p95 (1M recipient rows)`, s.p95, MAX_P95_MS, 'ms'));
      info[`${e.label} p95 ms`] = Number(s.p95.toFixed(2));
    }
    // 'Exportar PDF' of that report: the figures, then the document drawn on the server.
    const pdfMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const res = await request(server.url, 'GET', `/api/reports/pdf?${period}`, { cookie });
      pdfMs.push(performance.now() - t);
      if (res.status !== 200 || !res.body.startsWith('%PDF-')) errors++;
    }
    const pdf = summarize(pdfMs);
    console.log(`  GET /api/reports/pdf (90 days): median ${fmt(pdf.p50)} ms, max ${fmt(pdf.max)} ms`);
    checks.push(ceiling('report PDF, 90 days (max of 5)', pdf.max, MAX_PDF_MS, 'ms'));
    info['report PDF max ms'] = Number(pdf.max.toFixed(1));
    checks.push(ceiling('failed requests or wrong answers', errors + wrong, 1, ''));
    printChecks(checks);
    return { name, checks, info };
  } finally {
    await stopServer?.();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  }
}

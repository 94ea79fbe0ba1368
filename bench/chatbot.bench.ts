import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { chatbotSubscriber } from '../server/chatbot/pipeline';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/rows';
import { FakeDriver } from '../server/testing/fake-driver';
import type { OutgoingMessage } from '../server/whatsapp/driver';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: the chatbot's reply pipeline in one process, on the embedded database (or
 * `BENCH_DATABASE_URL`): from an inbound message to the reply handed to the driver, without the AI
 * call, with 1,000 keyword rules; one message at a time (latency), then a burst from 200 contacts
 * (throughput, each contact's order kept).
 */
export const name = 'chatbot';

const P99_MAX_MS = 5;
const RULES = 1000;

/** A driver that notes when each reply reaches it. */
class TimingDriver extends FakeDriver {
  readonly replies: Array<{ to: string; text: string; at: number }> = [];
  override async send(to: string, message?: OutgoingMessage) {
    this.replies.push({
      to,
      text: message?.kind === 'text' ? message.text : String(message?.kind),
      at: performance.now(),
    });
    return { providerMessageId: `bench-${this.replies.length}` };
  }
}

export async function run(): Promise<BenchResult> {
  const messages = envInt('BENCH_CHATBOT_MESSAGES', 1000, 100, 20_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-chatbot-'));
  const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir });
  try {
    await database.migrate();
    const { db } = database;
    const stamp = Date.now().toString(36);
    const [{ id: userId }] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into users (name, email, username, password_hash, account_type, plan_type, is_active)
        values ('Bench Bot', ${`bot-${stamp}@bench.local`}, ${`bot-${stamp}`}, 'x', 'active', 'premium', true)
        returning id`),
    );
    await db.execute(sql`insert into bot_configs (user_id, welcome_message) values (${userId}, '')`);
    // Its number, which the messages arrive on (its id is the account's, for brevity).
    await db.execute(
      sql`insert into connections (id, user_id, kind, label, is_default) values (${userId}, ${userId}, 'personal', 'Bench', true)`,
    );
    for (let i = 0; i < RULES; i += 250) {
      const values = Array.from({ length: 250 }, (_, k) => {
        const n = i + k;
        return sql`(${userId}, ${`produto ${n} tamanho ${n % 7}`}, ${`Resposta ${n}`}, ${n})`;
      });
      await db.execute(
        sql`insert into auto_replies (user_id, trigger, response, position) values ${sql.join(values, sql`, `)}`,
      );
    }
    const driver = new TimingDriver();
    const bot = chatbotSubscriber({
      db,
      log: pino({ level: 'silent' }),
      contactsChanged: () => {},
      ai: { available: false, reply: async () => null },
    });
    const contact = (i: number) => `5511987${String(100000 + (i % 200)).padStart(6, '0')}`;
    const inbound = (i: number, label: string) => ({
      from: contact(i),
      text: `Olá, qual o preço do PRODUTO ${(i * 37) % RULES} tamanho ${((i * 37) % RULES) % 7}?`,
      providerMessageId: `${label}-${i}`,
      timestamp: new Date(),
    });

    // Warm-up: contacts created, conversations started, rules compiled.
    for (let i = 0; i < 200; i++) bot.inbound?.({ userId, connectionId: userId, message: inbound(i, 'warm'), driver });
    await bot.idle();

    // Latency: one message at a time, inbound → reply handed to the driver.
    const samples: number[] = [];
    for (let i = 0; i < messages; i++) {
      const before = driver.replies.length;
      const t0 = performance.now();
      bot.inbound?.({ userId, connectionId: userId, message: inbound(i, 'lat'), driver });
      await bot.idle();
      const reply = driver.replies[before];
      if (!reply) throw new Error(`message ${i} got no reply`);
      samples.push(reply.at - t0);
    }
    const latency = summarize(samples);

    // Burst: every message at once from 200 contacts; each contact's replies must keep its order.
    const before = driver.replies.length;
    const t0 = performance.now();
    for (let i = 0; i < messages; i++)
      bot.inbound?.({ userId, connectionId: userId, message: inbound(i, 'burst'), driver });
    await bot.idle();
    const seconds = (performance.now() - t0) / 1000;
    const burst = driver.replies.slice(before);
    const expected = new Map<string, string[]>();
    for (let i = 0; i < messages; i++) {
      const m = inbound(i, 'burst');
      expected.set(m.from, [...(expected.get(m.from) ?? []), `Resposta ${(i * 37) % RULES}`]);
    }
    const got = new Map<string, string[]>();
    for (const r of burst) got.set(r.to, [...(got.get(r.to) ?? []), r.text]);
    const outOfOrder = [...expected].filter(([k, v]) => JSON.stringify(got.get(k)) !== JSON.stringify(v)).length;

    const checks = [
      ceiling(`inbound → reply handed to the driver, p99 (${RULES} rules)`, latency.p99, P99_MAX_MS, 'ms'),
      ceiling(
        'burst: messages not answered exactly once, in order per contact',
        outOfOrder + Math.abs(burst.length - messages),
        1,
        '',
      ),
    ];
    const info = {
      engine: process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite',
      'reply p50 ms': Number(latency.p50.toFixed(2)),
      'reply p95 ms': Number(latency.p95.toFixed(2)),
      'reply p99 ms': Number(latency.p99.toFixed(2)),
      'burst messages/s': Number((messages / seconds).toFixed(0)),
    };
    printChecks(checks);
    console.log(
      `  p50 ${fmt(latency.p50)} ms, p95 ${fmt(latency.p95)} ms; burst of ${messages} from 200 contacts: ${fmt(messages / seconds, 0)} msg/s`,
    );
    return { name, checks, info };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

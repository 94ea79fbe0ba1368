import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows';
import { databasePerFile } from '../testing/app-per-file';
import { FakeDriver } from '../testing/fake-driver';
import type { OutgoingMessage } from '../whatsapp/driver';
import { type ChatbotDeps, chatbotSubscriber } from './pipeline';
import { ContactTurns } from './turns';

/**
 * Two chatbot subscribers over one database stand for two server processes behind a load balancer
 * that alternates a contact's webhooks between them (on PGlite too: each has its own in-memory
 * queue, so only the turn in the database orders them).
 */
const database = databasePerFile();

const log = pino({ level: 'silent' });
const WELCOME = 'Bem-vindo à loja!';
const MESSAGES = 20;
/**
 * Arrival order is the order the tickets reach the database: arrivals closer than one statement's
 * latency have none. Each webhook here is sent once the previous one's ticket is taken, as webhooks
 * of one contact apart by more than a round trip are, however busy the machine is.
 */
async function ticketsTaken(userId: string, contact: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      select coalesce(max(next_ticket), 0)::int as n from chatbot_turns where user_id = ${userId} and contact = ${contact}`),
  );
  return row.n;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let seq = 0;
async function account(): Promise<string> {
  const n = `${process.pid}x${Date.now().toString(36)}x${seq++}`;
  const [user] = rowsOf<{ id: string }>(
    await database.db.execute(sql`
      insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
      values ('Loja', ${`turns${n}@example.com`}, ${`turns${n}`}, '+55 11 90000-0000', 'x', 'active', 'enterprise', true)
      returning id`),
  );
  await database.db.execute(sql`
    insert into bot_configs (user_id, is_enabled, welcome_message) values (${user.id}, true, ${WELCOME})`);
  // Its number: the tests' messages arrive on it (its id is the account's, for brevity).
  await database.db.execute(sql`
    insert into connections (id, user_id, kind, label, is_default) values (${user.id}, ${user.id}, 'personal', 'Loja', true)`);
  // A keyword rule per message: each reply tells which message it answers.
  for (let i = 1; i <= MESSAGES; i++) {
    await database.db.execute(sql`
      insert into auto_replies (user_id, trigger, response, position)
      values (${user.id}, ${`pedido ${i}`}, ${`resposta ${i}`}, ${i})`);
  }
  return user.id;
}

const newNumber = () => `5511${String(960000000 + ++seq).slice(-9)}`;
const textOf = (m: OutgoingMessage) => (m.kind === 'text' || m.kind === 'interactive' ? m.text : '');

/** What the contacts received, in the order the sends finished, and how many sends overlapped per contact. */
class Phones {
  readonly received = new Map<string, string[]>();
  readonly inFlight = new Map<string, number>();
  maxInFlight = 0;
  /** Sends to these numbers wait until released. */
  readonly held = new Map<string, Promise<void>>();

  driver(): FakeDriver {
    const driver = new FakeDriver();
    driver.send = async (to = '', message?: OutgoingMessage) => {
      const now = (this.inFlight.get(to) ?? 0) + 1;
      this.inFlight.set(to, now);
      this.maxInFlight = Math.max(this.maxInFlight, now);
      await (this.held.get(to) ?? sleep(5 + Math.random() * 35));
      this.inFlight.set(to, (this.inFlight.get(to) ?? 1) - 1);
      if (message) this.received.set(to, [...(this.received.get(to) ?? []), textOf(message)]);
      return { providerMessageId: `wamid.${Math.random().toString(36).slice(2)}` };
    };
    return driver;
  }
}

function processes(crossProcess: ChatbotDeps['crossProcess']) {
  const deps: ChatbotDeps = {
    db: database.db,
    log,
    contactsChanged: () => undefined,
    ai: { available: false, reply: async () => null },
    crossProcess,
  };
  return [chatbotSubscriber(deps), chatbotSubscriber(deps)] as const;
}

let messageSeq = 0;
function inbound(from: string, text: string, at: Date) {
  return { from, text, providerMessageId: `wamid.in.${++messageSeq}`, timestamp: at, pushName: 'Cliente' };
}

async function welcomes(userId: string, phone: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await database.db.execute(sql`
      select count(*)::int as n from bot_events where user_id = ${userId} and contact_phone = ${phone} and kind = 'welcome'`),
  );
  return row.n;
}

describe('one contact, two processes', () => {
  it("answers a contact's messages once each and in order when they alternate between processes", async () => {
    const userId = await account();
    const phones = new Phones();
    const subscribers = processes(true);
    const drivers = [phones.driver(), phones.driver()];
    const from = newNumber();
    const start = Date.now() - MESSAGES * 1000;
    for (let i = 1; i <= MESSAGES; i++) {
      const p = i % 2;
      subscribers[p].inbound?.({
        userId,
        connectionId: userId,
        message: inbound(from, `pedido ${i}`, new Date(start + i * 1000)),
        driver: drivers[p],
      });
      await expect.poll(() => ticketsTaken(userId, from), { interval: 5, timeout: 10_000 }).toBe(i);
    }
    await Promise.all(subscribers.map((s) => s.idle()));

    const expected = [WELCOME, ...Array.from({ length: MESSAGES }, (_, i) => `resposta ${i + 1}`)];
    expect(phones.received.get(from)).toEqual(expected);
    expect(phones.maxInFlight).toBe(1);
    expect(await welcomes(userId, from)).toBe(1);
    // Every message joined the conversation, and the turn is free again.
    const [stored] = rowsOf<{ n: number }>(
      await database.db.execute(sql`
        select count(*)::int as n from conversation_messages where user_id = ${userId} and phone = ${from} and direction = 'in'`),
    );
    expect(stored.n).toBe(MESSAGES);
    const [turn] = rowsOf<{ idle: boolean }>(
      await database.db.execute(sql`
        select serving > next_ticket as idle from chatbot_turns where user_id = ${userId} and contact = ${from}`),
    );
    expect(turn.idle).toBe(true);
  });

  it('keeps other contacts going while one holds its turn', async () => {
    const userId = await account();
    const phones = new Phones();
    const [a, b] = processes(true);
    const slow = newNumber();
    const other = newNumber();
    let letGo: () => void = () => undefined;
    phones.held.set(
      slow,
      new Promise<void>((resolve) => {
        letGo = resolve;
      }),
    );
    const now = new Date();
    a.inbound?.({ userId, connectionId: userId, message: inbound(slow, 'pedido 1', now), driver: phones.driver() });
    await expect.poll(() => phones.inFlight.get(slow)).toBe(1);
    b.inbound?.({ userId, connectionId: userId, message: inbound(slow, 'pedido 2', now), driver: phones.driver() });
    b.inbound?.({ userId, connectionId: userId, message: inbound(other, 'pedido 3', now), driver: phones.driver() });
    await expect.poll(() => phones.received.get(other)).toEqual([WELCOME, 'resposta 3']);
    // The slow contact's second message waits for its first, in the other process.
    expect(phones.inFlight.get(slow)).toBe(1);
    expect(phones.maxInFlight).toBe(1);
    letGo();
    phones.held.delete(slow);
    await Promise.all([a.idle(), b.idle()]);
    expect(phones.received.get(slow)).toEqual([WELCOME, 'resposta 1', 'resposta 2']);
  });

  it("goes on after a crashed process's turn lapses", async () => {
    const userId = await account();
    const phones = new Phones();
    const timings = { leaseMs: 300, grantMs: 300 };
    const [a] = processes({ timings });
    const from = newNumber();
    // A process took the contact's turn and died holding it.
    const crashed = await new ContactTurns(database.db, log, timings).take(userId, from);
    expect(crashed.held).toBe(true);
    a.inbound?.({
      userId,
      connectionId: userId,
      message: inbound(from, 'pedido 1', new Date()),
      driver: phones.driver(),
    });
    await a.idle();
    expect(phones.received.get(from)).toEqual([WELCOME, 'resposta 1']);
  });
});

describe('new conversations', () => {
  it('welcomes a new contact once when its first messages reach two processes at the same time', async () => {
    const userId = await account();
    const phones = new Phones();
    // Without the turn: the decision is made as each message is recorded.
    const [a, b] = processes(false);
    const numbers = Array.from({ length: 4 }, newNumber);
    const now = Date.now();
    for (const from of numbers) {
      a.inbound?.({
        userId,
        connectionId: userId,
        message: inbound(from, 'pedido 1', new Date(now)),
        driver: phones.driver(),
      });
      b.inbound?.({
        userId,
        connectionId: userId,
        message: inbound(from, 'pedido 2', new Date(now + 1)),
        driver: phones.driver(),
      });
    }
    await Promise.all([a.idle(), b.idle()]);
    for (const from of numbers) {
      expect(await welcomes(userId, from)).toBe(1);
      const got = phones.received.get(from) ?? [];
      expect(got.filter((t) => t === WELCOME)).toHaveLength(1);
      expect([...got].sort()).toEqual([WELCOME, 'resposta 1', 'resposta 2'].sort());
    }
  });
});

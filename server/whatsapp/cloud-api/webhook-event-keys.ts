import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { Foreground } from '../../lib/foreground';
import { MicroBatch } from '../../lib/micro-batch';

/** Event keys this process remembers, to answer a repeated delivery at once: so many, and so many bytes, at most. */
const RECENT_EVENT_KEYS = 100_000;
const RECENT_EVENT_KEY_BYTES = 16 * 1024 * 1024;
/** What one remembered key costs besides its characters (the Set's entry and the string's header). */
const KEY_OVERHEAD_BYTES = 80;

/**
 * The webhook events an account's numbers were given, so each is applied once however often Meta
 * repeats it: the keys taken lately, in this process's memory (bounded), and their lasting record
 * in `whatsapp_webhook_events`, the keys of one burst of webhooks in one statement.
 */
export class WebhookEventKeys {
  /** The event keys taken lately (`userId`, newline, key), oldest first. */
  private readonly recent = new Set<string>();
  private recentBytes = 0;
  private readonly batch = new MicroBatch<{ userId: string; keys: string[] }, Set<string>>((items) =>
    this.recordAll(items),
  );

  constructor(
    private readonly db: Db,
    /** The records wait behind webhooks still being answered, like the chatbot's statements. */
    private readonly foreground?: Foreground,
  ) {}

  /** False when this process has taken the event lately. */
  remember(userId: string, key: string): boolean {
    const id = `${userId}\n${key}`;
    if (this.recent.has(id)) return false;
    this.recent.add(id);
    this.recentBytes += keyBytes(id);
    while (this.recent.size > RECENT_EVENT_KEYS || this.recentBytes > RECENT_EVENT_KEY_BYTES) {
      const oldest = this.recent.values().next().value;
      if (oldest === undefined) break;
      this.forgetId(oldest);
    }
    return true;
  }

  /** An event that could not be recorded: a repeat of it is taken again. */
  forget(userId: string, key: string): void {
    this.forgetId(`${userId}\n${key}`);
  }

  private forgetId(id: string): void {
    if (this.recent.delete(id)) this.recentBytes -= keyBytes(id);
  }

  /** The memory of recent event keys, for tests and the bench. */
  get memory(): { keys: number; bytes: number } {
    return { keys: this.recent.size, bytes: this.recentBytes };
  }

  /** Records one webhook's event keys (with the others of its burst); answers those that are new. */
  record(userId: string, keys: string[]): Promise<Set<string>> {
    return this.batch.add({ userId, keys });
  }

  /**
   * Records the event keys of several webhooks at once; each webhook gets the keys that are new.
   * A key repeated within the burst (Meta delivering one event twice at once) goes to the first.
   */
  private async recordAll(items: Array<{ userId: string; keys: string[] }>): Promise<Array<Set<string>>> {
    const owner = new Map<string, number>();
    const users: string[] = [];
    const keys: string[] = [];
    items.forEach((item, i) => {
      for (const eventKey of item.keys) {
        const id = `${item.userId}\n${eventKey}`;
        if (owner.has(id)) continue;
        owner.set(id, i);
        users.push(item.userId);
        keys.push(eventKey);
      }
    });
    // Two array parameters whatever the burst's size: the query builder's per-value work was a
    // measurable share of a webhook's time on the one thread.
    const record = () =>
      this.db.execute(sql`
        insert into whatsapp_webhook_events (user_id, event_key)
        select * from unnest(${sql.param(users)}::uuid[], ${sql.param(keys)}::text[])
        on conflict do nothing
        returning user_id as "userId", event_key as "key"`);
    // Behind webhooks still being answered, like the chatbot's statements: the batch only grows.
    const fresh = rowsOf<{ userId: string; key: string }>(
      await (this.foreground ? this.foreground.background(record) : record()),
    );
    const out = items.map(() => new Set<string>());
    for (const f of fresh) {
      const i = owner.get(`${f.userId}\n${f.key}`);
      if (i !== undefined) out[i].add(f.key);
    }
    return out;
  }
}

/** Two bytes a character (UTF-16) and the entry's own cost. */
const keyBytes = (id: string) => id.length * 2 + KEY_OVERHEAD_BYTES;

import pg from 'pg';

/**
 * The change bus: what one process changes that others hold in memory (a session, a bot's rules, a
 * Cloud API token, cached counts) is announced here, and every process drops or reloads its copy.
 * On PostgreSQL it is `LISTEN/NOTIFY` on one channel (delivered in milliseconds, after the
 * publishing statement commits); on the embedded database, where one process runs, nobody else
 * listens. A subscriber hears the other processes' changes only: what this process changes, it
 * has already applied to its own memory where it made the change.
 *
 * A notification can be missed (the listening connection broke and came back): every `onReset`
 * handler then runs, and each drops everything it caches instead of trusting it.
 */
export interface ChangeBus {
  /**
   * Announces a change to the other processes; `key` names what changed (an account's id, mostly).
   * Throws only a `BusPayloadError`, for a key that makes the notification larger than
   * `BUS_PAYLOAD_MAX_BYTES` (nothing is sent): the bus carries ids, never data.
   */
  publish(topic: string, key: string): void;
  subscribe(topic: string, handler: (key: string) => void): () => void;
  /** Runs when notifications may have been missed: drop every cache. */
  onReset(handler: () => void): () => void;
  close(): Promise<void>;
}

type Handler = (key: string) => void;

/**
 * The largest notification the bus sends, in bytes: names and ids fit many times over, and
 * PostgreSQL's own limit (8,000 bytes) is never reached, where a refusal would only be logged
 * after the fact. `ConnectionRpc` cuts its commands to fit; anything larger is a mistake.
 */
export const BUS_PAYLOAD_MAX_BYTES = 7_000;
/** Room the bus's own header (the publishing process's id, the topic) takes within a notification, at most. */
export const BUS_HEADER_MAX_BYTES = 512;

/** A notification refused for its size: data was about to travel where only ids may. */
export class BusPayloadError extends Error {
  constructor(
    readonly topic: string,
    readonly bytes: number,
  ) {
    super(`change bus: a ${bytes}-byte notification on '${topic}' refused (at most ${BUS_PAYLOAD_MAX_BYTES})`);
    this.name = 'BusPayloadError';
  }
}

/** Refuses (reports, then throws) a notification over the limit, on every bus alike. */
function checkPayload(topic: string, payload: string, onError: (err: unknown) => void): void {
  // Cheap first: a string never takes more than 3 bytes per UTF-16 unit in UTF-8.
  if (payload.length * 3 <= BUS_PAYLOAD_MAX_BYTES) return;
  const bytes = Buffer.byteLength(payload);
  if (bytes <= BUS_PAYLOAD_MAX_BYTES) return;
  const err = new BusPayloadError(topic, bytes);
  onError(err);
  throw err;
}

/** A process alone on its database: nobody to tell. Also the subscribers' registry of PgBus. */
export class LocalBus implements ChangeBus {
  private readonly topics = new Map<string, Set<Handler>>();
  private readonly resets = new Set<() => void>();

  constructor(protected readonly onError: (err: unknown) => void = () => undefined) {}

  /** Sends nothing (nobody listens), but refuses what the other buses would: the same mistakes show alone. */
  publish(topic: string, key: string): void {
    checkPayload(topic, `${topic}\t${key}`, this.onError);
  }

  subscribe(topic: string, handler: Handler): () => void {
    let set = this.topics.get(topic);
    if (!set) {
      set = new Set();
      this.topics.set(topic, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  onReset(handler: () => void): () => void {
    this.resets.add(handler);
    return () => this.resets.delete(handler);
  }

  protected deliver(topic: string, key: string): void {
    for (const handler of this.topics.get(topic) ?? []) {
      try {
        handler(key);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  protected reset(): void {
    for (const handler of this.resets) {
      try {
        handler();
      } catch (err) {
        this.onError(err);
      }
    }
  }

  async close(): Promise<void> {}
}

/** The one channel every Disparo process on a database listens to. */
export const BUS_CHANNEL = 'disparo_changes';
/** How soon a broken listening connection is opened again. */
const RECONNECT_MS = 500;

/**
 * `LISTEN/NOTIFY` on PostgreSQL. One dedicated connection listens (a pooled one would lose its
 * LISTEN when handed back); notifications go out through the pool. Payload: `origin topic key`,
 * tab-separated; a process skips its own (delivered locally at publish).
 */
export class PgBus extends LocalBus {
  private client: pg.Client | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;
  /** Publications waiting for the pool, sent in order. */
  private sending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly opts: {
      connectionString: string;
      /** Sends one notification (the application pool). */
      notify: (channel: string, payload: string) => Promise<unknown>;
      /** This process's id, as the registry names it. */
      origin: string;
      onError?: (err: unknown) => void;
    },
  ) {
    super(opts.onError);
  }

  /** Opens the listening connection; resolves once LISTEN is in place. */
  start(): Promise<void> {
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connect(): Promise<void> {
    while (!this.closed) {
      const client = new pg.Client({ connectionString: this.opts.connectionString, connectionTimeoutMillis: 10_000 });
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client));
      client.on('notification', (n) => {
        if (n.channel === BUS_CHANNEL && n.payload) this.received(n.payload);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${BUS_CHANNEL}`);
        if (this.closed) {
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        return;
      } catch (err) {
        this.opts.onError?.(err);
        await client.end().catch(() => undefined);
        await new Promise((r) => setTimeout(r, RECONNECT_MS));
      }
    }
  }

  /** The listening connection is gone: what was announced meanwhile is lost, so every cache goes. */
  private lost(client: pg.Client, err?: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    if (err) this.opts.onError?.(err);
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.reset();
    setTimeout(() => {
      void this.start().then(() => this.reset());
    }, RECONNECT_MS).unref();
  }

  private received(payload: string): void {
    const [origin, topic, ...key] = payload.split('\t');
    if (origin === this.opts.origin || topic === undefined) return;
    // A key may hold tabs of its own.
    this.deliver(topic, key.join('\t'));
  }

  override publish(topic: string, key: string): void {
    const payload = `${this.opts.origin}\t${topic}\t${key}`;
    checkPayload(topic, payload, this.onError);
    this.sending = this.sending
      .then(() => this.opts.notify(BUS_CHANNEL, payload))
      .catch((err) => this.opts.onError?.(err));
  }

  /** Resolves when every publication so far has reached the database (tests, shutdown). */
  flushed(): Promise<unknown> {
    return this.sending;
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.sending;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

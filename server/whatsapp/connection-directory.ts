import { asc, eq, isNull } from 'drizzle-orm';
import type { ConnectionKind } from '../../contract/connections';
import { connectionLimitFor, connectionsMsg } from '../../contract/connections';
import { lockAccount } from '../db/account-lock';
import { acrossAccounts, ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { accountSettings, connections, users } from '../db/schema';
import { AppError } from '../errors';
import { ConnectionStore } from './connection-store';

/** One of an account's numbers, as the WhatsApp layer needs it (`connections` row, not removed). */
export type ConnectionEntry = typeof connections.$inferSelect;

/** Bus topic: an account's numbers changed (`userId`); every process reads them again. */
export const CONNECTIONS_TOPIC = 'connections';

/** So many accounts' lists are kept; past that the cache starts over (each list is one small query). */
const MAX_ACCOUNTS = 10_000;

/**
 * The accounts' numbers, read once and kept until they change (here or, through the bus, in another
 * process). Answers which number is an account's default, and which personal and Cloud number the
 * spec's single-number routes mean: the default when it is of that kind, else the oldest of that kind.
 */
export class ConnectionDirectory {
  private readonly byUser = new Map<string, Promise<ConnectionEntry[]>>();
  private readonly owners = new Map<string, string>();
  private readonly listeners: Array<(userId: string) => void> = [];

  constructor(
    private readonly db: Db,
    /** Tells the other processes an account's numbers changed (they call `forget`). */
    private readonly announce?: (userId: string) => void,
    /** The one writer of the rows (connection-store.ts): the directory reads, the store writes. */
    readonly store: ConnectionStore = new ConnectionStore(),
  ) {}

  /** The account's numbers, oldest first (removed ones left out). */
  list(userId: string): Promise<ConnectionEntry[]> {
    let pending = this.byUser.get(userId);
    if (!pending) {
      if (this.byUser.size >= MAX_ACCOUNTS) this.byUser.clear();
      pending = this.db
        .select()
        .from(connections)
        .where(ofAccount(connections, userId, isNull(connections.deletedAt)))
        .orderBy(asc(connections.createdAt), asc(connections.id))
        .then((rows) => {
          for (const row of rows) this.owners.set(row.id, row.userId);
          return rows;
        });
      pending.catch(() => {
        if (this.byUser.get(userId) === pending) this.byUser.delete(userId);
      });
      this.byUser.set(userId, pending);
    }
    return pending;
  }

  /** One of the account's numbers, or undefined when it is not the account's (or was removed). */
  async get(userId: string, connectionId: string): Promise<ConnectionEntry | undefined> {
    return (await this.list(userId)).find((c) => c.id === connectionId);
  }

  /** A number by its id alone (a driver event, a lease): undefined when removed or unknown. */
  async byId(connectionId: string): Promise<ConnectionEntry | undefined> {
    let userId = this.owners.get(connectionId);
    if (!userId) {
      // By the number's id, unique across accounts: the row names its account.
      const [row] = await this.db
        .select({ userId: connections.userId })
        .from(acrossAccounts(connections))
        .where(eq(connections.id, connectionId))
        .limit(1);
      if (!row) return undefined;
      userId = row.userId;
      if (this.owners.size >= MAX_ACCOUNTS * 4) this.owners.clear();
      this.owners.set(connectionId, userId);
    }
    return this.get(userId, connectionId);
  }

  async defaultOf(userId: string): Promise<ConnectionEntry | undefined> {
    const list = await this.list(userId);
    return list.find((c) => c.isDefault) ?? list[0];
  }

  /** The number the spec's routes of one kind mean: the default when of that kind, else the oldest of it. */
  async primary(userId: string, kind: ConnectionKind): Promise<ConnectionEntry | undefined> {
    const list = await this.list(userId);
    return list.find((c) => c.kind === kind && c.isDefault) ?? list.find((c) => c.kind === kind);
  }

  /**
   * The primary number of a kind, added when the account has none (the spec's connect and Cloud
   * API routes on an account that never had one) and its plan has room for it. It becomes the
   * default when the account has no default yet. Requests at once, on any process, add one number.
   */
  async ensurePrimary(
    userId: string,
    kind: ConnectionKind,
    values: Partial<typeof connections.$inferInsert> = {},
  ): Promise<{ entry: ConnectionEntry; created: boolean }> {
    const existing = await this.primary(userId, kind);
    if (existing) return { entry: existing, created: false };
    const label = kind === 'personal' ? connectionsMsg.defaultLabelPersonal : connectionsMsg.defaultLabelCloud;
    return this.add(userId, { kind, label, ...values }, true);
  }

  /**
   * Adds a number within the plan's limit (a pt-BR 403 over it); the account's first number (or
   * the first after its default was removed) is its default. The default flag and the account's
   * channel setting move together.
   */
  async insert(
    userId: string,
    values: Omit<typeof connections.$inferInsert, 'userId' | 'isDefault'>,
  ): Promise<ConnectionEntry> {
    return (await this.add(userId, values, false)).entry;
  }

  /**
   * The count, the default and the insert in one step under the account's lock, so concurrent adds
   * on any process never pass the limit nor make two defaults. With `reusePrimary`, a number of the
   * same kind added meanwhile is answered instead.
   */
  private async add(
    userId: string,
    values: Omit<typeof connections.$inferInsert, 'userId' | 'isDefault'>,
    reusePrimary: boolean,
  ): Promise<{ entry: ConnectionEntry; created: boolean }> {
    const result = await this.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await lockAccount(t, userId, 'connections');
      const live = await tx
        .select()
        .from(connections)
        .where(ofAccount(connections, userId, isNull(connections.deletedAt)))
        .orderBy(asc(connections.createdAt), asc(connections.id));
      if (reusePrimary) {
        const same =
          live.find((c) => c.kind === values.kind && c.isDefault) ?? live.find((c) => c.kind === values.kind);
        if (same) return { entry: same, created: false };
      }
      const [account] = await tx.select({ planType: users.planType }).from(users).where(eq(users.id, userId));
      const limit = connectionLimitFor(account?.planType ?? '');
      if (limit !== null && live.length >= limit) throw new AppError('FORBIDDEN', connectionsMsg.limitReached(limit));
      const hasDefault = live.some((c) => c.isDefault);
      const inserted = await this.store.create(t, { ...values, userId, isDefault: !hasDefault });
      if (!hasDefault) await syncChannel(t, userId, inserted.kind);
      return { entry: inserted, created: true };
    });
    if (result.created) this.changed(userId);
    return result;
  }

  /**
   * Takes back a number this request has just added and nothing uses yet (its credentials were
   * refused after it was added): the row goes, as if it had never been.
   */
  async discard(userId: string, connectionId: string): Promise<void> {
    await this.store.discard(this.db, userId, connectionId);
    this.changed(userId);
  }

  /** Makes a number the account's default (and the account's channel its kind). */
  async makeDefault(userId: string, connectionId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Behind any add or other change of default of the account (one default at a time).
      const t = tx as unknown as Db;
      await lockAccount(t, userId, 'connections');
      const kind = await this.store.setDefault(t, userId, connectionId);
      if (kind) await syncChannel(t, userId, kind);
    });
    this.changed(userId);
  }

  /** The account's channel setting changed: its primary number of that kind becomes the default, when it has one. */
  async channelChosen(userId: string, kind: ConnectionKind): Promise<void> {
    const target = await this.primary(userId, kind);
    if (target && !target.isDefault) await this.makeDefault(userId, target.id);
  }

  /** Something about a number changed (label, state, settings…): every process reads the account again. */
  changed(userId: string): void {
    this.forget(userId);
    this.announce?.(userId);
  }

  /** Another process changed the account's numbers. */
  forget(userId: string): void {
    this.byUser.delete(userId);
    for (const listener of this.listeners) listener(userId);
  }

  /** Notifications may have been missed: every list is read again. */
  forgetAll(): void {
    const users = [...this.byUser.keys()];
    this.byUser.clear();
    for (const userId of users) for (const listener of this.listeners) listener(userId);
  }

  /** Calls `listener` with an account whose numbers changed. */
  onChange(listener: (userId: string) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

/** The account's channel setting follows its default number's kind (what a spec-only client reads). */
async function syncChannel(db: Db, userId: string, kind: ConnectionKind): Promise<void> {
  await db
    .insert(accountSettings)
    .values({ userId, channel: kind })
    .onConflictDoUpdate({ target: accountSettings.userId, set: { channel: kind, updatedAt: new Date() } });
}

import { eq, isNull, sql } from 'drizzle-orm';
import type { ConnectionKind, ConnectionSettings, ConnectionStopReason } from '../../contract/connections';
import { acrossAccounts, ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { connections } from '../db/schema';

type ConnectionRow = typeof connections.$inferSelect;

/** What a number's owner may change in its row (the "Números" API's update). */
export interface ConnectionChanges {
  label?: string;
  paused?: boolean;
  botEnabled?: boolean;
  settings?: ConnectionSettings;
}

/**
 * The one writer of the `connections` table: every insert, update and delete of a number's row
 * is one of these named operations. Each takes the `Db` to run on, so a caller inside a
 * transaction (and behind the account's lock, db/account-lock.ts) passes its transaction and
 * keeps both; each is one statement. Reads stay with their readers (ConnectionDirectory, the
 * engines' queries). Telling the processes that a number changed is the caller's.
 *
 * The operations given only a number's id (`acrossAccounts`) find it by that id, unique across
 * accounts: the id comes from a row already read as the account's (ConnectionDirectory) or from
 * the number's own driver.
 */
export class ConnectionStore {
  /** A new number of the account (the caller has counted and chosen its default under the account's lock). */
  async create(
    db: Db,
    values: Omit<typeof connections.$inferInsert, 'userId' | 'isDefault'> & { userId: string; isDefault: boolean },
  ): Promise<ConnectionRow> {
    const [row] = await db.insert(connections).values(values).returning();
    return row;
  }

  /** Takes back a row just added that nothing uses yet. */
  async discard(db: Db, userId: string, connectionId: string): Promise<void> {
    await db.delete(connections).where(ofAccount(connections, userId, eq(connections.id, connectionId)));
  }

  /**
   * Makes one of the account's numbers (not removed) its default, the former default no longer
   * one; answers the new default's kind, or undefined when the number is not there.
   */
  async setDefault(db: Db, userId: string, connectionId: string): Promise<ConnectionKind | undefined> {
    await db
      .update(connections)
      .set({ isDefault: false, updatedAt: new Date() })
      .where(ofAccount(connections, userId, eq(connections.isDefault, true)));
    const [row] = await db
      .update(connections)
      .set({ isDefault: true, updatedAt: new Date() })
      .where(ofAccount(connections, userId, eq(connections.id, connectionId), isNull(connections.deletedAt)))
      .returning({ kind: connections.kind });
    return row?.kind;
  }

  /** The owner's changes: label, pause, the chatbot, the number's own settings. */
  async update(db: Db, connectionId: string, changes: ConnectionChanges): Promise<void> {
    if (!Object.keys(changes).length) return;
    await db
      .update(acrossAccounts(connections))
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(connections.id, connectionId));
  }

  /** A Cloud number's display phone number, as the Graph API gave it. */
  async setPhoneNumber(db: Db, connectionId: string, phoneNumber: string): Promise<void> {
    await db.update(acrossAccounts(connections)).set({ phoneNumber }).where(eq(connections.id, connectionId));
  }

  /** Removed by its owner: out of the list, no longer the default nor restored; the row stays for reports. */
  async remove(db: Db, connectionId: string): Promise<void> {
    await db
      .update(acrossAccounts(connections))
      .set({ deletedAt: new Date(), isDefault: false, active: false, updatedAt: new Date() })
      .where(eq(connections.id, connectionId));
  }

  /** A personal number starts pairing with this driver: it is restored at start-up from now on. */
  async recordPairing(db: Db, connectionId: string, driver: 'baileys' | 'simulator'): Promise<void> {
    await db
      .update(acrossAccounts(connections))
      .set({ active: true, driver, loggedOutAt: null, updatedAt: new Date() })
      .where(eq(connections.id, connectionId));
  }

  /** A personal number's device reported its phone number: it is linked. */
  async recordLinked(db: Db, connectionId: string, phoneNumber: string): Promise<void> {
    await db
      .update(acrossAccounts(connections))
      .set({ phoneNumber, loggedOutAt: null, updatedAt: new Date() })
      .where(eq(connections.id, connectionId));
  }

  /**
   * A personal number is no longer connected nor restored at start-up; `unlinked` when the device
   * was unlinked from the phone (not by this server), so that it needs a new QR code.
   */
  async recordDisconnected(db: Db, connectionId: string, opts: { unlinked: boolean }): Promise<void> {
    await db
      .update(acrossAccounts(connections))
      .set({
        active: false,
        phoneNumber: null,
        updatedAt: new Date(),
        ...(opts.unlinked ? { loggedOutAt: new Date() } : {}),
      })
      .where(eq(connections.id, connectionId));
  }

  /** Why the number's lane sends nothing now; answers whether that is a new reason. */
  async recordStop(db: Db, connectionId: string, reason: ConnectionStopReason): Promise<boolean> {
    const rows = rowsOf(
      await db.execute(sql`
        update connections set stop_reason = ${reason}, stopped_at = now()
        where id = ${connectionId} and stop_reason is distinct from ${reason}
        returning id`),
    );
    return rows.length > 0;
  }

  /** The number's lane can send again; answers whether it had a stop reason. */
  async clearStop(db: Db, connectionId: string): Promise<boolean> {
    const rows = rowsOf(
      await db.execute(sql`
        update connections set stop_reason = null, stopped_at = null
        where id = ${connectionId} and stop_reason is not null returning id`),
    );
    return rows.length > 0;
  }

  /**
   * WhatsApp restricted the number (its code and when), or refused its credentials (`auth`: it is
   * logged out, any restriction kept as it was).
   */
  async recordRestriction(db: Db, connectionId: string, code: string): Promise<void> {
    await db.execute(sql`
      update connections set
        restricted_code = ${code === 'auth' ? null : code},
        restricted_at = ${code === 'auth' ? sql`restricted_at` : sql`now()`},
        logged_out_at = ${code === 'auth' ? sql`now()` : sql`logged_out_at`}
      where id = ${connectionId}`);
  }

  /**
   * Forgets the number's restriction (and why its lane stopped, when that was it). Answers whether
   * there was one, as the row says (not a cache: one just recorded by another process goes too).
   */
  async clearRestriction(db: Db, connectionId: string): Promise<boolean> {
    const rows = rowsOf(
      await db.execute(sql`
        update connections set
          restricted_code = null,
          restricted_at = null,
          stopped_at = case when stop_reason = 'restricted' then null else stopped_at end,
          stop_reason = nullif(stop_reason, 'restricted'),
          updated_at = now()
        where id = ${connectionId}
          and (restricted_at is not null or restricted_code is not null or stop_reason = 'restricted')
        returning id`),
    );
    return rows.length > 0;
  }
}

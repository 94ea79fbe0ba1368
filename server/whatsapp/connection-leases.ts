import { type SQL, sql } from 'drizzle-orm';
import type { WhatsappSession } from '../../contract/whatsapp';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/** What the leases need of the process registry (server/cluster/process-registry.ts). */
export interface LeaseHolder {
  readonly id: string;
  /** SQL: the ids of the processes still beating. */
  liveIds(): SQL;
}

/** How long a lease lasts without renewal; the holder renews it every few seconds. */
export const DEFAULT_LEASE_MS = 30_000;

const list = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * The `whatsapp_connection_leases` rows: which live process holds each personal number (only
 * the holder opens its socket), and the connection's state as the holder last published it.
 * A lease is free when it was released (`lease_until` null), lapsed, or its holder stopped beating.
 */
export class ConnectionLeases {
  constructor(
    private readonly db: Db,
    private readonly holder: LeaseHolder,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  private until() {
    return sql`now() + ${`${this.leaseMs} milliseconds`}::interval`;
  }

  /** Takes (or keeps) the lease of a connection; false when a live process holds it. One statement. */
  async acquire(connectionId: string, userId: string): Promise<boolean> {
    const rows = rowsOf(
      await this.db.execute(sql`
        insert into whatsapp_connection_leases (connection_id, user_id, owner, lease_until)
        values (${connectionId}, ${userId}, ${this.holder.id}, ${this.until()})
        on conflict (connection_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
        where whatsapp_connection_leases.lease_until is null
           or whatsapp_connection_leases.lease_until < now()
           or whatsapp_connection_leases.owner is null
           or whatsapp_connection_leases.owner = excluded.owner
           or whatsapp_connection_leases.owner not in (${this.holder.liveIds()})
        returning connection_id`),
    );
    return rows.length > 0;
  }

  /** The live process holding a connection's lease, or null when it is free. */
  async owner(connectionId: string): Promise<string | null> {
    const rows = rowsOf<{ owner: string }>(
      await this.db.execute(sql`
        select owner from whatsapp_connection_leases
        where connection_id = ${connectionId} and owner is not null and lease_until is not null and lease_until >= now()
          and owner in (${this.holder.liveIds()})`),
    );
    return rows[0]?.owner ?? null;
  }

  /** Renews the leases this process holds; answers the ones it still holds (the others went to someone else). */
  async renew(connectionIds: readonly string[]): Promise<Set<string>> {
    if (!connectionIds.length) return new Set();
    const rows = rowsOf<{ connection_id: string }>(
      await this.db.execute(sql`
        update whatsapp_connection_leases set lease_until = ${this.until()}
        where owner = ${this.holder.id} and connection_id in (${list(connectionIds)})
        returning connection_id`),
    );
    return new Set(rows.map((r) => r.connection_id));
  }

  /** Frees leases this process holds (its sockets are closed): the next owner may connect at once. */
  async release(connectionIds: readonly string[]): Promise<void> {
    if (!connectionIds.length) return;
    await this.db.execute(sql`
      update whatsapp_connection_leases set lease_until = null
      where owner = ${this.holder.id} and connection_id in (${list(connectionIds)})`);
  }

  /** Records the state the holder publishes (only while it holds the lease). */
  async writeState(connectionId: string, state: WhatsappSession): Promise<void> {
    await this.db.execute(sql`
      update whatsapp_connection_leases set state = ${JSON.stringify(state)}, state_at = now()
      where connection_id = ${connectionId} and owner = ${this.holder.id}`);
  }

  /** The states of the connections held by live processes (at start, and when the bus lost notifications). */
  async liveStates(): Promise<Array<{ connectionId: string; userId: string; state: WhatsappSession }>> {
    const rows = rowsOf<{ connection_id: string; user_id: string; state: string }>(
      await this.db.execute(sql`
        select connection_id, user_id, state from whatsapp_connection_leases
        where state is not null and owner in (${this.holder.liveIds()})`),
    );
    const out: Array<{ connectionId: string; userId: string; state: WhatsappSession }> = [];
    for (const row of rows) {
      const state = parseState(row.state);
      if (state) out.push({ connectionId: row.connection_id, userId: row.user_id, state });
    }
    return out;
  }

  /**
   * Saved connections (still active) whose lease is free: their holder died, drained or let the
   * lease lapse. A survivor that owns one by rendezvous takes it over.
   */
  async orphans(): Promise<Array<{ connectionId: string; userId: string; driver: 'baileys' | 'simulator' }>> {
    return rowsOf<{ connectionId: string; userId: string; driver: 'baileys' | 'simulator' }>(
      await this.db.execute(sql`
        select c.id as "connectionId", c.user_id as "userId", c.driver from connections c
        join whatsapp_connection_leases l on l.connection_id = c.id
        where c.kind = 'personal' and c.active and c.deleted_at is null and c.driver is not null and (l.owner is null or l.lease_until is null or l.lease_until < now()
          or l.owner not in (${this.holder.liveIds()}))`),
    );
  }
}

/** A state as published (JSON of the registry's shape), or null when it is not one. */
export function parseState(json: string): WhatsappSession | null {
  try {
    const s = JSON.parse(json) as WhatsappSession;
    if (s && typeof s === 'object' && typeof s.state === 'string' && typeof s.isConnected === 'boolean') {
      return { phoneNumber: s.phoneNumber ?? null, isConnected: s.isConnected, state: s.state, qr: s.qr ?? null };
    }
  } catch {
    // not a state
  }
  return null;
}

import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

/**
 * Lanes: one per number (`connections.id`) with work, held by one process at a time through a
 * lease row in `sending_lanes` (renewed while it sends; another process takes the lane over once
 * the lease lapses). The row also keeps the number's pacing: when its next message may go, and its
 * warm-up.
 */

/** How long a lane stays with its process without renewal; another process takes over after this. */
export const DEFAULT_LEASE_MS = 30_000;

/** A lane as its holder reads it when it takes it. */
export interface LaneState {
  nextSendAt: Date;
  warmupStartedAt: Date | null;
  lastSentAt: Date | null;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const interval = (ms: number) => `${Math.round(ms)} milliseconds`;

export class Lanes {
  constructor(
    private readonly db: Db,
    /** This process, as lease rows name it. */
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /** Takes (or keeps) a number's lane; null while another process holds it. */
  async acquire(connectionId: string, userId: string): Promise<LaneState | null> {
    const [row] = rowsOf<{
      next_send_at: string | Date;
      warmup_started_at: string | Date | null;
      last_sent_at: string | Date | null;
    }>(
      await this.db.execute(sql`
        insert into sending_lanes (connection_id, user_id, owner, lease_until)
        values (${connectionId}, ${userId}, ${this.owner}, now() + ${interval(this.leaseMs)}::interval)
        on conflict (connection_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
        where sending_lanes.owner = excluded.owner or sending_lanes.lease_until is null or sending_lanes.lease_until < now()
        returning next_send_at, warmup_started_at, last_sent_at
      `),
    );
    if (!row) return null;
    const date = (v: string | Date | null) => (v === null ? null : new Date(v));
    return {
      nextSendAt: new Date(row.next_send_at),
      warmupStartedAt: date(row.warmup_started_at),
      lastSentAt: date(row.last_sent_at),
    };
  }

  /** Extends this process's lease; false when the lane is no longer its own. */
  async renew(connectionId: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      update sending_lanes set lease_until = now() + ${interval(this.leaseMs)}::interval
      where connection_id = ${connectionId} and owner = ${this.owner}
      returning connection_id
    `);
    return rowsOf(result).length > 0;
  }

  async release(connectionId: string): Promise<void> {
    await this.db.execute(
      sql`update sending_lanes set lease_until = null where connection_id = ${connectionId} and owner = ${this.owner}`,
    );
  }

  /** Lets every lane of this process go (at stop). */
  async releaseAll(): Promise<void> {
    await this.db.execute(sql`update sending_lanes set lease_until = null where owner = ${this.owner}`);
  }

  /** Lanes held by processes not in `live` (a subquery of the live ids) are free at once; answers how many. */
  async freeDead(live: SQL): Promise<number> {
    const result = await this.db.execute(sql`
      update sending_lanes set lease_until = null
      where lease_until is not null and owner is not null and owner not in (${live})
      returning connection_id`);
    return rowsOf(result).length;
  }

  /** The only process on the database: every lane's holder is gone. */
  async freeEveryLane(): Promise<void> {
    await this.db.execute(sql`update sending_lanes set lease_until = null`);
  }

  /** A personal number's turn went to a check, not a send: the next turn comes after `gapMs`. */
  async nextTurnIn(connectionId: string, gapMs: number): Promise<void> {
    await this.db.execute(sql`
      update sending_lanes set next_send_at = now() + ${interval(gapMs)}::interval
      where connection_id = ${connectionId} and owner = ${this.owner}`);
  }

  /**
   * A personal number sent: its next turn comes after `gapMs`, and its warm-up starts now when it
   * never sent or sat idle for 72 hours.
   */
  async sentPersonal(connectionId: string, gapMs: number): Promise<void> {
    await this.db.execute(sql`
      update sending_lanes set
        next_send_at = now() + ${interval(gapMs)}::interval,
        warmup_started_at = case
          when warmup_started_at is null or last_sent_at is null or last_sent_at < now() - interval '72 hours' then now()
          else warmup_started_at end,
        last_sent_at = now()
      where connection_id = ${connectionId} and owner = ${this.owner}
    `);
  }

  /** A Cloud API number sent. */
  async sentCloud(connectionId: string): Promise<void> {
    await this.db.execute(
      sql`update sending_lanes set last_sent_at = now() where connection_id = ${connectionId} and owner = ${this.owner}`,
    );
  }

  /** Sleeps in short steps, renewing the lane's lease; false when stopped or the lease was lost. */
  async sleepHolding(connectionId: string, ms: number, stopped: () => boolean): Promise<boolean> {
    const end = Date.now() + ms;
    while (!stopped()) {
      const left = end - Date.now();
      if (left <= 0) return true;
      await sleep(Math.min(left, this.leaseMs / 3, 1000));
      if (!(await this.renew(connectionId))) return false;
    }
    return false;
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';

export interface RegistryOptions {
  /** How often this process beats. */
  beatMs?: number;
  /** A process whose last beat is older than this is dead for everyone. */
  deadAfterMs?: number;
  /** This process's id (tests name their processes); by default host:pid:random. */
  id?: string;
  onError?: (err: unknown) => void;
}

/**
 * Rendezvous (highest random weight) hashing: the member with the highest hash of (member, key).
 * Every process computes the same owner from the same list; adding or removing a member moves only
 * the keys it wins or held. Null for an empty list.
 */
export function rendezvousOwner(members: readonly string[], key: string): string | null {
  let best: string | null = null;
  let bestScore = -1n;
  for (const member of members) {
    const score = createHash('sha1').update(member).update('\0').update(key).digest().readBigUInt64BE(0);
    if (score > bestScore) {
      bestScore = score;
      best = member;
    }
  }
  return best;
}

export const DEFAULT_BEAT_MS = 2_000;
export const DEFAULT_DEAD_AFTER_MS = 10_000;
/** Rows of processes dead this long are deleted (kept a while to explain a takeover). */
const FORGET_AFTER = '1 hour';

/**
 * The live processes on the database. Each process holds a row in `server_processes` and beats
 * every `beatMs`; one that stops beating for `deadAfterMs` is dead for everyone, and what it held
 * (lanes, claimed rows, connections) is taken over. A draining process (SIGTERM) still beats but
 * takes no new work.
 *
 * Work is shared by rendezvous hashing: the owner of a key (an account's lane, a connection) is
 * the live, non-draining process with the highest hash of (process, key). Every process computes
 * the same owner from the same list, a new process takes its fair share, and a death moves only
 * the dead one's keys.
 */
export class ProcessRegistry {
  readonly id: string;
  private readonly beatMs: number;
  private readonly deadAfterMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;
  /** Live processes that take work, sorted, from the last beat (this one included while joined). */
  private members: string[] = [];
  private joined = false;
  private draining = false;
  private readonly listeners = new Set<(members: string[], gone: string[]) => void>();

  constructor(
    private readonly db: Db,
    private readonly opts: RegistryOptions = {},
  ) {
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.beatMs = opts.beatMs ?? DEFAULT_BEAT_MS;
    this.deadAfterMs = opts.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS;
  }

  get isJoined(): boolean {
    return this.joined;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** The dead-after window as SQL, for queries that look for the holders of leases. */
  deadAfterSql() {
    return sql`${`${this.deadAfterMs} milliseconds`}::interval`;
  }

  /** SQL: the ids of the processes still beating (draining ones included: they hand over themselves). */
  liveIds(): SQL {
    return sql`select id from server_processes where heartbeat_at > now() - ${this.deadAfterSql()}`;
  }

  /** Inserts this process's row and starts beating. */
  async join(): Promise<void> {
    if (this.joined) return;
    await this.db.execute(sql`
      insert into server_processes (id, host, pid) values (${this.id}, ${hostname()}, ${process.pid})
      on conflict (id) do update set heartbeat_at = now(), draining = false`);
    this.joined = true;
    await this.refresh();
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (!this.joined) return;
    this.timer = setTimeout(() => {
      this.beating = this.beat()
        .catch((err) => this.opts.onError?.(err))
        .finally(() => {
          this.beating = null;
          this.schedule();
        });
    }, this.beatMs);
    this.timer.unref();
  }

  /** One beat: this process's row is renewed (re-inserted if another process removed it), the list read. */
  async beat(): Promise<void> {
    if (!this.joined) return;
    const renewed = rowsOf(
      await this.db.execute(sql`
        update server_processes set heartbeat_at = now(), draining = ${this.draining}
        where id = ${this.id} returning id`),
    );
    if (!renewed.length) {
      await this.db.execute(sql`
        insert into server_processes (id, host, pid, draining) values (${this.id}, ${hostname()}, ${process.pid}, ${this.draining})
        on conflict (id) do update set heartbeat_at = now()`);
    }
    await this.refresh();
  }

  /** Reads the live list now (another process announced it joined or is draining). */
  async refresh(): Promise<void> {
    const rows = rowsOf<{ id: string }>(
      await this.db.execute(sql`
        select id from server_processes
        where heartbeat_at > now() - ${this.deadAfterSql()} and not draining
        order by id`),
    );
    const next = rows.map((r) => r.id);
    if (this.joined && !this.draining && !next.includes(this.id)) next.push(this.id);
    next.sort();
    const gone = this.members.filter((id) => !next.includes(id));
    const changed =
      gone.length > 0 || next.length !== this.members.length || next.some((id, i) => id !== this.members[i]);
    this.members = next;
    if (changed) for (const listener of this.listeners) listener(next, gone);
  }

  /** Runs when the live list changes: who is live now, who left since. */
  onChange(listener: (members: string[], gone: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The live processes that take work, as last read. */
  live(): readonly string[] {
    return this.members;
  }

  /** The process that should hold `key`; this one when it knows no other (not joined yet). */
  ownerOf(key: string): string {
    return rendezvousOwner(this.members, key) ?? this.id;
  }

  owns(key: string): boolean {
    return !this.draining && this.ownerOf(key) === this.id;
  }

  /** Stops taking work: every other process stops giving this one a share at its next read. */
  async drain(): Promise<void> {
    this.draining = true;
    this.members = this.members.filter((id) => id !== this.id);
    if (!this.joined) return;
    await this.db.execute(sql`update server_processes set draining = true where id = ${this.id}`);
  }

  /** Leaves the registry (at exit): the row goes, so nobody waits for it to go quiet. */
  async leave(): Promise<void> {
    if (!this.joined) return;
    this.joined = false;
    clearTimeout(this.timer);
    await this.beating;
    await this.db.execute(sql`delete from server_processes where id = ${this.id}`);
    await this.db.execute(sql`delete from server_processes where heartbeat_at < now() - ${FORGET_AFTER}::interval`);
  }
}

import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { rowsOf } from '../db/rows';
import { type AnyJobDefinition, type JobDefinition, PermanentJobError } from './define';

export interface EnqueueOptions {
  /** When the job is due (default: now). */
  runAt?: Date;
  /** Due this long from now (the database's now). */
  delayMs?: number;
  /** At most one unfinished job per key: a second enqueue while one is queued or running does nothing. */
  dedupeKey?: string;
  /** The account the job works for. */
  accountId?: string;
}

export interface JobRunnerOptions {
  db: Db;
  /** This process's id in the process registry: the jobs it claims carry it. */
  processId: string;
  /** Jobs run at once by this process (default 4). */
  concurrency?: number;
  /** Looks for due jobs this often when nothing wakes it (default 1 s). */
  pollMs?: number;
  /** A claimed job is this process's for this long, renewed while it runs (default 60 s). */
  leaseMs?: number;
  /** On stop, in-flight jobs get this long to finish before their leases are released (default 10 s). */
  stopGraceMs?: number;
  onError?: (err: unknown, job?: { id: string; name: string }) => void;
}

interface ClaimedRow {
  id: string;
  name: string;
  payload: unknown;
  attempts: number;
}

/** An unfinished job's state, as the owner of its dedupe key sees it. */
export interface JobStatus {
  state: 'queued' | 'running' | 'done' | 'dead';
  lastError: string | null;
}

const UNFINISHED = sql`state in ('queued', 'running')`;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2_000);

/**
 * Runs the jobs table's due rows on this process (docs/decisions/030-jobs-table.md, 041). A job is
 * claimed with FOR UPDATE SKIP LOCKED under a lease carrying this process's id, so several
 * processes on PostgreSQL never run one job at once; a lease that lapses (a crashed process) makes
 * the job claimable again. A failed run is retried after the definition's backoff until it used its
 * attempts, then kept `dead` with its error for the administrator. The same SQL runs on PGlite.
 */
export class JobRunner {
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  private readonly db: Db;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly stopGraceMs: number;
  private readonly inFlight = new Map<string, { attempt: number; done: Promise<void> }>();
  private abort = new AbortController();
  private started = false;
  private stopping = false;
  private ticking: Promise<void> | null = null;
  private again = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private soonTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private dueTimer: NodeJS.Timeout | undefined;
  /** When jobs enqueued here fall due (a wake each, not the next poll). */
  private dueTimes: number[] = [];

  constructor(private readonly opts: JobRunnerOptions) {
    this.db = opts.db;
    this.concurrency = opts.concurrency ?? 4;
    this.pollMs = opts.pollMs ?? 1_000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.stopGraceMs = opts.stopGraceMs ?? 10_000;
  }

  /** Makes this process run the definition's jobs. A name is registered once. */
  register(...definitions: AnyJobDefinition[]): void {
    for (const definition of definitions) {
      const known = this.definitions.get(definition.name);
      if (known && known !== definition) throw new Error(`job ${definition.name} is already registered`);
      this.definitions.set(definition.name, definition);
    }
    if (this.started) void this.ensureChores().then(() => this.wake());
  }

  has(name: string): boolean {
    return this.definitions.has(name);
  }

  /**
   * Writes a job in the caller's transaction (or straight to `db`): it exists only if that
   * transaction commits. The payload is checked against the definition's schema. Answers the
   * job's id, or null when an unfinished job already holds the dedupe key.
   */
  async enqueue<T>(
    tx: Db,
    definition: JobDefinition<T>,
    payload: T,
    opts: EnqueueOptions = {},
  ): Promise<string | null> {
    const id = await insertJob(tx, definition, payload, opts);
    if (id) {
      this.wake();
      const delay = opts.runAt ? opts.runAt.getTime() - Date.now() : (opts.delayMs ?? 0);
      if (delay > 0) this.wakeIn(delay);
    }
    return id;
  }

  /**
   * Removes the unfinished job holding the key. A running one's handler finds out through
   * `ctx.cancelled()` before it acts, and its end changes nothing. Answers whether there was one.
   */
  async cancel(tx: Db, dedupeKey: string): Promise<boolean> {
    const rows = rowsOf(
      await tx.execute(sql`delete from jobs where dedupe_key = ${dedupeKey} and ${UNFINISHED} returning id`),
    );
    return rows.length > 0;
  }

  /** Removes the finished (`done`) jobs of a key: answers how many there were. */
  async takeDone(tx: Db, dedupeKey: string): Promise<number> {
    return rowsOf(
      await tx.execute(sql`delete from jobs where dedupe_key = ${dedupeKey} and state = 'done' returning id`),
    ).length;
  }

  /** Removes the dead jobs of a key, once their owner has told the account why: answers how many. */
  async takeDead(tx: Db, dedupeKey: string): Promise<number> {
    return rowsOf(
      await tx.execute(sql`delete from jobs where dedupe_key = ${dedupeKey} and state = 'dead' returning id`),
    ).length;
  }

  /**
   * Puts a dead job back in the queue, due now with its attempts reset (the administrator's retry).
   * Answers false when there is no such dead job, or when an unfinished job already holds its key.
   */
  async retry(tx: Db, id: string): Promise<boolean> {
    // Two dead jobs of one key retried at once: the unique index lets one back, the other is refused.
    const rows = rowsOf(
      await tx
        .execute(sql`
        update jobs set state = 'queued', attempts = 0, run_at = now(), finished_at = null,
          claimed_by = null, lease_until = null
        where id = ${id} and state = 'dead'
          and (dedupe_key is null or not exists (
            select 1 from jobs other where other.dedupe_key = jobs.dedupe_key and other.state in ('queued', 'running')))
        returning id`)
        .catch((err) => {
          if (isUniqueViolation(err, 'jobs_dedupe_key_idx')) return { rows: [] };
          throw err;
        }),
    );
    if (rows.length) this.wake();
    return rows.length > 0;
  }

  /** The newest job of a key, finished or not; null when there is none. */
  async status(db: Db, dedupeKey: string): Promise<JobStatus | null> {
    const [row] = rowsOf<{ state: JobStatus['state']; last_error: string | null }>(
      await db.execute(sql`
        select state, last_error from jobs where dedupe_key = ${dedupeKey}
        order by (state in ('queued', 'running')) desc, created_at desc limit 1`),
    );
    return row ? { state: row.state, lastError: row.last_error } : null;
  }

  /** Starts claiming: the recurring chores get their queued row, then due jobs run. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.abort = new AbortController();
    await this.ensureChores();
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
    this.wake();
  }

  /**
   * Stops claiming; in-flight handlers are told (their signal) and get the grace to finish, then
   * the leases of those still running are released so another process takes them at once.
   */
  async stop(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.soonTimer);
    clearTimeout(this.dueTimer);
    this.dueTimes = [];
    clearInterval(this.renewTimer);
    this.abort.abort(new Error('stopping'));
    await this.ticking;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.stopGraceMs);
    });
    await Promise.race([Promise.all([...this.inFlight.values()].map((j) => j.done)), grace]);
    clearTimeout(timer);
    const left = [...this.inFlight.keys()];
    if (left.length) {
      await this.db
        .execute(sql`
          update jobs set state = 'queued', attempts = greatest(attempts - 1, 0), claimed_by = null, lease_until = null
          where id = any(${sql.param(left)}::uuid[]) and claimed_by = ${this.opts.processId} and state = 'running'`)
        .catch((err) => this.opts.onError?.(err));
    }
    this.inFlight.clear();
    this.started = false;
  }

  /** Looks for due jobs now, and once more shortly (an enqueue's transaction may not have committed yet). */
  wake(): void {
    if (!this.started || this.stopping) return;
    void this.tick();
    clearTimeout(this.soonTimer);
    this.soonTimer = setTimeout(() => void this.tick(), 50);
    this.soonTimer.unref();
  }

  /** A job enqueued here is due in `ms`: look then rather than at the next poll. */
  private wakeIn(ms: number): void {
    this.dueTimes.push(Date.now() + ms);
    this.dueTimes.sort((x, y) => x - y);
    this.armDue();
  }

  private armDue(): void {
    clearTimeout(this.dueTimer);
    // Past ones are served by the wake below; each later one gets its own.
    const now = Date.now();
    while (this.dueTimes.length && this.dueTimes[0] <= now) this.dueTimes.shift();
    if (!this.dueTimes.length || !this.started || this.stopping) return;
    this.dueTimer = setTimeout(
      () => {
        this.wake();
        this.armDue();
      },
      this.dueTimes[0] - now + 5,
    );
    this.dueTimer.unref();
  }

  /** Resolves once no job is running on this process and none is due (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.ticking;
      if (this.inFlight.size === 0) {
        await this.tick();
        if (this.inFlight.size === 0) return;
      }
      await Promise.race([...this.inFlight.values()].map((j) => j.done));
    }
  }

  private tick(): Promise<void> {
    if (!this.started || this.stopping) return Promise.resolve();
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = this.claimAndRun()
      .catch((err) => this.opts.onError?.(err))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          void this.tick();
        } else this.schedulePoll();
      });
    return this.ticking;
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    if (!this.started || this.stopping) return;
    this.pollTimer = setTimeout(() => void this.tick(), this.pollMs);
    this.pollTimer.unref();
  }

  private async claimAndRun(): Promise<void> {
    const names = [...this.definitions.keys()];
    if (!names.length) return;
    for (;;) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0 || this.stopping) return;
      const rows = rowsOf<ClaimedRow>(await this.db.execute(this.claimSql(names, free)));
      for (const row of rows) {
        const done = this.run(row).finally(() => {
          this.inFlight.delete(row.id);
          this.wake();
        });
        this.inFlight.set(row.id, { attempt: row.attempts, done });
      }
      if (rows.length < free) return;
    }
  }

  /**
   * One poll, one statement: a job whose holder vanished with its last attempt is dead, not run once
   * more (the first CTE); due queued jobs, and running ones whose lease lapsed with attempts left, are
   * claimed under this process's lease. Both skip rows another claimer holds locked; the two sets are
   * disjoint (attempts left or not), as the statement's parts see one snapshot.
   */
  private claimSql(names: string[], free: number) {
    const mineNames = sql`name = any(${sql.param(names)}::text[])`;
    return sql`
      with lapsed_dead as (
        update jobs set state = 'dead', claimed_by = null, lease_until = null, finished_at = now(),
          last_error = coalesce(last_error || ' — ', '') || 'o processo que executava a tarefa parou'
        where id in (
          select id from jobs
          where state = 'running' and lease_until < now() and attempts >= max_attempts and ${mineNames}
          for update skip locked)
        returning id
      ), due as (
        select id from jobs
        where ${mineNames}
          and ((state = 'queued' and run_at <= now())
            or (state = 'running' and lease_until < now() and attempts < max_attempts))
        order by run_at, id
        limit ${free}
        for update skip locked
      )
      update jobs set state = 'running', attempts = jobs.attempts + 1, claimed_by = ${this.opts.processId},
        lease_until = now() + ${this.leaseMs} * interval '1 millisecond'
      from due where jobs.id = due.id
      returning jobs.id, jobs.name, jobs.payload, jobs.attempts`;
  }

  private async run(row: ClaimedRow): Promise<void> {
    const definition = this.definitions.get(row.name)!;
    const signal = this.abort.signal;
    let discard = false;
    const followUps: ((tx: Db) => Promise<unknown>)[] = [];
    const mine = sql`id = ${row.id} and claimed_by = ${this.opts.processId} and attempts = ${row.attempts}`;
    try {
      const raw = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
      const parsed = definition.payload.safeParse(raw);
      if (!parsed.success) throw new PermanentJobError(`payload inválido: ${parsed.error.message}`);
      await definition.handler(parsed.data, {
        db: this.db,
        jobId: row.id,
        attempt: row.attempts,
        signal,
        cancelled: async () => rowsOf(await this.db.execute(sql`select 1 from jobs where ${mine}`)).length === 0,
        discard: () => {
          discard = true;
        },
        followUp: (next, payload, opts) => {
          followUps.push((tx) => this.enqueue(tx, next, payload, opts));
        },
      });
    } catch (err) {
      if (signal.aborted && !(err instanceof PermanentJobError)) {
        // Stopped midway: back to the queue, this run not counted.
        await this.db.execute(sql`
          update jobs set state = 'queued', attempts = greatest(attempts - 1, 0), claimed_by = null, lease_until = null
          where ${mine}`);
        return;
      }
      this.opts.onError?.(err, { id: row.id, name: row.name });
      const dead = err instanceof PermanentJobError || row.attempts >= definition.maxAttempts;
      const delayMs = dead ? 0 : definition.backoff(row.attempts);
      await this.db.transaction(async (tx) => {
        const updated = rowsOf(
          await tx.execute(sql`
            update jobs set state = ${dead ? 'dead' : 'queued'}, last_error = ${errorText(err)},
              run_at = now() + ${delayMs} * interval '1 millisecond', claimed_by = null, lease_until = null,
              finished_at = ${dead ? sql`now()` : sql`null`}
            where ${mine} returning id`),
        );
        if (dead && updated.length) await this.next(tx, definition);
      });
      return;
    }
    await this.db.transaction(async (tx) => {
      const updated = rowsOf(
        await tx.execute(
          discard
            ? sql`delete from jobs where ${mine} returning id`
            : sql`
              update jobs set state = 'done', claimed_by = null, lease_until = null, finished_at = now()
              where ${mine} returning id`,
        ),
      );
      if (!updated.length) return;
      for (const followUp of followUps) await followUp(tx);
      await this.next(tx, definition);
    });
  }

  /** A recurring chore's next run, once this one is over (its key is free again in this transaction). */
  private async next(tx: Db, definition: JobDefinition<unknown>): Promise<void> {
    if (definition.every === undefined) return;
    await this.enqueue(tx, definition, {}, { delayMs: definition.every, dedupeKey: choreKey(definition.name) });
  }

  /** Each recurring chore has its one unfinished row (a first start, or one lost to a dead lease). */
  private async ensureChores(): Promise<void> {
    for (const definition of this.definitions.values()) {
      if (definition.every === undefined) continue;
      await this.enqueue(this.db, definition, {}, { dedupeKey: choreKey(definition.name) });
    }
  }

  private async renewLeases(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    if (!ids.length || this.stopping) return;
    await this.db
      .execute(sql`
        update jobs set lease_until = now() + ${this.leaseMs} * interval '1 millisecond'
        where id = any(${sql.param(ids)}::uuid[]) and claimed_by = ${this.opts.processId} and state = 'running'`)
      .catch((err) => this.opts.onError?.(err));
  }
}

/** The dedupe key of a recurring chore's one unfinished row. */
export const choreKey = (name: string) => `chore:${name}`;

/**
 * The one statement that writes a job, for the runner's `enqueue` and for code that has no runner
 * at hand (a module freeing files in its transaction): such a job is found by the next poll of
 * whichever process runs it, within a second, rather than woken at once.
 */
export async function insertJob<T>(
  tx: Db,
  definition: Pick<JobDefinition<T>, 'name' | 'payload' | 'maxAttempts'>,
  payload: T,
  opts: EnqueueOptions = {},
): Promise<string | null> {
  const checked = definition.payload.parse(payload);
  const runAt = opts.runAt
    ? sql`${opts.runAt.toISOString()}::timestamptz`
    : sql`now() + ${Math.max(0, opts.delayMs ?? 0)} * interval '1 millisecond'`;
  const rows = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into jobs (name, payload, run_at, max_attempts, dedupe_key, user_id)
      values (${definition.name}, ${JSON.stringify(checked)}::jsonb, ${runAt}, ${definition.maxAttempts},
        ${opts.dedupeKey ?? null}, ${opts.accountId ?? null})
      on conflict (dedupe_key) where ${UNFINISHED} do nothing
      returning id`),
  );
  return rows[0]?.id ?? null;
}

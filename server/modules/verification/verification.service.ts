import { asc, count, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type VerifyListResponse, verifyMsg } from '../../../contract/verification';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { contacts } from '../../db/schema';
import { AppError } from '../../errors';
import { defineJob, type JobDefinition, PermanentJobError } from '../../jobs/define';
import type { JobRunner } from '../../jobs/runner';
import type { DriverProvider } from '../../whatsapp/driver';

/** A check is trusted this long before the number is checked again. */
const RECHECK_AFTER_MS = 7 * 86_400_000;
/** The answer lists at most this many contacts (the totals count them all). */
const LIST_MAX = 1_000;

/** An account's verification run: one unfinished chunk job at a time, whichever process runs it. */
const runKey = (userId: string) => `contact-verification:${userId}`;
const chunkPayload = z.object({ userId: z.string() });

/** What the account is told when a run stops on a failure (the dead job's error). */
const RUN_ERRORS: ReadonlySet<string> = new Set([verifyMsg.connectToVerify, verifyMsg.error]);

export interface VerificationOptions {
  /** Numbers per driver call: small, since mass checks get a number flagged. */
  batchSize?: number;
  /** Pause between two calls. */
  delayMs?: number;
}

const stale = () =>
  or(isNull(contacts.whatsappCheckedAt), lt(contacts.whatsappCheckedAt, new Date(Date.now() - RECHECK_AFTER_MS)));

/**
 * Background WhatsApp number verification of each account's contacts: small batches through the
 * account's driver with a pause between them, each result stored with its time.
 *
 * A run is a chain of jobs (server/jobs/), one per batch, each enqueued `delayMs` later by the one
 * before in the transaction that finishes it, under one dedupe key per account: a request arriving
 * during a run starts none of its own, a restart or another process carries the run on, and two
 * processes never check one batch at once. What is left to check is the contacts' own
 * `whatsapp_checked_at`; a run that failed is its dead job, whose error the next answer reports once.
 */
export class ContactVerifier {
  private readonly batchSize: number;
  private readonly delayMs: number;
  private readonly chunkJob: JobDefinition<z.infer<typeof chunkPayload>>;

  constructor(
    private readonly db: Db,
    private readonly drivers: DriverProvider,
    private readonly jobs: JobRunner,
    opts: VerificationOptions = {},
  ) {
    this.batchSize = opts.batchSize ?? 25;
    this.delayMs = opts.delayMs ?? 3_000;
    this.chunkJob = defineJob({
      name: 'contacts.verify',
      payload: chunkPayload,
      // A failure ends the run (the account is told and may start again), as no retry would mend it soon.
      maxAttempts: 3,
      handler: async ({ userId }, ctx) => {
        ctx.discard();
        const batch = await this.db
          .select({ id: contacts.id, phone: contacts.phone })
          .from(contacts)
          .where(ofAccount(contacts, userId, stale()))
          .orderBy(asc(contacts.id))
          .limit(this.batchSize);
        if (batch.length === 0) return;
        const driver = await this.drivers.get(userId);
        if (!driver?.status().isConnected) throw new PermanentJobError(verifyMsg.connectToVerify);
        const results = await driver
          .checkNumbers(batch.map((c) => c.phone.replace(/^\+/, '')))
          .catch((err: unknown) => {
            throw new PermanentJobError(verifyMsg.error, { cause: err });
          });
        // The lease lapsed meanwhile and another process has the run: it writes, not this one.
        if (await ctx.cancelled()) return;
        const exists = new Map(results.map((r) => [r.number.replace(/\D/g, ''), r.exists]));
        const ids = batch.map((c) => c.id);
        const flags = batch.map((c) => ((exists.get(c.phone.replace(/\D/g, '')) ?? false) ? 'true' : 'false'));
        await this.db.execute(sql`
          update contacts set is_whatsapp_active = u.active::boolean, whatsapp_checked_at = now()
          from unnest(${sql.param(ids)}::uuid[], ${sql.param(flags)}::text[]) as u(id, active)
          where contacts.id = u.id and ${accountSql(userId, 'contacts.user_id')}`);
        if (batch.length === this.batchSize) {
          ctx.followUp(
            this.chunkJob,
            { userId },
            { delayMs: this.delayMs, dedupeKey: runKey(userId), accountId: userId },
          );
        }
      },
    });
    if (!jobs.has(this.chunkJob.name)) jobs.register(this.chunkJob);
  }

  /** Starts (or continues) the account's verification and answers the current state at once. */
  async verifyList(userId: string): Promise<VerifyListResponse> {
    const key = runKey(userId);
    const last = await this.jobs.status(this.db, key);
    let status: VerifyListResponse['progress']['status'] | null = null;
    let error: string | null = null;
    if (last?.state === 'queued' || last?.state === 'running') status = 'running';
    else if (last?.state === 'dead') {
      // Told once: the next request starts a new run.
      await this.jobs.takeDead(this.db, key);
      status = 'error';
      error = last.lastError && RUN_ERRORS.has(last.lastError) ? last.lastError : verifyMsg.error;
    } else {
      const [{ pending }] = await this.db
        .select({ pending: count() })
        .from(contacts)
        .where(ofAccount(contacts, userId, stale()));
      if (pending > 0) {
        const driver = await this.drivers.get(userId);
        if (!driver?.status().isConnected) throw new AppError('CONFLICT', verifyMsg.connectToVerify);
        // Whether this request's job or one a concurrent request enqueued first: a run is under way.
        await this.jobs.enqueue(this.db, this.chunkJob, { userId }, { dedupeKey: key, accountId: userId });
        status = 'running';
      }
    }
    return this.snapshot(userId, status, error);
  }

  private async snapshot(
    userId: string,
    status: VerifyListResponse['progress']['status'] | null,
    error: string | null,
  ): Promise<VerifyListResponse> {
    const [totals] = await this.db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${contacts.isWhatsappActive})::int`,
        inactive: sql<number>`count(*) filter (where ${contacts.isWhatsappActive} = false)::int`,
        pending: sql<number>`count(*) filter (where ${stale()})::int`,
      })
      .from(contacts)
      .where(ofAccount(contacts, userId));
    const rows = await this.db
      .select({
        id: contacts.id,
        name: contacts.name,
        phone: contacts.phone,
        isWhatsAppActive: contacts.isWhatsappActive,
      })
      .from(contacts)
      .where(ofAccount(contacts, userId))
      .orderBy(asc(contacts.searchText), asc(contacts.id))
      .limit(LIST_MAX);
    return {
      totalContacts: totals.total,
      activeContacts: totals.active,
      inactiveContacts: totals.inactive,
      // Drivers do not report when a number was last online.
      contacts: rows.map((r) => ({ ...r, lastSeen: null })),
      progress: {
        status: status ?? (totals.pending === 0 ? 'done' : 'idle'),
        checked: totals.total - totals.pending,
        pending: totals.pending,
        error,
      },
    };
  }
}

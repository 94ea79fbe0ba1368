import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type VerifyListResponse, verifyMsg } from '../../../contract/verification';
import type { Db } from '../../db/client';
import { contacts } from '../../db/schema';
import { AppError } from '../../errors';
import type { DriverProvider } from '../../whatsapp/driver';

/** A check is trusted this long before the number is checked again. */
const RECHECK_AFTER_MS = 7 * 86_400_000;
/** The answer lists at most this many contacts (the totals count them all). */
const LIST_MAX = 1_000;

interface Job {
  status: 'running' | 'done' | 'error';
  error: string | null;
}

export interface VerificationOptions {
  /** Numbers per driver call: small, since mass checks get a number flagged. */
  batchSize?: number;
  /** Pause between two calls. */
  delayMs?: number;
}

/**
 * Background WhatsApp number verification of each account's contacts: small batches through the
 * account's driver with a pause between them, each result stored with its time. One job per
 * account at a time, in this process.
 */
export class ContactVerifier {
  private readonly jobs = new Map<string, Job>();
  private closed = false;
  private readonly batchSize: number;
  private readonly delayMs: number;

  constructor(
    private readonly db: Db,
    private readonly drivers: DriverProvider,
    opts: VerificationOptions = {},
  ) {
    this.batchSize = opts.batchSize ?? 25;
    this.delayMs = opts.delayMs ?? 3_000;
  }

  close(): void {
    this.closed = true;
  }

  private stale() {
    return or(
      isNull(contacts.whatsappCheckedAt),
      lt(contacts.whatsappCheckedAt, new Date(Date.now() - RECHECK_AFTER_MS)),
    );
  }

  /** Starts (or continues) the account's verification and answers the current state at once. */
  async verifyList(userId: string): Promise<VerifyListResponse> {
    let job = this.jobs.get(userId);
    if (job?.status !== 'running') {
      // Taken before the first await: a request arriving meanwhile finds the job running and starts
      // none of its own (each number is asked of WhatsApp once). Put back if nothing starts.
      const previous = job;
      const starting: Job = { status: 'running', error: null };
      this.jobs.set(userId, starting);
      const putBack = () => {
        if (this.jobs.get(userId) !== starting) return;
        if (previous) this.jobs.set(userId, previous);
        else this.jobs.delete(userId);
      };
      try {
        const [{ pending }] = await this.db
          .select({ pending: count() })
          .from(contacts)
          .where(and(eq(contacts.userId, userId), this.stale()));
        if (pending > 0) {
          const driver = await this.drivers.get(userId);
          if (!driver?.status().isConnected) throw new AppError('CONFLICT', verifyMsg.connectToVerify);
          job = starting;
          void this.run(userId, job);
        } else {
          putBack();
        }
      } catch (err) {
        putBack();
        throw err;
      }
    }
    return this.snapshot(userId, job);
  }

  private async run(userId: string, job: Job): Promise<void> {
    try {
      for (;;) {
        if (this.closed) return;
        const batch = await this.db
          .select({ id: contacts.id, phone: contacts.phone })
          .from(contacts)
          .where(and(eq(contacts.userId, userId), this.stale()))
          .orderBy(asc(contacts.id))
          .limit(this.batchSize);
        if (batch.length === 0) break;
        const driver = await this.drivers.get(userId);
        if (!driver?.status().isConnected) throw new AppError('CONFLICT', verifyMsg.connectToVerify);
        const results = await driver.checkNumbers(batch.map((c) => c.phone.replace(/^\+/, '')));
        const exists = new Map(results.map((r) => [r.number.replace(/\D/g, ''), r.exists]));
        const ids = batch.map((c) => c.id);
        const flags = batch.map((c) => ((exists.get(c.phone.replace(/\D/g, '')) ?? false) ? 'true' : 'false'));
        await this.db.execute(sql`
          update contacts set is_whatsapp_active = u.active::boolean, whatsapp_checked_at = now()
          from unnest(${sql.param(ids)}::uuid[], ${sql.param(flags)}::text[]) as u(id, active)
          where contacts.id = u.id and contacts.user_id = ${userId}`);
        if (batch.length < this.batchSize) break;
        await new Promise((resolve) => setTimeout(resolve, this.delayMs).unref());
      }
      job.status = 'done';
    } catch (err) {
      job.status = 'error';
      job.error = err instanceof AppError ? err.message : verifyMsg.error;
    }
  }

  private async snapshot(userId: string, job: Job | undefined): Promise<VerifyListResponse> {
    const [totals] = await this.db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${contacts.isWhatsappActive})::int`,
        inactive: sql<number>`count(*) filter (where ${contacts.isWhatsappActive} = false)::int`,
        pending: sql<number>`count(*) filter (where ${this.stale()})::int`,
      })
      .from(contacts)
      .where(eq(contacts.userId, userId));
    const rows = await this.db
      .select({
        id: contacts.id,
        name: contacts.name,
        phone: contacts.phone,
        isWhatsAppActive: contacts.isWhatsappActive,
      })
      .from(contacts)
      .where(eq(contacts.userId, userId))
      .orderBy(asc(contacts.searchText), asc(contacts.id))
      .limit(LIST_MAX);
    const status = job?.status ?? (totals.pending === 0 ? 'done' : 'idle');
    return {
      totalContacts: totals.total,
      activeContacts: totals.active,
      inactiveContacts: totals.inactive,
      // Drivers do not report when a number was last online.
      contacts: rows.map((r) => ({ ...r, lastSeen: null })),
      progress: {
        status,
        checked: totals.total - totals.pending,
        pending: totals.pending,
        error: job?.error ?? null,
      },
    };
  }
}

import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { activityMsg } from '../../../contract/activity';
import { notificationLinks, notificationMsg } from '../../../contract/notifications';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { defineJob } from '../../jobs/define';
import type { JobRunner } from '../../jobs/runner';
import { DISCONNECTED_EMAIL_AFTER_MS, type EmailNotices } from '../../mail/email-notices';
import { recordActivity } from '../../records/activity';
import { type ErrorLog, notify } from '../../records/notify';
import type { WhatsappEvents, WhatsappSubscriber } from '../../whatsapp/driver';

/** A personal number still reconnecting this long after it dropped counts as lost. */
export const CONNECTION_LOST_AFTER_MS = 2 * 60_000;

/** A number's lost-grace job and disconnect e-mail job: one unfinished each per number. */
const lostKey = (connectionId: string) => `connection-lost:${connectionId}`;
const mailKey = (connectionId: string) => `connection-down-mail:${connectionId}`;
const alertPayload = z.object({ userId: z.string(), connectionId: z.string() });

interface AccountState {
  /** Connected, as far as the account was told by this process. */
  up: boolean;
}

export interface ConnectionAlertsOptions {
  db: Db;
  log: ErrorLog;
  /** Where the grace and the e-mail wait: jobs, so a restart or another process carries them out. */
  jobs: JobRunner;
  /** Whether the number is connected now, wherever it is held (the jobs re-check it when due). */
  connectionUp?: (connectionId: string) => boolean;
  lostAfterMs?: number;
  /** Who e-mails a connection down for `emailAfterMs` (DISCONNECTED_EMAIL_AFTER_MS). */
  emailNotices?: Pick<EmailNotices, 'whatsappDisconnected'>;
  emailAfterMs?: number;
}

/**
 * Turns the WhatsApp layer's `connection` events into the account's notifications and activity log,
 * on transitions only: connected → lost ('WhatsApp desconectado') and, after such a loss, back
 * ('WhatsApp reconectado'). A connection that drops and reconnects by itself within
 * CONNECTION_LOST_AFTER_MS is not a loss; the account's own disconnect is logged, not notified; a
 * server shutting down is neither. Notifications obey the account's 'Alertas do sistema' setting.
 * A connection still down DISCONNECTED_EMAIL_AFTER_MS after it dropped is also e-mailed, once per
 * drop (email-notices.ts: 'Notificações por email' and 'Alertas do sistema').
 *
 * The grace and the e-mail are jobs due when they end (deduplicated per number), so whichever live
 * process runs them when due, even one started after the drop; a reconnection cancels them, and
 * each re-checks the number when it runs. A declared loss is the lost job's finished row, which the
 * reconnection takes (and then says 'reconectado').
 */
export class ConnectionAlerts {
  /** By number (`connections.id`). */
  private readonly accounts = new Map<string, AccountState>();
  private readonly lostAfterMs: number;
  private readonly emailAfterMs: number;
  private closed = false;
  private readonly lostJob;
  private readonly mailJob;

  /** Each number's events, handled one after another: a drop never overtakes the connection before it. */
  private readonly inOrder = new Map<string, Promise<void>>();

  readonly subscriber: WhatsappSubscriber = {
    connection: (event) => this.onConnection(event),
  };

  constructor(private readonly opts: ConnectionAlertsOptions) {
    this.lostAfterMs = opts.lostAfterMs ?? CONNECTION_LOST_AFTER_MS;
    this.emailAfterMs = opts.emailAfterMs ?? DISCONNECTED_EMAIL_AFTER_MS;
    const up = (connectionId: string) => opts.connectionUp?.(connectionId) ?? false;
    this.lostJob = defineJob({
      name: 'connection.lost',
      payload: alertPayload,
      maxAttempts: 3,
      handler: async ({ userId, connectionId }, ctx) => {
        // Back meanwhile, or already declared lost for this drop: nothing to say.
        if (up(connectionId)) return ctx.discard();
        const declared = rowsOf(
          await ctx.db.execute(sql`
            select 1 from jobs where dedupe_key = ${lostKey(connectionId)} and state = 'done' limit 1`),
        );
        if (declared.length || (await ctx.cancelled())) return ctx.discard();
        await this.declareLost(userId);
      },
    });
    this.mailJob = defineJob({
      name: 'connection.down-mail',
      payload: alertPayload,
      maxAttempts: 3,
      handler: async ({ userId, connectionId }, ctx) => {
        if (up(connectionId) || (await ctx.cancelled())) return ctx.discard();
        opts.emailNotices?.whatsappDisconnected(userId);
      },
    });
    // The handlers keep no state of their own: the first instance's serve every instance on the runner.
    if (!opts.jobs.has(this.lostJob.name)) opts.jobs.register(this.lostJob, this.mailJob);
  }

  close(): void {
    this.closed = true;
    this.accounts.clear();
  }

  onConnection(event: Parameters<WhatsappEvents['connection']>[0]): Promise<void> {
    const { connectionId } = event;
    const previous = this.inOrder.get(connectionId) ?? Promise.resolve();
    const next = previous.then(() => this.handle(event));
    const settled = next.catch(() => undefined);
    this.inOrder.set(connectionId, settled);
    void settled.then(() => {
      if (this.inOrder.get(connectionId) === settled) this.inOrder.delete(connectionId);
    });
    return next;
  }

  private async handle({
    userId,
    connectionId,
    state,
    requested,
  }: Parameters<WhatsappEvents['connection']>[0]): Promise<void> {
    if (this.closed || requested === 'shutdown') return;
    const { db, jobs } = this.opts;
    // Each number has its own ups and downs; the account is told about each.
    let a = this.accounts.get(connectionId);
    if (!a) {
      a = { up: false };
      this.accounts.set(connectionId, a);
    }
    if (state.isConnected) {
      await jobs.cancel(db, lostKey(connectionId));
      await jobs.cancel(db, mailKey(connectionId));
      const wasLost = (await jobs.takeDone(db, lostKey(connectionId))) > 0;
      if (a.up && !wasLost) return;
      a.up = true;
      await this.log(userId, 'whatsapp_connected', null, state.phoneNumber ?? '');
      if (wasLost) {
        await notify(db, this.opts.log, userId, {
          kind: 'whatsapp_reconnected',
          title: notificationMsg.whatsappReconnected.title,
          body: notificationMsg.whatsappReconnected.body,
          link: notificationLinks.whatsapp,
        });
      }
      return;
    }
    if (requested === 'disconnect') {
      await jobs.cancel(db, lostKey(connectionId));
      await jobs.cancel(db, mailKey(connectionId));
      await jobs.takeDone(db, lostKey(connectionId));
      const was = a.up;
      a.up = false;
      if (was) await this.log(userId, 'whatsapp_disconnected', userId, activityMsg.disconnectedByUser);
      return;
    }
    if (!a.up) return;
    const payload = { userId, connectionId };
    if (this.opts.emailNotices) {
      await jobs.enqueue(db, this.mailJob, payload, {
        delayMs: this.emailAfterMs,
        dedupeKey: mailKey(connectionId),
        accountId: userId,
      });
    }
    // Down for good: lost at once (the job runs now); reconnecting by itself: only if not back in time.
    const lostNow = state.state === 'disconnected';
    if (lostNow) {
      a.up = false;
      await jobs.cancel(db, lostKey(connectionId));
    }
    await jobs.enqueue(db, this.lostJob, payload, {
      delayMs: lostNow ? 0 : this.lostAfterMs,
      dedupeKey: lostKey(connectionId),
      accountId: userId,
    });
  }

  private async declareLost(userId: string): Promise<void> {
    await this.log(userId, 'whatsapp_disconnected', null, activityMsg.lostConnection);
    await notify(this.opts.db, this.opts.log, userId, {
      kind: 'whatsapp_disconnected',
      title: notificationMsg.whatsappDisconnected.title,
      body: notificationMsg.whatsappDisconnected.body,
      link: notificationLinks.whatsapp,
    });
  }

  private log(
    userId: string,
    kind: 'whatsapp_connected' | 'whatsapp_disconnected',
    actorId: string | null,
    detail: string,
  ): Promise<void> {
    // After a restart the restored connection is not a change: the log already says 'conectado'.
    return recordActivity(this.opts.db, this.opts.log, {
      userId,
      actorId,
      kind,
      detail,
      onChangeOf: ['whatsapp_connected', 'whatsapp_disconnected'],
    });
  }
}

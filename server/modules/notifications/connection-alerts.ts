import { activityMsg } from '../../../contract/activity';
import { notificationLinks, notificationMsg } from '../../../contract/notifications';
import type { Db } from '../../db/client';
import { DISCONNECTED_EMAIL_AFTER_MS, type EmailNotices } from '../../mail/email-notices';
import { recordActivity } from '../../records/activity';
import { type ErrorLog, notify } from '../../records/notify';
import type { WhatsappEvents, WhatsappSubscriber } from '../../whatsapp/driver';

/** A personal number still reconnecting this long after it dropped counts as lost. */
export const CONNECTION_LOST_AFTER_MS = 2 * 60_000;

interface AccountState {
  /** Connected, as far as the account was told. */
  up: boolean;
  /** A loss was notified and no reconnection yet. */
  lost: boolean;
  /** Running while a dropped connection reconnects by itself. */
  grace?: NodeJS.Timeout;
  /** Running from the drop until the e-mail is due; stopped when the connection is back. */
  mailDue?: NodeJS.Timeout;
}

export interface ConnectionAlertsOptions {
  db: Db;
  log: ErrorLog;
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
 */
export class ConnectionAlerts {
  /** By number (`connections.id`). */
  private readonly accounts = new Map<string, AccountState>();
  private readonly lostAfterMs: number;
  private readonly emailAfterMs: number;
  private closed = false;

  readonly subscriber: WhatsappSubscriber = {
    connection: (event) => this.onConnection(event),
  };

  constructor(private readonly opts: ConnectionAlertsOptions) {
    this.lostAfterMs = opts.lostAfterMs ?? CONNECTION_LOST_AFTER_MS;
    this.emailAfterMs = opts.emailAfterMs ?? DISCONNECTED_EMAIL_AFTER_MS;
  }

  close(): void {
    this.closed = true;
    for (const a of this.accounts.values()) {
      this.stopGrace(a);
      this.stopMailDue(a);
    }
    this.accounts.clear();
  }

  async onConnection({
    userId,
    connectionId,
    state,
    requested,
  }: Parameters<WhatsappEvents['connection']>[0]): Promise<void> {
    if (this.closed || requested === 'shutdown') return;
    // Each number has its own ups and downs; the account is told about each.
    let a = this.accounts.get(connectionId);
    if (!a) {
      a = { up: false, lost: false };
      this.accounts.set(connectionId, a);
    }
    if (state.isConnected) {
      this.stopGrace(a);
      this.stopMailDue(a);
      if (a.up) return;
      a.up = true;
      await this.log(userId, 'whatsapp_connected', null, state.phoneNumber ?? '');
      if (a.lost) {
        a.lost = false;
        await notify(this.opts.db, this.opts.log, userId, {
          kind: 'whatsapp_reconnected',
          title: notificationMsg.whatsappReconnected.title,
          body: notificationMsg.whatsappReconnected.body,
          link: notificationLinks.whatsapp,
        });
      }
      return;
    }
    if (requested === 'disconnect') {
      this.stopGrace(a);
      this.stopMailDue(a);
      const was = a.up;
      a.up = false;
      a.lost = false;
      if (was) await this.log(userId, 'whatsapp_disconnected', userId, activityMsg.disconnectedByUser);
      return;
    }
    if (!a.up) return;
    this.startMailDue(userId, a);
    if (state.state === 'disconnected') {
      this.stopGrace(a);
      await this.declareLost(userId, a);
      return;
    }
    // Reconnecting by itself: a loss only if it is not back in time.
    if (!a.grace) {
      const account = a;
      a.grace = setTimeout(() => {
        account.grace = undefined;
        if (!this.closed && account.up) void this.declareLost(userId, account);
      }, this.lostAfterMs);
      a.grace.unref();
    }
  }

  private stopGrace(a: AccountState): void {
    if (a.grace) clearTimeout(a.grace);
    a.grace = undefined;
  }

  /** From the drop of a connection that was up: the e-mail goes if it is not back in time. */
  private startMailDue(userId: string, a: AccountState): void {
    const notices = this.opts.emailNotices;
    if (!notices || a.mailDue) return;
    a.mailDue = setTimeout(() => {
      if (!this.closed) notices.whatsappDisconnected(userId);
    }, this.emailAfterMs);
    a.mailDue.unref();
  }

  private stopMailDue(a: AccountState): void {
    if (a.mailDue) clearTimeout(a.mailDue);
    a.mailDue = undefined;
  }

  private async declareLost(userId: string, a: AccountState): Promise<void> {
    a.up = false;
    a.lost = true;
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

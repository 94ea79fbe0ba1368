import { activityMsg } from '../../../contract/activity';
import { notificationLinks, notificationMsg } from '../../../contract/notifications';
import type { Db } from '../../db/client';
import { recordActivity } from '../../lib/activity';
import { type ErrorLog, notify } from '../../lib/notify';
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
}

export interface ConnectionAlertsOptions {
  db: Db;
  log: ErrorLog;
  lostAfterMs?: number;
}

/**
 * Turns the WhatsApp layer's `connection` events into the account's notifications and activity log,
 * on transitions only: connected → lost ('WhatsApp desconectado') and, after such a loss, back
 * ('WhatsApp reconectado'). A connection that drops and reconnects by itself within
 * CONNECTION_LOST_AFTER_MS is not a loss; the account's own disconnect is logged, not notified; a
 * server shutting down is neither. Notifications obey the account's 'Alertas do sistema' setting.
 */
export class ConnectionAlerts {
  private readonly accounts = new Map<string, AccountState>();
  private readonly lostAfterMs: number;
  private closed = false;

  readonly subscriber: WhatsappSubscriber = {
    connection: (event) => this.onConnection(event),
  };

  constructor(private readonly opts: ConnectionAlertsOptions) {
    this.lostAfterMs = opts.lostAfterMs ?? CONNECTION_LOST_AFTER_MS;
  }

  close(): void {
    this.closed = true;
    for (const a of this.accounts.values()) if (a.grace) clearTimeout(a.grace);
    this.accounts.clear();
  }

  async onConnection({ userId, state, requested }: Parameters<WhatsappEvents['connection']>[0]): Promise<void> {
    if (this.closed || requested === 'shutdown') return;
    let a = this.accounts.get(userId);
    if (!a) {
      a = { up: false, lost: false };
      this.accounts.set(userId, a);
    }
    if (state.isConnected) {
      this.stopGrace(a);
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
      const was = a.up;
      a.up = false;
      a.lost = false;
      if (was) await this.log(userId, 'whatsapp_disconnected', userId, activityMsg.disconnectedByUser);
      return;
    }
    if (!a.up) return;
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

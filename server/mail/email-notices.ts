import { eq } from 'drizzle-orm';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../contract/constants';
import { type NotificationKind, notificationLinks } from '../../contract/notifications';
import type { Config } from '../config';
import { ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { accountSettings, type UserRow, users } from '../db/schema';
import type { NewNotification } from '../records/notify';
import type { Mailer } from './mailer';
import { type MailContent, mailTemplates } from './templates';

/** A connection still down this long after it dropped is told by e-mail (connection-alerts.ts). */
export const DISCONNECTED_EMAIL_AFTER_MS = 10 * 60_000;

/** The notifications that also go by e-mail: a campaign finished (completed or failed) or paused by the engine. */
const CAMPAIGN_KINDS: ReadonlySet<NotificationKind> = new Set([
  'campaign_completed',
  'campaign_failed',
  'campaign_paused',
]);

type Switch = 'campaignUpdates' | 'systemAlerts';
type Recipient = Pick<UserRow, 'name' | 'email' | 'username'>;

/**
 * The e-mails a user expects: account approved, a campaign finished or paused by the engine, the
 * WhatsApp disconnected for more than 10 minutes. Each obeys the account's 'Notificações por email'
 * and, for campaigns and the connection, the same switch as the bell ('Atualizações de campanhas',
 * 'Alertas do sistema'). Everything runs in the background through the mailer: the caller (the
 * send loop, an administrator's request) never waits for the database lookups or the SMTP server,
 * and a failure is logged, never thrown.
 */
export class EmailNotices {
  constructor(private readonly opts: { db: Db; mailer: Mailer; config: Pick<Config, 'PRODUCT_NAME'> }) {}

  /**
   * Listener of notify() (`onNotification` in server/records/notify.ts): the engine records a campaign's
   * end or pause as a notification, already filtered by 'Atualizações de campanhas'.
   */
  readonly onNotification = (userId: string, n: NewNotification): void => {
    if (!CAMPAIGN_KINDS.has(n.kind)) return;
    this.send(n.kind, userId, 'campaignUpdates', (to) =>
      mailTemplates.campaignNotice({
        product: this.opts.config.PRODUCT_NAME,
        name: to.name,
        title: n.title,
        body: n.body,
        reportUrl: this.opts.mailer.link(n.link ?? '/campaigns'),
      }),
    );
  };

  /** A pending account an administrator approved. */
  accountApproved(userId: string): void {
    this.send('account_approved', userId, null, (to) =>
      mailTemplates.accountApproved({
        product: this.opts.config.PRODUCT_NAME,
        name: to.name,
        username: to.username,
        loginUrl: this.opts.mailer.link('/login'),
      }),
    );
  }

  /** The account's WhatsApp has been down for DISCONNECTED_EMAIL_AFTER_MS. */
  whatsappDisconnected(userId: string): void {
    this.send('whatsapp_disconnected', userId, 'systemAlerts', (to) =>
      mailTemplates.whatsappDisconnected({
        product: this.opts.config.PRODUCT_NAME,
        name: to.name,
        minutes: Math.round(DISCONNECTED_EMAIL_AFTER_MS / 60_000),
        url: this.opts.mailer.link(notificationLinks.whatsapp),
      }),
    );
  }

  private send(kind: string, userId: string, only: Switch | null, compose: (to: Recipient) => MailContent): void {
    this.opts.mailer.sendLater(
      kind,
      async () => {
        const to = await this.recipient(userId, only);
        return to ? { to: to.email, ...compose(to) } : null;
      },
      { userId },
    );
  }

  /** The account, when its settings want this e-mail (an account that never saved any has the defaults). */
  private async recipient(userId: string, only: Switch | null): Promise<Recipient | null> {
    const [row] = await this.opts.db
      .select({
        name: users.name,
        email: users.email,
        username: users.username,
        emailNotifications: accountSettings.emailNotifications,
        campaignUpdates: accountSettings.campaignUpdates,
        systemAlerts: accountSettings.systemAlerts,
      })
      .from(users)
      .leftJoin(accountSettings, ofAccount(accountSettings, userId))
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) return null;
    const wants = (s: 'emailNotifications' | Switch) => row[s] ?? DEFAULT_NOTIFICATION_SETTINGS[s];
    if (!wants('emailNotifications') || (only && !wants(only))) return null;
    return row;
  }
}

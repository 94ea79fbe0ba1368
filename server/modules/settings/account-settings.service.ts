import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import { BUSINESS_DAYS, DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_WHATSAPP_SETTINGS } from '../../../contract/constants';
import type { NotificationSettings, WhatsappSettings } from '../../../contract/settings';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { accountSettings } from '../../db/schema';

export type AccountSettings = Omit<typeof accountSettings.$inferSelect, 'updatedAt'>;

/** Defaults of SPEC §9 (contract/constants.ts), the same the table's columns default to. */
export function defaultAccountSettings(userId: string): AccountSettings {
  return {
    userId,
    ...DEFAULT_WHATSAPP_SETTINGS,
    businessDays: [...BUSINESS_DAYS],
    ...DEFAULT_NOTIFICATION_SETTINGS,
  };
}

/** An account's settings; an account that never saved any gets the defaults. */
export async function getAccountSettings(db: Db, userId: string): Promise<AccountSettings> {
  const [row] = await db.select().from(accountSettings).where(ofAccount(accountSettings, userId)).limit(1);
  if (!row) return defaultAccountSettings(userId);
  const { updatedAt: _updatedAt, ...settings } = row;
  return settings;
}

/** The 'Configurações do WhatsApp' of an account's settings. */
export function whatsappSettingsOf(s: AccountSettings): WhatsappSettings {
  return {
    autoReconnect: s.autoReconnect,
    messageDelay: s.messageDelay,
    dailyLimit: s.dailyLimit,
    respectBusinessHours: s.respectBusinessHours,
    businessStart: s.businessStart,
    businessEnd: s.businessEnd,
    channel: s.channel,
  };
}

/** The notification preferences of an account's settings. */
export function notificationSettingsOf(s: AccountSettings): NotificationSettings {
  return {
    emailNotifications: s.emailNotifications,
    pushNotifications: s.pushNotifications,
    campaignUpdates: s.campaignUpdates,
    systemAlerts: s.systemAlerts,
    marketingEmails: s.marketingEmails,
  };
}

/** Writes part of an account's settings, creating the row with defaults for the rest. */
export async function updateAccountSettings(
  db: Db,
  userId: string,
  patch: Partial<Omit<AccountSettings, 'userId'>>,
): Promise<AccountSettings> {
  const [row] = await db
    .insert(accountSettings)
    .values({ ...defaultAccountSettings(userId), ...patch, userId, updatedAt: new Date() })
    .onConflictDoUpdate({ target: accountSettings.userId, set: { ...patch, updatedAt: new Date() } })
    .returning();
  const { updatedAt: _updatedAt, ...settings } = row;
  return settings;
}

// Restore (modules/backup)

/** Settings: an account that never saved any takes the backup's; one that did keeps its own. */
export async function restoreSettings(
  t: Db,
  userId: string,
  s: NonNullable<BackupFile['settings']>,
): Promise<RestoreCounts> {
  const counts = zeroCounts();
  const added = await t
    .insert(accountSettings)
    .values({
      userId,
      autoReconnect: s.whatsapp.autoReconnect,
      messageDelay: s.whatsapp.messageDelay,
      dailyLimit: s.whatsapp.dailyLimit,
      respectBusinessHours: s.whatsapp.respectBusinessHours,
      businessStart: s.whatsapp.businessStart,
      businessEnd: s.whatsapp.businessEnd,
      ...(s.businessDays.length && { businessDays: s.businessDays }),
      ...s.notifications,
    })
    .onConflictDoNothing({ target: accountSettings.userId })
    .returning({ userId: accountSettings.userId });
  if (added.length) counts.added = 1;
  else counts.unchanged = 1;
  return counts;
}

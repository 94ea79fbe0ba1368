import { eq } from 'drizzle-orm';
import { msg } from '../../../contract/messages';
import {
  type ChangePasswordInput,
  type NotificationSettings,
  type Profile,
  settingsMsg,
  type UpdateProfileInput,
  type UpdateWhatsappSettingsInput,
  type WhatsappSettings,
} from '../../../contract/settings';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { UserRow } from '../../db/schema';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import type { SessionStore } from '../../sessions/session-store';
import { hashPassword, verifyPassword } from '../auth';
import {
  getAccountSettings,
  notificationSettingsOf,
  updateAccountSettings,
  whatsappSettingsOf,
} from './account-settings.service';
import { updateBusinessHours } from './business-hours.service';

async function findUser(db: Db, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
  return row;
}

const toProfile = (u: UserRow): Profile => ({
  name: u.name,
  email: u.email,
  phone: u.whatsappNumber,
  company: u.company,
});

export async function getProfile(db: Db, userId: string): Promise<Profile> {
  return toProfile(await findUser(db, userId));
}

/** Saves name, e-mail, phone and company; e-mails stay unique across accounts (like registration). */
export async function updateProfile(
  db: Db,
  sessions: SessionStore,
  userId: string,
  input: UpdateProfileInput,
): Promise<Profile> {
  try {
    const [row] = await db
      .update(users)
      .set({ name: input.name, email: input.email, whatsappNumber: input.phone, company: input.company ?? '' })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new AppError('UNAUTHENTICATED', msg.auth.unauthenticated);
    // The header shows the name from the session's user: read it again on the next request.
    sessions.forgetUser(userId);
    return toProfile(row);
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_lower_idx')) {
      throw new AppError('CONFLICT', msg.auth.emailTaken, { email: msg.auth.emailTaken });
    }
    throw err;
  }
}

/** Checks the current password, stores the new one and ends every other session of the account. */
export async function changePassword(
  db: Db,
  sessions: SessionStore,
  userId: string,
  currentToken: string | null,
  input: ChangePasswordInput,
): Promise<void> {
  const user = await findUser(db, userId);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('VALIDATION', settingsMsg.currentPasswordWrong, {
      currentPassword: settingsMsg.currentPasswordWrong,
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: new Date(), failedLogins: 0, lastFailedLoginAt: null })
    .where(eq(users.id, userId));
  await sessions.revokeUser(userId, currentToken ?? undefined);
}

export async function getNotificationSettings(db: Db, userId: string): Promise<NotificationSettings> {
  return notificationSettingsOf(await getAccountSettings(db, userId));
}

export async function updateNotificationSettings(
  db: Db,
  userId: string,
  input: NotificationSettings,
): Promise<NotificationSettings> {
  await updateAccountSettings(db, userId, input);
  return getNotificationSettings(db, userId);
}

export async function getWhatsappSettings(db: Db, userId: string): Promise<WhatsappSettings> {
  return whatsappSettingsOf(await getAccountSettings(db, userId));
}

/** Sending settings; business start and end go through the shared business hours. */
export async function updateWhatsappSettings(
  db: Db,
  userId: string,
  input: UpdateWhatsappSettingsInput,
): Promise<WhatsappSettings> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const { businessStart, businessEnd, channel, ...rest } = input;
    // Without a channel (a client written from SPEC §3) the stored one stays.
    await updateAccountSettings(t, userId, channel === undefined ? rest : { ...rest, channel });
    await updateBusinessHours(t, userId, { start: businessStart, end: businessEnd });
    return getWhatsappSettings(t, userId);
  });
}

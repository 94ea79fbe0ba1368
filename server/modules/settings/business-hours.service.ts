import { BUSINESS_DAYS } from '../../../contract/constants';
import type { Db } from '../../db/client';
import { updateAccountSettings } from './account-settings.service';

/**
 * Saves the account's one set of business hours (SPEC §9): the WhatsApp settings and the bot
 * configuration both write it here (and read it from the account settings), so campaigns and the
 * chatbot never disagree. Start and end always; the days when the caller chooses them (the bot
 * config may), else Monday–Friday, as SPEC §9 fixes them on save.
 */
export async function updateBusinessHours(
  db: Db,
  userId: string,
  hours: { start: string; end: string; days?: readonly string[] },
): Promise<void> {
  await updateAccountSettings(db, userId, {
    businessStart: hours.start,
    businessEnd: hours.end,
    businessDays: hours.days?.length ? [...hours.days] : [...BUSINESS_DAYS],
  });
}

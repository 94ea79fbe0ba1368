import { BUSINESS_DAYS } from '../../../contract/constants';
import type { Db } from '../../db/client';
import { getAccountSettings, updateAccountSettings } from './account-settings.service';

/**
 * The one set of business hours of an account (SPEC §9). The WhatsApp settings and the bot
 * configuration both read and write it here, so campaigns and the chatbot never disagree.
 */
export interface BusinessHours {
  start: string;
  end: string;
  days: string[];
}

export async function getBusinessHours(db: Db, userId: string): Promise<BusinessHours> {
  const s = await getAccountSettings(db, userId);
  return { start: s.businessStart, end: s.businessEnd, days: s.businessDays };
}

/**
 * Saves start and end, and the days when the caller chooses them (the bot config may); without
 * days they are Monday–Friday, as SPEC §9 fixes them on save.
 */
export async function updateBusinessHours(
  db: Db,
  userId: string,
  hours: { start: string; end: string; days?: readonly string[] },
): Promise<BusinessHours> {
  const s = await updateAccountSettings(db, userId, {
    businessStart: hours.start,
    businessEnd: hours.end,
    businessDays: hours.days?.length ? [...hours.days] : [...BUSINESS_DAYS],
  });
  return { start: s.businessStart, end: s.businessEnd, days: s.businessDays };
}

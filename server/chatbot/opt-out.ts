import { eq } from 'drizzle-orm';
import { OPT_OUT_CONFIRMATION, OPT_OUT_KEYWORDS } from '../../contract/contacts';
import { foldText } from '../../contract/text-match';
import { ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { contacts } from '../db/schema';
import { normalizePhone } from '../lib/phone';
import type { InboundStep } from './pipeline';

/** True when an inbound message asks to stop receiving messages (SAIR, PARAR, STOP, CANCELAR). */
export function isOptOutMessage(text: string): boolean {
  // 'Sair.', '*PARAR*' and 'stop!' count too; 'não quero sair' does not.
  const word = foldText(text)
    .replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
    .toUpperCase();
  return (OPT_OUT_KEYWORDS as readonly string[]).includes(word);
}

/**
 * Marks the account's contact with this number as opted out (or back in); answers whether a
 * contact matched. `via`: the account's number the contact wrote the opt-out to (its health counts
 * it). Whoever calls it tells the contacts module its cached figures changed.
 */
export async function setContactOptOut(
  db: Db,
  userId: string,
  phone: string,
  optedOut = true,
  via: string | null = null,
): Promise<boolean> {
  const e164 = normalizePhone(phone.startsWith('+') ? phone : `+${phone}`) ?? normalizePhone(phone);
  if (!e164) return false;
  const rows = await db
    .update(contacts)
    .set({ optedOut, optedOutAt: optedOut ? new Date() : null, optedOutVia: optedOut ? via : null })
    .where(ofAccount(contacts, userId, eq(contacts.phone, e164)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}

/**
 * The pipeline's first step (DESIGN §3, chatbot): a contact who answers SAIR, PARAR, STOP or
 * CANCELAR is flagged as opted out, so campaigns skip it, and is told so once through the driver
 * the message came from. Messages in groups and numbers that are not contacts of the account change
 * nothing and go on to the next step.
 */
export const optOutStep: InboundStep = async (ctx) => {
  const { db, userId, message } = ctx;
  if (message.groupId || !isOptOutMessage(message.text)) return 'continue';
  const flagged = await setContactOptOut(db, userId, message.from, true, ctx.connectionId);
  if (!flagged) return 'continue';
  ctx.contactsChanged(userId);
  await ctx.reply({ text: OPT_OUT_CONFIRMATION }, 'opt_out');
  return 'stop';
};

import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type Contact,
  type ContactPage,
  type ContactStats,
  type contactInput,
  contactsMsg,
} from '../../../contract/contacts';
import { contactLimitFor, planLabel } from '../../../contract/plans';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import type { UserRow } from '../../db/schema';
import { contacts, users } from '../../db/schema';
import { AppError } from '../../errors';
import { normalizePhone } from '../../lib/phone';
import { searchKey } from '../../lib/search-key';
import { forgetSearchIndex, searchContactIds, searchIndexSettings } from './search-index';

type ContactRow = typeof contacts.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Account = Pick<UserRow, 'id' | 'planType'>;

const columns = {
  id: contacts.id,
  name: contacts.name,
  phone: contacts.phone,
  email: contacts.email,
  isActive: contacts.isActive,
  optedOut: contacts.optedOut,
  tags: contacts.tags,
  isWhatsappActive: contacts.isWhatsappActive,
  whatsappCheckedAt: contacts.whatsappCheckedAt,
  createdAt: contacts.createdAt,
};
type ListedRow = Pick<ContactRow, keyof typeof columns>;

export function toContact(r: ListedRow): Contact {
  return {
    id: r.id,
    name: r.name,
    phone: r.phone,
    email: r.email,
    isActive: r.isActive,
    optedOut: r.optedOut,
    tags: r.tags,
    isWhatsAppActive: r.isWhatsappActive,
    whatsappCheckedAt: r.whatsappCheckedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * What a search looks for in `search_text`: the name (case- and accent-insensitive) or, for input that
 * is only a phone number, its digits. Undefined for an empty search.
 */
function searchNeedle(q: string | undefined): string | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const isPhoneLike = /^[\d\s()+\-.]+$/.test(text) && /\d/.test(text);
  return isPhoneLike ? text.replace(/\D/g, '') : searchKey(text);
}

function searchCondition(needle: string | undefined) {
  if (needle === undefined) return undefined;
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${contacts.searchText} like ${pattern}`;
}

/** The whole list, as SPEC §7 answers `GET /api/contacts` (name order). */
export async function listAllContacts(db: Db, userId: string): Promise<Contact[]> {
  const rows = await db
    .select(columns)
    .from(contacts)
    .where(eq(contacts.userId, userId))
    .orderBy(asc(contacts.searchText), asc(contacts.id));
  return rows.map(toContact);
}

/**
 * The stat cards' totals are three counts over the whole account: kept per process for a few seconds
 * so paging and typing in the search box do not recount 100,000 rows each time. This process's
 * writes drop the entry at once; another process's show within STATS_TTL_MS.
 */
const STATS_TTL_MS = 15_000;
/** A search counts its matches up to this many; the page says 'more than'. */
const SEARCH_COUNT_CAP = 1_000;
const statsCache = new Map<string, { stats: ContactStats; at: number }>();

/** Drops what this process keeps about the account's contacts (stat cards, search index): they changed. */
export function contactsChanged(userId: string): void {
  statsCache.delete(userId);
  forgetSearchIndex(userId);
}

export async function contactStats(db: Db, userId: string): Promise<ContactStats> {
  const cached = statsCache.get(userId);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.stats;
  const stats = await countContacts(db, userId);
  if (statsCache.size > 10_000) statsCache.clear();
  statsCache.set(userId, { stats, at: Date.now() });
  return stats;
}

async function countContacts(db: Db, userId: string): Promise<ContactStats> {
  const [r] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${contacts.isActive} and not ${contacts.optedOut})::int`,
      optedOut: sql<number>`count(*) filter (where ${contacts.optedOut})::int`,
    })
    .from(contacts)
    .where(eq(contacts.userId, userId));
  return { total: r.total, active: r.active, optedOut: r.optedOut };
}

/** One page of an account's contacts, searched on the server, with the totals the stat cards show. */
export async function listContactsPage(
  db: Db,
  account: Account,
  opts: { q?: string; page?: number; limit?: number },
): Promise<ContactPage> {
  const page = opts.page ?? 1;
  const limit = opts.limit ?? 50;
  const needle = searchNeedle(opts.q);
  const search = searchCondition(needle);
  const where = and(eq(contacts.userId, account.id), search);
  const offset = (page - 1) * limit;
  const stats = await contactStats(db, account.id);
  const contactLimit = contactLimitFor(account.planType);
  if (needle?.includes('\0')) {
    // No stored text holds a NUL (PostgreSQL refuses it, even as a query parameter): nothing matches.
    return { items: [], total: 0, totalIsLowerBound: false, page, limit, stats, contactLimit };
  }
  const found =
    needle !== undefined && stats.total >= searchIndexSettings.minContacts
      ? await searchContactIds(db, account.id, needle, offset, limit)
      : null;
  if (found) {
    // Large accounts are searched in this process's index (search-index.ts), then the page is read by id.
    const rows = found.ids.length
      ? await db
          .select(columns)
          .from(contacts)
          .where(and(eq(contacts.userId, account.id), inArray(contacts.id, found.ids)))
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = found.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toContact(row)] : [];
    });
    return { items, total: found.total, totalIsLowerBound: false, page, limit, stats, contactLimit };
  }
  // Deferred join: the offset walks the (user_id, search_text, id) index alone, then 50 rows are read.
  const pageIds = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.searchText), asc(contacts.id))
    .limit(limit)
    .offset(offset);
  const rows = await db
    .select(columns)
    .from(contacts)
    .where(inArray(contacts.id, pageIds))
    .orderBy(asc(contacts.searchText), asc(contacts.id));
  let total: number;
  let totalIsLowerBound = false;
  if (search === undefined) {
    // Without a search the total is the account's, already counted for the stat cards.
    total = stats.total;
  } else if (rows.length < limit && (rows.length > 0 || offset === 0)) {
    total = offset + rows.length;
  } else {
    // Counting every match of a common word in 100,000 contacts costs more than the page itself.
    const capped = db
      .select({ one: sql`1` })
      .from(contacts)
      .where(where)
      .limit(SEARCH_COUNT_CAP + 1)
      .as('capped');
    const [{ n }] = await db.select({ n: count() }).from(capped);
    total = Math.min(n, SEARCH_COUNT_CAP);
    totalIsLowerBound = n > SEARCH_COUNT_CAP;
  }
  return {
    items: rows.map(toContact),
    total,
    totalIsLowerBound,
    page,
    limit,
    stats,
    contactLimit,
  };
}

/**
 * Locks the account row for the rest of the transaction, so concurrent creates and imports of one
 * account count against the plan limit one after the other; answers how many contacts still fit.
 */
export async function lockRemainingSlots(tx: Tx, account: Account): Promise<number> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, account.id)).for('update');
  const limit = contactLimitFor(account.planType);
  if (limit === null) return Number.POSITIVE_INFINITY;
  const [{ n }] = await tx.select({ n: count() }).from(contacts).where(eq(contacts.userId, account.id));
  return Math.max(0, limit - n);
}

export function planLimitMessage(account: Account): string {
  return contactsMsg.planLimit(contactLimitFor(account.planType) ?? 0, planLabel(account.planType));
}

export type ContactFields = z.output<typeof contactInput>;

function parseInput(input: ContactFields) {
  const phone = normalizePhone(input.phone);
  if (!phone) throw new AppError('VALIDATION', contactsMsg.invalidPhone, { phone: contactsMsg.invalidPhone });
  return { ...input, phone };
}

function rethrowDuplicate(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw new AppError('CONFLICT', contactsMsg.duplicatePhone, { phone: contactsMsg.duplicatePhone });
  }
  throw err;
}

export async function createContact(db: Db, account: Account, body: ContactFields): Promise<Contact> {
  const input = parseInput(body);
  try {
    return await db.transaction(async (tx) => {
      if ((await lockRemainingSlots(tx, account)) < 1) throw new AppError('CONFLICT', planLimitMessage(account));
      const [row] = await tx
        .insert(contacts)
        .values({ ...input, userId: account.id })
        .returning(columns);
      return toContact(row);
    });
  } catch (err) {
    rethrowDuplicate(err);
  } finally {
    contactsChanged(account.id);
  }
}

export async function updateContact(db: Db, userId: string, id: string, body: ContactFields): Promise<Contact> {
  const input = parseInput(body);
  const [existing] = await db
    .select({ phone: contacts.phone })
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.userId, userId)));
  if (!existing) throw new AppError('NOT_FOUND', contactsMsg.notFound);
  // A changed number has not been checked on WhatsApp yet.
  const verification = existing.phone === input.phone ? {} : { isWhatsappActive: null, whatsappCheckedAt: null };
  try {
    const [row] = await db
      .update(contacts)
      .set({ ...input, ...verification })
      .where(and(eq(contacts.id, id), eq(contacts.userId, userId)))
      .returning(columns);
    if (!row) throw new AppError('NOT_FOUND', contactsMsg.notFound);
    contactsChanged(userId);
    return toContact(row);
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export async function deleteContact(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.userId, userId)))
    .returning({ id: contacts.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', contactsMsg.notFound);
  contactsChanged(userId);
}

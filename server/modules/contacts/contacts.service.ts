import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import {
  CONTACT_TAGS_LIST_MAX,
  type Contact,
  type ContactPage,
  type ContactStats,
  type ContactTagCount,
  type contactBulkInput,
  type contactInput,
  contactsMsg,
  TAGS_MAX,
} from '../../../contract/contacts';
import { contactLimitFor, planLabel } from '../../../contract/plans';
import { foldText } from '../../../contract/text-match';
import { lockAccount } from '../../db/account-lock';
import { accountSql, ofAccount } from '../../db/account-scope';
import { type BulkTable, type BulkValue, bulkInsert } from '../../db/bulk-insert';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { rowsOf } from '../../db/rows';
import type { UserRow } from '../../db/schema';
import { contacts } from '../../db/schema';
import { AppError } from '../../errors';
import type { AppState } from '../../lib/app-state';
import { timeOrderedIds } from '../../lib/ids';
import { normalizePhone } from '../../lib/phone';
import { contactsChanged, contactsState } from './contacts-state';
import { searchIndexSettings } from './search-index';

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
function searchNeedle(q: string | undefined): { needle: string; phoneLike: boolean } | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  const phoneLike = /^[\d\s()+\-.]+$/.test(text) && /\d/.test(text);
  return { needle: phoneLike ? text.replace(/\D/g, '') : foldText(text), phoneLike };
}

/**
 * A search matches the name or phone (`search_text`) or, for words, one of the account's tags that
 * contains them (case- and accent-insensitive). The words are compared once with the account's tag
 * list (kept like the stat cards) and the rows only by array overlap: reading every row's tags as
 * text made a search ten times slower (docs/decisions/020).
 */
function searchCondition(needle: string | undefined, tags: readonly string[] = []) {
  if (needle === undefined) return undefined;
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const byText = sql`${contacts.searchText} like ${pattern}`;
  if (tags.length === 0) return byText;
  return or(
    byText,
    sql`${contacts.tags} && array[${sql.join(
      tags.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`,
  );
}

/** The account's tags (of its listed ones) whose accent-free lower case contains the needle. */
async function tagsMatching(db: Db, state: AppState, userId: string, needle: string): Promise<string[]> {
  const tags = await listContactTags(db, state, userId);
  return tags.filter((t) => foldText(t.tag).includes(needle)).map((t) => t.tag);
}

/** The whole list, as SPEC §7 answers `GET /api/contacts` (name order). */
export async function listAllContacts(db: Db, userId: string): Promise<Contact[]> {
  const rows = await db
    .select(columns)
    .from(contacts)
    .where(ofAccount(contacts, userId))
    .orderBy(asc(contacts.searchText), asc(contacts.id));
  return rows.map(toContact);
}

/** A search counts its matches up to this many; the page says 'more than'. */
const SEARCH_COUNT_CAP = 1_000;

/**
 * The account's tags with how many contacts carry each, most used first, then by name; at most
 * CONTACT_TAGS_LIST_MAX. One grouped count over the account's rows (no index answers it better: each
 * contact is read once whatever the tag), kept like the stat cards' totals (contacts-state.ts).
 */
export async function listContactTags(db: Db, state: AppState, userId: string): Promise<ContactTagCount[]> {
  const cache = contactsState(state).tags;
  const cached = cache.get(userId);
  if (cached) return cached;
  const rows = rowsOf<{ tag: string; count: number }>(
    await db.execute(sql`
      select t.tag, count(*)::int as count
      from contacts c cross join lateral unnest(c.tags) as t(tag)
      where ${accountSql(userId, 'c.user_id')}
      group by t.tag
      order by count(*) desc, t.tag
      limit ${CONTACT_TAGS_LIST_MAX}`),
  );
  const tags = rows.map((r) => ({ tag: r.tag, count: r.count }));
  cache.set(userId, tags);
  return tags;
}

/** The stat cards' totals, kept for a few seconds (contacts-state.ts). */
export async function contactStats(db: Db, state: AppState, userId: string): Promise<ContactStats> {
  const cache = contactsState(state).stats;
  const cached = cache.get(userId);
  if (cached) return cached;
  const stats = await countContacts(db, userId);
  cache.set(userId, stats);
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
    .where(ofAccount(contacts, userId));
  return { total: r.total, active: r.active, optedOut: r.optedOut };
}

/** What the contacts list narrows to: its search box and its tag chip (`GET /api/contacts`'s q and tag). */
export interface ContactFilter {
  q?: string;
  tag?: string;
}

/**
 * The one reading of the list's filter, shared by the page and the export: the rows' condition
 * (undefined when nothing narrows the list), or `none` when nothing can match.
 */
export async function contactFilterCondition(
  db: Db,
  state: AppState,
  userId: string,
  opts: ContactFilter,
): Promise<
  { none: true } | { none: false; filter: SQL | undefined; needle?: string; matchedTags: string[]; tag?: string }
> {
  const searched = searchNeedle(opts.q);
  const needle = searched?.needle;
  // A tag is matched exactly as stored, as a campaign's tags are (server/sending/planner.ts).
  const tag = opts.tag || undefined;
  // No stored text holds a NUL (PostgreSQL refuses it, even as a query parameter): nothing matches.
  if (needle?.includes('\0') || tag?.includes('\0')) return { none: true };
  // Words may name tags; numbers are looked for in phones only.
  const matchedTags = searched && !searched.phoneLike ? await tagsMatching(db, state, userId, searched.needle) : [];
  const filter = and(
    searchCondition(needle, matchedTags),
    tag === undefined ? undefined : sql`${contacts.tags} @> array[${tag}]::text[]`,
  );
  return { none: false, filter, needle, matchedTags, tag };
}

/** One page of an account's contacts, searched on the server, with the totals the stat cards show. */
export async function listContactsPage(
  db: Db,
  state: AppState,
  account: Account,
  opts: ContactFilter & { page?: number; limit?: number },
): Promise<ContactPage> {
  const page = opts.page ?? 1;
  const limit = opts.limit ?? 50;
  const offset = (page - 1) * limit;
  const stats = await contactStats(db, state, account.id);
  const contactLimit = contactLimitFor(account.planType);
  const condition = await contactFilterCondition(db, state, account.id, opts);
  if (condition.none) {
    return { items: [], total: 0, totalIsLowerBound: false, page, limit, stats, contactLimit };
  }
  const { filter, needle, matchedTags, tag } = condition;
  // The index holds names and phones only: a search within a tag, or one that names a tag, is the database's.
  const found =
    needle !== undefined &&
    tag === undefined &&
    matchedTags.length === 0 &&
    stats.total >= searchIndexSettings.minContacts
      ? await contactsState(state).searchIndexes.search(db, account.id, needle, offset, limit)
      : null;
  if (found) {
    // Large accounts are searched in this app's index (search-index.ts), then the page is read by id.
    const rows = found.ids.length
      ? await db
          .select(columns)
          .from(contacts)
          .where(ofAccount(contacts, account.id, inArray(contacts.id, found.ids)))
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
    .where(ofAccount(contacts, account.id, filter))
    .orderBy(asc(contacts.searchText), asc(contacts.id))
    .limit(limit)
    .offset(offset);
  const rows = await db
    .select(columns)
    .from(contacts)
    .where(ofAccount(contacts, account.id, inArray(contacts.id, pageIds)))
    .orderBy(asc(contacts.searchText), asc(contacts.id));
  let total: number;
  let totalIsLowerBound = false;
  if (filter === undefined) {
    // Without a search or a tag the total is the account's, already counted for the stat cards.
    total = stats.total;
  } else if (rows.length < limit && (rows.length > 0 || offset === 0)) {
    total = offset + rows.length;
  } else {
    // Counting every match of a common word in 100,000 contacts costs more than the page itself.
    const capped = db
      .select({ one: sql`1` })
      .from(contacts)
      .where(ofAccount(contacts, account.id, filter))
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
 * Takes the account's contacts lock for the rest of the transaction, so concurrent creates, imports,
 * restores and contacts made by the chatbot (server/chatbot/conversations.ts) count against the plan
 * limit one after the other, in every process; answers how many contacts still fit.
 */
export async function lockRemainingSlots(tx: Tx, account: Account): Promise<number> {
  await lockAccount(tx as unknown as Db, account.id, 'contacts');
  const limit = contactLimitFor(account.planType);
  if (limit === null) return Number.POSITIVE_INFINITY;
  const [{ n }] = await tx.select({ n: count() }).from(contacts).where(ofAccount(contacts, account.id));
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

export async function createContact(db: Db, state: AppState, account: Account, body: ContactFields): Promise<Contact> {
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
    contactsChanged(state, account.id);
  }
}

export async function updateContact(
  db: Db,
  state: AppState,
  userId: string,
  id: string,
  body: ContactFields,
): Promise<Contact> {
  const input = parseInput(body);
  const [existing] = await db
    .select({ phone: contacts.phone })
    .from(contacts)
    .where(ofAccount(contacts, userId, eq(contacts.id, id)));
  if (!existing) throw new AppError('NOT_FOUND', contactsMsg.notFound);
  // A changed number has not been checked on WhatsApp yet.
  const verification = existing.phone === input.phone ? {} : { isWhatsappActive: null, whatsappCheckedAt: null };
  try {
    const [row] = await db
      .update(contacts)
      .set({ ...input, ...verification })
      .where(ofAccount(contacts, userId, eq(contacts.id, id)))
      .returning(columns);
    if (!row) throw new AppError('NOT_FOUND', contactsMsg.notFound);
    contactsChanged(state, userId);
    return toContact(row);
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export async function deleteContact(db: Db, state: AppState, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(contacts)
    .where(ofAccount(contacts, userId, eq(contacts.id, id)))
    .returning({ id: contacts.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', contactsMsg.notFound);
  contactsChanged(state, userId);
}

export type ContactBulkFields = z.output<typeof contactBulkInput>;

/**
 * Adds or removes one tag, or deletes, for the caller's contacts among `ids`. Every statement is
 * bounded by the account: an id of another account's contact, or of nothing, changes nothing and is
 * not counted. Adding leaves alone a contact that already has the tag or has TAGS_MAX tags (the
 * form's limit); the message says how many were left out for that.
 */
export async function bulkContacts(
  db: Db,
  state: AppState,
  userId: string,
  input: ContactBulkFields,
): Promise<{ affected: number; message: string }> {
  const ids = [...new Set(input.ids)];
  const mine = inArray(contacts.id, ids);
  const tag = input.tag ?? '';
  const hasTag = sql`${contacts.tags} @> array[${tag}]::text[]`;
  try {
    if (input.action === 'delete') {
      const deleted = await db
        .delete(contacts)
        .where(ofAccount(contacts, userId, mine))
        .returning({ id: contacts.id });
      return { affected: deleted.length, message: contactsMsg.bulkDeleted(deleted.length) };
    }
    if (input.action === 'untag') {
      const changed = await db
        .update(contacts)
        .set({ tags: sql`array_remove(${contacts.tags}, ${tag}::text)` })
        .where(ofAccount(contacts, userId, mine, hasTag))
        .returning({ id: contacts.id });
      return { affected: changed.length, message: contactsMsg.bulkUntagged(tag, changed.length) };
    }
    const changed = await db
      .update(contacts)
      .set({ tags: sql`array_append(${contacts.tags}, ${tag}::text)` })
      .where(ofAccount(contacts, userId, mine, sql`not ${hasTag}`, sql`cardinality(${contacts.tags}) < ${TAGS_MAX}`))
      .returning({ id: contacts.id });
    const [{ full }] = await db
      .select({ full: count() })
      .from(contacts)
      .where(ofAccount(contacts, userId, mine, sql`not ${hasTag}`));
    const message = contactsMsg.bulkTagged(tag, changed.length);
    return { affected: changed.length, message: full ? `${message} ${contactsMsg.bulkTagsFull(full)}` : message };
  } finally {
    contactsChanged(state, userId);
  }
}

// Restore (modules/backup): the rows of a backup's contacts, written here as contacts are.

/** A backup's contact, its number already normalised (modules/backup checks the file). */
export type RestoredContact = BackupFile['contacts'][number];

/** How a long restore gives the server's thread back: a turn now and then, a pause between batches. */
export interface RestorePace {
  next(): Promise<void>;
  pause(): Promise<void>;
}

/**
 * Contacts per statement on restore: on the embedded database a statement holds the server's
 * thread, and a batch this size takes 15–30 ms there (1,000: 30–80 ms; 5,000: 200–350).
 */
const RESTORE_BATCH = 500;

/**
 * New contacts as the bulk loader writes them (COPY), the account's id once per batch: an import
 * writes these columns; a restore adds what the backup knows (`restoreContacts`).
 */
export const contactRows = (userId: string, more: BulkTable['columns'] = []): BulkTable => ({
  table: 'contacts',
  fixed: [{ name: 'user_id', type: 'uuid', value: userId }],
  columns: [
    { name: 'id', type: 'uuid' },
    { name: 'name', type: 'text' },
    { name: 'phone', type: 'text' },
    { name: 'email', type: 'text' },
    { name: 'tags', type: 'text[]' },
    ...more,
  ],
});

const contactTable = (userId: string): BulkTable =>
  contactRows(userId, [
    { name: 'is_active', type: 'boolean' },
    { name: 'opted_out', type: 'boolean' },
    { name: 'is_whatsapp_active', type: 'boolean' },
    { name: 'whatsapp_checked_at', type: 'timestamptz' },
    { name: 'created_at', type: 'timestamptz' },
  ]);

/**
 * Contacts by phone. A number the account has is kept as it is; only what it lacks is filled in
 * (an empty e-mail, a WhatsApp check never made) and the backup's tags are added to its own. A new
 * number is added with everything the backup knows, while the plan has room (`slots`). A batch of
 * numbers per statement, a pause between batches. Answers the counts and each number's contact.
 */
export async function restoreContacts(
  t: Db,
  userId: string,
  list: RestoredContact[],
  slots: number,
  now: string,
  turns: RestorePace,
): Promise<{ counts: RestoreCounts; ids: Map<string, string | null> }> {
  const counts = zeroCounts();
  const ids = new Map<string, string | null>();
  type Own = { id: string; phone: string; email: string | null; tags: string[]; wa: boolean | null };
  const lookup = async (phones: string[]) =>
    new Map(
      rowsOf<Own>(
        await t.execute(sql`
          select id, phone, email, tags, is_whatsapp_active as wa from contacts
          where ${accountSql(userId)} and phone = any(${sql.param(phones)}::text[])`),
      ).map((c) => [c.phone, c]),
    );
  // A new account has nothing to look up; another is asked about each batch's numbers.
  const [{ n }] = rowsOf<{ n: number }>(
    await t.execute(sql`select count(*)::int as n from contacts where ${accountSql(userId)}`),
  );
  const spec = contactTable(userId);
  for (let i = 0; i < list.length; i += RESTORE_BATCH) {
    const batch = list.slice(i, i + RESTORE_BATCH);
    const existing = n === 0 ? new Map<string, Own>() : await lookup(batch.map((c) => c.phone));
    const updates: unknown[] = [];
    const fresh: RestoredContact[] = [];
    for (const c of batch) {
      const own = existing.get(c.phone);
      if (!own) {
        if (counts.added + fresh.length < slots) fresh.push(c);
        else counts.skipped++;
        continue;
      }
      ids.set(c.phone, own.id);
      const email = own.email || c.email;
      const tags = [...own.tags, ...c.tags.filter((tag) => !own.tags.includes(tag))];
      const fillCheck = own.wa === null && c.isWhatsAppActive !== null;
      if (email === own.email && tags.length === own.tags.length && !fillCheck) {
        counts.unchanged++;
        continue;
      }
      updates.push({
        phone: c.phone,
        email,
        tags,
        fill_check: fillCheck,
        wa: c.isWhatsAppActive,
        checked: c.whatsappCheckedAt,
      });
    }
    if (updates.length) {
      const done = rowsOf(
        await t.execute(sql`
          update contacts c set email = x.email, tags = x.tags,
            is_whatsapp_active = case when x.fill_check then x.wa else c.is_whatsapp_active end,
            whatsapp_checked_at = case when x.fill_check then x.checked else c.whatsapp_checked_at end
          from jsonb_to_recordset(${sql`${JSON.stringify(updates)}::jsonb`}) as x(phone text, email text, tags text[], fill_check boolean, wa boolean, checked timestamptz)
          where ${accountSql(userId, 'c.user_id')} and c.phone = x.phone
          returning c.id`),
      );
      counts.updated += done.length;
      await turns.next();
    }
    if (fresh.length) {
      const freshIds = timeOrderedIds(fresh.length);
      const rows: BulkValue[][] = fresh.map((c, k) => [
        freshIds[k],
        c.name,
        c.phone,
        c.email,
        c.tags,
        c.isActive,
        c.optedOut,
        c.isWhatsAppActive,
        c.whatsappCheckedAt,
        c.createdAt ?? now,
      ]);
      // Known numbers were left out above under the account lock; a number the chatbot added
      // meanwhile (it does not wait for that lock) is the account's own now, and the loader skips it.
      const inserted = await bulkInsert(t, spec, rows, { keysExcluded: true });
      counts.added += inserted;
      counts.unchanged += fresh.length - inserted;
      if (inserted === fresh.length) for (const [k, c] of fresh.entries()) ids.set(c.phone, freshIds[k]);
      else for (const own of (await lookup(fresh.map((c) => c.phone))).values()) ids.set(own.phone, own.id);
    }
    await turns.pause();
  }
  return { counts, ids };
}

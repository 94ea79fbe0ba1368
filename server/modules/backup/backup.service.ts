import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupBot,
  type BackupCampaign,
  type BackupContact,
  type BackupFile,
  type BackupGroup,
  type BackupRecipient,
  type BackupSavedMessage,
  type BackupSettings,
  backupCampaign,
  backupContact,
  backupFile,
  backupGroup,
  backupMsg,
  backupRecipient,
  backupSavedMessage,
  describeBackupPath,
  type RestoreCounts,
  type RestoreResult,
  restoreSummary,
} from '../../../contract/backup';
import {
  BOT_REPLIES_MAX,
  type BotButton,
  DEFAULT_BOT_CONFIG,
  normalizeForMatch,
  weekdays,
} from '../../../contract/bot';
import { campaignMsg } from '../../../contract/campaigns';
import { contactsMsg } from '../../../contract/contacts';
import { unknownVariable } from '../../../contract/personalize';
import { contactLimitFor, planLabel } from '../../../contract/plans';
import { isHttpUrl, SAVED_MESSAGE_TEXT_MAX, savedMessagesMsg } from '../../../contract/saved-messages';
import { UPLOAD_REF_PREFIX } from '../../../contract/uploads';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import {
  accountSettings,
  autoReplies,
  botConfigs,
  campaignRecipients,
  campaigns,
  contacts,
  groups,
  savedMessages,
} from '../../db/schema';
import { AppError } from '../../errors';
import { timeOrderedIds } from '../../lib/ids';
import { normalizePhone } from '../../lib/phone';
import { sanitizeMessageHtml, savedMessageText } from '../../lib/whatsapp-format';
import { getBotConfig } from '../chatbot/bot-config.service';
import { type Account, contactsChanged, lockRemainingSlots } from '../contacts/contacts.service';
import { getAccountSettings } from '../settings/account-settings.service';

/** Rows read per query while the file streams out, and written per statement on restore. */
const CONTACTS_PAGE = 2_000;
const RECIPIENTS_PAGE = 5_000;
const WRITE_BATCH = 5_000;
const ROW_BATCH = 500;
/** A restore this large is followed by a vacuum (as a large import is; PGlite has no autovacuum). */
const VACUUM_AFTER_ROWS = 5_000;

/** Without nulls: the file stays small (each of these fields is optional in the format). */
function compact<T extends Record<string, unknown>>(o: T): T {
  for (const key of Object.keys(o)) if (o[key] === null || o[key] === undefined) delete o[key];
  return o;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

// Export

async function settingsSection(db: Db, userId: string): Promise<BackupSettings> {
  const s = await getAccountSettings(db, userId);
  return {
    whatsapp: {
      autoReconnect: s.autoReconnect,
      messageDelay: s.messageDelay,
      dailyLimit: s.dailyLimit,
      respectBusinessHours: s.respectBusinessHours,
      businessStart: s.businessStart,
      businessEnd: s.businessEnd,
    },
    businessDays: weekdays.filter((d) => s.businessDays.includes(d)),
    notifications: {
      emailNotifications: s.emailNotifications,
      pushNotifications: s.pushNotifications,
      campaignUpdates: s.campaignUpdates,
      systemAlerts: s.systemAlerts,
      marketingEmails: s.marketingEmails,
    },
  };
}

async function botSection(db: Db, userId: string): Promise<BackupBot> {
  const c = await getBotConfig(db, userId, { aiAvailable: false });
  return {
    isEnabled: c.isEnabled,
    welcomeMessage: c.welcomeMessage,
    aiEnabled: c.aiEnabled,
    aiModel: c.aiModel,
    outOfHoursMessage: c.outOfHoursMessage,
    aiInstructions: c.aiInstructions,
    handoffMinutes: c.handoffMinutes,
    autoReplies: c.autoReplies.map((r) => ({
      trigger: r.trigger,
      response: r.response,
      type: r.type,
      buttons: r.buttons,
      imageUrl: r.imageUrl,
      isActive: r.isActive,
    })),
  };
}

async function groupsSection(db: Db, userId: string): Promise<BackupGroup[]> {
  const rows = await db
    .select()
    .from(groups)
    .where(eq(groups.userId, userId))
    .orderBy(asc(groups.createdAt), asc(groups.id));
  return rows.map((g) => ({
    name: g.name,
    whatsappGroupId: g.whatsappGroupId,
    membersCount: g.membersCount,
    isActive: g.isActive,
    createdAt: g.createdAt.toISOString(),
  }));
}

async function savedMessagesSection(db: Db, userId: string): Promise<BackupSavedMessage[]> {
  const rows = await db
    .select()
    .from(savedMessages)
    .where(eq(savedMessages.userId, userId))
    .orderBy(asc(savedMessages.createdAt), asc(savedMessages.id));
  return rows.map((m) =>
    compact({
      title: m.title,
      type: m.type,
      enableMessage: m.enableMessage,
      hasImage: m.hasImage,
      imageUrl: m.imageUrl,
      imageFile: m.imageFile,
      uploadId: m.uploadId,
      content: m.content,
      contentType: m.contentType,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
    }),
  );
}

const contactColumns = {
  name: contacts.name,
  phone: contacts.phone,
  email: contacts.email,
  tags: contacts.tags,
  isActive: contacts.isActive,
  optedOut: contacts.optedOut,
  isWhatsappActive: contacts.isWhatsappActive,
  whatsappCheckedAt: contacts.whatsappCheckedAt,
  createdAt: contacts.createdAt,
};

function toBackupContact(c: { [K in keyof typeof contactColumns]: (typeof contacts.$inferSelect)[K] }): BackupContact {
  return compact({
    name: c.name,
    phone: c.phone,
    email: c.email,
    tags: c.tags,
    isActive: c.isActive,
    optedOut: c.optedOut,
    isWhatsAppActive: c.isWhatsappActive,
    whatsappCheckedAt: iso(c.whatsappCheckedAt),
    createdAt: c.createdAt.toISOString(),
  });
}

function toBackupCampaign(c: typeof campaigns.$inferSelect): Omit<BackupCampaign, 'recipients'> {
  return compact({
    name: c.name,
    message: c.message,
    status: c.status,
    targetType: c.targetType,
    targetGroups: c.targetGroups,
    targetTags: c.targetTags,
    imageUrl: c.imageUrl,
    templateName: c.templateName,
    templateLanguage: c.templateLanguage,
    templateVariables: c.templateVariables as BackupCampaign['templateVariables'],
    scheduledAt: iso(c.scheduledAt),
    startedAt: iso(c.startedAt),
    finishedAt: iso(c.finishedAt),
    pauseReason: c.pauseReason,
    createdAt: c.createdAt.toISOString(),
  });
}

function toBackupRecipient(r: typeof campaignRecipients.$inferSelect): BackupRecipient {
  return compact({
    recipient: r.recipient,
    kind: r.kind,
    name: r.name,
    email: r.email,
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    queuedAt: r.createdAt.toISOString(),
    sentAt: iso(r.sentAt),
    deliveredAt: iso(r.deliveredAt),
    readAt: iso(r.readAt),
    failedAt: iso(r.failedAt),
  });
}

/**
 * The account's backup as JSON text, a piece at a time. The small sections are read before the
 * first byte goes out (a failure there is an ordinary error answer); contacts and recipient lines
 * follow page by page (keyset on their unique keys), so an account of 100,000 contacts never sits
 * in memory whole. Pages are read outside a transaction: on the embedded database an open
 * transaction would hold its one connection for as long as the download takes.
 */
export async function exportBackup(db: Db, userId: string): Promise<AsyncGenerator<string>> {
  const head = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: new Date().toISOString(),
    settings: await settingsSection(db, userId),
    bot: await botSection(db, userId),
    groups: await groupsSection(db, userId),
    savedMessages: await savedMessagesSection(db, userId),
  };
  const campaignRows = await db
    .select()
    .from(campaigns)
    .where(eq(campaigns.userId, userId))
    .orderBy(asc(campaigns.createdAt), asc(campaigns.id));
  return streamBackup(db, userId, JSON.stringify(head).slice(0, -1), campaignRows);
}

async function* streamBackup(
  db: Db,
  userId: string,
  head: string,
  campaignRows: Array<typeof campaigns.$inferSelect>,
): AsyncGenerator<string> {
  yield `${head},"contacts":[`;
  let after = '';
  let first = true;
  for (;;) {
    const rows = await db
      .select(contactColumns)
      .from(contacts)
      .where(and(eq(contacts.userId, userId), gt(contacts.phone, after)))
      .orderBy(asc(contacts.phone))
      .limit(CONTACTS_PAGE);
    if (!rows.length) break;
    yield `${first ? '' : ','}${rows.map((r) => JSON.stringify(toBackupContact(r))).join(',')}`;
    first = false;
    after = rows[rows.length - 1].phone;
    if (rows.length < CONTACTS_PAGE) break;
  }
  yield '],"campaigns":[';
  for (const [i, c] of campaignRows.entries()) {
    yield `${i ? ',' : ''}${JSON.stringify(toBackupCampaign(c)).slice(0, -1)},"recipients":[`;
    let afterRecipient = '';
    let firstPage = true;
    for (;;) {
      const rows = await db
        .select()
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.campaignId, c.id), gt(campaignRecipients.recipient, afterRecipient)))
        .orderBy(asc(campaignRecipients.recipient))
        .limit(RECIPIENTS_PAGE);
      if (!rows.length) break;
      yield `${firstPage ? '' : ','}${rows.map((r) => JSON.stringify(toBackupRecipient(r))).join(',')}`;
      firstPage = false;
      afterRecipient = rows[rows.length - 1].recipient;
      if (rows.length < RECIPIENTS_PAGE) break;
    }
    yield ']}';
  }
  yield ']}';
}

// Restore: reading and checking the file

type ParsedContact = z.output<typeof backupFile>['contacts'][number];

function refuse(path: ReadonlyArray<PropertyKey>, problem: string): AppError {
  const where = describeBackupPath(path);
  return new AppError('VALIDATION', backupMsg.invalid(where, problem), {
    [path.map(String).join('.') || '_']: problem,
  });
}

const E164 = /^\+\d{7,15}$/;
const UPLOAD_REF = /^upload:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Bounds on a backup's JSON, checked on its text before it is parsed. JSON.parse builds every value
 * at once on the thread that answers everybody: 50 MB of `{},{},…` are sixteen million objects
 * (over a gigabyte and many seconds), and `[[[[…` millions deep costs as much. A backup this server
 * writes is a few levels deep, spends more than 60 bytes on each object or array (a contact is
 * two, a recipient line one) and has a few dozen keys per object.
 */
const JSON_MAX_DEPTH = 32;
const JSON_MAX_CONTAINERS = 1_000_000;
const JSON_MAX_ITEMS = 5_000_000;
const JSON_MAX_KEYS = 1_000;

function checkJsonShape(text: string): void {
  const tooComplex = () => new AppError('VALIDATION', backupMsg.tooComplex);
  // Per open level: the keys of an object so far, or -1 for an array.
  const keys: number[] = [];
  let depth = 0;
  let containers = 0;
  let items = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: nothing inside it counts.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > JSON_MAX_DEPTH || ++containers > JSON_MAX_CONTAINERS) throw tooComplex();
      keys[depth] = c === 0x7b ? 1 : -1;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2c) {
      if (++items > JSON_MAX_ITEMS) throw tooComplex();
      if (depth > 0 && keys[depth] >= 0 && ++keys[depth] > JSON_MAX_KEYS) throw tooComplex();
    }
  }
}

/** The first issue of a refused part of the file, where it is in the whole file. */
function refuseIssue(path: ReadonlyArray<PropertyKey>, error: z.ZodError): AppError {
  const issue = error.issues[0];
  return refuse([...path, ...issue.path], issue.message);
}

/**
 * A section's items checked one at a time, stopping at the first bad one: checked whole, a section
 * of a million broken items makes zod collect an issue for every one (gigabytes, minutes).
 */
function parseItems<T extends z.ZodType>(items: unknown, item: T, path: PropertyKey[]): z.output<T>[] {
  if (items === undefined) return [];
  if (!Array.isArray(items)) {
    const whole = z.array(item).safeParse(items);
    if (!whole.success) throw refuseIssue(path, whole.error);
    return whole.data;
  }
  return items.map((value, i) => parseItem(value, item, [...path, i]));
}

function parseItem<T extends z.ZodType>(value: unknown, item: T, path: PropertyKey[]): z.output<T> {
  const parsed = item.safeParse(value);
  if (!parsed.success) throw refuseIssue(path, parsed.error);
  return parsed.data;
}

/** A campaign without its recipient lines, which are checked one at a time after it. */
const campaignWithoutLines = backupCampaign.extend({ recipients: z.unknown().optional() });

/**
 * The whole file read and checked before anything is written: JSON in UTF-8 within the bounds
 * above, our format and version, every section against its schema (item by item, in the file's
 * order), then what a schema cannot say (numbers that are not phone numbers, a number or a group
 * twice, unknown message variables, HTML that sanitises to nothing). The first problem is answered
 * as a 400 naming where it is.
 */
export function parseBackup(data: Buffer): BackupFile {
  if (!data.length) throw new AppError('VALIDATION', backupMsg.emptyFile);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data).replace(/^\uFEFF/, '');
  } catch {
    throw new AppError('VALIDATION', backupMsg.notJson);
  }
  checkJsonShape(text);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION', backupMsg.notJson);
  }
  if (
    typeof raw !== 'object' ||
    raw === null ||
    Array.isArray(raw) ||
    (raw as { format?: unknown }).format !== BACKUP_FORMAT
  ) {
    throw new AppError('VALIDATION', backupMsg.notBackup);
  }
  const version = (raw as { version?: unknown }).version;
  if (version !== BACKUP_VERSION) throw new AppError('VALIDATION', backupMsg.unsupportedVersion(version));
  const { groups, savedMessages, contacts, campaigns, ...head } = raw as Record<string, unknown>;
  const parsed = backupFile.safeParse(head);
  if (!parsed.success) throw refuseIssue([], parsed.error);
  const backup = parsed.data;
  backup.groups = parseItems(groups, backupGroup, ['groups']);
  backup.savedMessages = parseItems(savedMessages, backupSavedMessage, ['savedMessages']);
  backup.contacts = parseItems(contacts, backupContact, ['contacts']);
  backup.campaigns = parseItems(campaigns, z.unknown(), ['campaigns']).map((value, i) => {
    const campaign = parseItem(value, campaignWithoutLines, ['campaigns', i]);
    return {
      ...campaign,
      recipients: parseItems(campaign.recipients, backupRecipient, ['campaigns', i, 'recipients']),
    };
  });

  const phones = new Set<string>();
  for (const [i, c] of backup.contacts.entries()) {
    const phone = normalizePhone(c.phone) ?? (E164.test(c.phone) ? c.phone : null);
    if (!phone) throw refuse(['contacts', i, 'phone'], contactsMsg.invalidPhone);
    if (phones.has(phone)) throw refuse(['contacts', i, 'phone'], backupMsg.duplicatePhone);
    phones.add(phone);
    c.phone = phone;
    c.name ||= phone;
  }
  const groupNames = new Set<string>();
  for (const [i, g] of backup.groups.entries()) {
    const key = g.name.toLowerCase();
    if (groupNames.has(key)) throw refuse(['groups', i, 'name'], backupMsg.duplicateGroup);
    groupNames.add(key);
  }
  for (const [i, m] of backup.savedMessages.entries()) {
    // The same rules as a saved message written in the app: HTML sanitised, WhatsApp's length.
    if (m.contentType === 'html') m.content = sanitizeMessageHtml(m.content);
    const text = savedMessageText(m);
    if (!text.trim()) throw refuse(['savedMessages', i, 'content'], savedMessagesMsg.contentRequired);
    if (text.length > SAVED_MESSAGE_TEXT_MAX)
      throw refuse(['savedMessages', i, 'content'], savedMessagesMsg.contentTooLong);
    if (m.hasImage && m.imageUrl && !isHttpUrl(m.imageUrl))
      throw refuse(['savedMessages', i, 'imageUrl'], savedMessagesMsg.imageUrlInvalid);
  }
  for (const [i, c] of backup.campaigns.entries()) {
    const unknown = unknownVariable(c.message);
    if (unknown) throw refuse(['campaigns', i, 'message'], campaignMsg.unknownVariable(unknown));
    if (c.imageUrl && !UPLOAD_REF.test(c.imageUrl) && !isHttpUrl(c.imageUrl))
      throw refuse(['campaigns', i, 'imageUrl'], backupMsg.imageInvalid);
  }
  return backup;
}

// Restore: writing

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
const zero = (): RestoreCounts => ({ added: 0, updated: 0, unchanged: 0, skipped: 0 });

/** One JSON parameter a statement reads as rows (jsonb_to_recordset): a batch in one round trip. */
const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;

/**
 * Contacts by phone. A number the account has is kept as it is; only what it lacks is filled in
 * (an empty e-mail, a WhatsApp check never made) and the backup's tags are added to its own. A new
 * number is added with everything the backup knows, while the plan has room (`slots`).
 */
async function restoreContacts(t: Db, userId: string, list: ParsedContact[], slots: number): Promise<RestoreCounts> {
  const counts = zero();
  type Own = { phone: string; email: string | null; tags: string[]; wa: boolean | null };
  const lookup = (where: ReturnType<typeof sql>) =>
    t
      .execute(
        sql`select phone, email, tags, is_whatsapp_active as wa from contacts where user_id = ${userId} ${where}`,
      )
      .then((r) => new Map(rowsOf<Own>(r).map((c) => [c.phone, c])));
  // As the import does: an account no larger than the file is read whole once (nothing at all when
  // it is new); a larger one is asked about each batch's numbers.
  const [{ n }] = rowsOf<{ n: number }>(
    await t.execute(sql`select count(*)::int as n from contacts where user_id = ${userId}`),
  );
  const whole = n === 0 ? new Map<string, Own>() : n <= list.length ? await lookup(sql``) : null;
  for (let i = 0; i < list.length; i += WRITE_BATCH) {
    const batch = list.slice(i, i + WRITE_BATCH);
    const existing = whole ?? (await lookup(sql`and phone = any(${sql.param(batch.map((c) => c.phone))}::text[])`));
    const updates: unknown[] = [];
    const fresh: ParsedContact[] = [];
    for (const c of batch) {
      const own = existing.get(c.phone);
      if (!own) {
        if (counts.added + fresh.length < slots) fresh.push(c);
        else counts.skipped++;
        continue;
      }
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
          from jsonb_to_recordset(${json(updates)}) as x(phone text, email text, tags text[], fill_check boolean, wa boolean, checked timestamptz)
          where c.user_id = ${userId} and c.phone = x.phone
          returning c.id`),
      );
      counts.updated += done.length;
    }
    if (fresh.length) {
      const ids = timeOrderedIds(fresh.length);
      const rows = fresh.map((c, n) => ({
        id: ids[n],
        name: c.name,
        phone: c.phone,
        email: c.email,
        tags: c.tags,
        is_active: c.isActive,
        opted_out: c.optedOut,
        wa: c.isWhatsAppActive,
        checked: c.whatsappCheckedAt,
        created_at: c.createdAt ?? null,
      }));
      const inserted = rowsOf(
        await t.execute(sql`
          insert into contacts (id, user_id, name, phone, email, tags, is_active, opted_out, is_whatsapp_active, whatsapp_checked_at, created_at)
          select x.id, ${userId}, x.name, x.phone, x.email, x.tags, x.is_active, x.opted_out, x.wa, x.checked, coalesce(x.created_at, now())
          from jsonb_to_recordset(${json(rows)}) as x(id uuid, name text, phone text, email text, tags text[],
            is_active boolean, opted_out boolean, wa boolean, checked timestamptz, created_at timestamptz)
          on conflict (user_id, phone) do nothing
          returning id`),
      ).length;
      // A number the chatbot added meanwhile (it does not wait for the account lock) is the account's own now.
      counts.added += inserted;
      counts.unchanged += fresh.length - inserted;
    }
  }
  return counts;
}

/** Groups by name (case ignored, as the app keeps them unique): a known one only gets a missing WhatsApp link. */
async function restoreGroups(t: Db, userId: string, list: BackupFile['groups']): Promise<RestoreCounts> {
  const counts = zero();
  const existing = new Map(
    (await t.select().from(groups).where(eq(groups.userId, userId))).map((g) => [g.name.toLowerCase(), g]),
  );
  const fresh: Array<typeof groups.$inferInsert> = [];
  for (const g of list) {
    const own = existing.get(g.name.toLowerCase());
    if (!own) {
      fresh.push({
        userId,
        name: g.name,
        whatsappGroupId: g.whatsappGroupId,
        membersCount: g.membersCount,
        isActive: g.isActive,
        ...(g.createdAt && { createdAt: new Date(g.createdAt) }),
      });
    } else if (!own.whatsappGroupId && g.whatsappGroupId) {
      await t.update(groups).set({ whatsappGroupId: g.whatsappGroupId }).where(eq(groups.id, own.id));
      counts.updated++;
    } else {
      counts.unchanged++;
    }
  }
  for (let i = 0; i < fresh.length; i += ROW_BATCH) {
    // A group of that name created meanwhile (the groups screen takes no account lock) is the account's own.
    const batch = fresh.slice(i, i + ROW_BATCH);
    const added = await t.insert(groups).values(batch).onConflictDoNothing().returning({ id: groups.id });
    counts.added += added.length;
    counts.unchanged += batch.length - added.length;
  }
  return counts;
}

/** Counts of a key in a list, so that the k-th copy in a backup matches the k-th copy in the account. */
function multiset(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}
function takeFrom(m: Map<string, number>, key: string): boolean {
  const n = m.get(key) ?? 0;
  if (n > 0) m.set(key, n - 1);
  return n > 0;
}

/** Saved messages by title, content type and content: one the account has is not added again. */
async function restoreSavedMessages(
  t: Db,
  userId: string,
  list: BackupFile['savedMessages'],
  uploads: Set<string>,
): Promise<RestoreCounts> {
  const counts = zero();
  const key = (m: { title: string; contentType: string; content: string }) =>
    JSON.stringify([m.title, m.contentType, m.content]);
  const own = multiset(
    (
      await t
        .select({ title: savedMessages.title, contentType: savedMessages.contentType, content: savedMessages.content })
        .from(savedMessages)
        .where(eq(savedMessages.userId, userId))
    ).map(key),
  );
  const fresh: Array<typeof savedMessages.$inferInsert> = [];
  for (const m of list) {
    if (takeFrom(own, key(m))) {
      counts.unchanged++;
      continue;
    }
    // An uploaded image travels as a reference only: it is kept where the upload is the account's own.
    const uploadId = m.uploadId && uploads.has(m.uploadId.toLowerCase()) ? m.uploadId : null;
    const hasImage = m.hasImage && (!!uploadId || isHttpUrl(m.imageUrl));
    fresh.push({
      userId,
      title: m.title,
      type: m.type,
      enableMessage: m.enableMessage,
      hasImage,
      imageUrl: hasImage ? m.imageUrl : '',
      imageFile: hasImage ? m.imageFile : '',
      uploadId: hasImage ? uploadId : null,
      content: m.content,
      contentType: m.contentType,
      ...(m.createdAt && { createdAt: new Date(m.createdAt) }),
      ...(m.updatedAt && { updatedAt: new Date(m.updatedAt) }),
    });
  }
  for (let i = 0; i < fresh.length; i += ROW_BATCH) await t.insert(savedMessages).values(fresh.slice(i, i + ROW_BATCH));
  counts.added += fresh.length;
  return counts;
}

/**
 * The bot: an account that never saved a configuration takes the backup's; one that did keeps its
 * own, with its empty texts (welcome, out-of-hours, AI instructions) filled from the backup. Rules
 * by keyword (as the matcher compares them): a keyword the account has keeps its rule; the others
 * are added after its own, up to the limit of rules.
 */
async function restoreBot(
  t: Db,
  userId: string,
  bot: NonNullable<BackupFile['bot']>,
  aiAvailable: boolean,
): Promise<{ config: RestoreCounts; rules: RestoreCounts }> {
  const config = zero();
  const rules = zero();
  const [row] = await t.select().from(botConfigs).where(eq(botConfigs.userId, userId));
  const existing = await t
    .select({ trigger: autoReplies.trigger, position: autoReplies.position })
    .from(autoReplies)
    .where(eq(autoReplies.userId, userId));
  const triggers = new Set(existing.map((r) => normalizeForMatch(r.trigger)));
  let position = existing.reduce((max, r) => Math.max(max, r.position + 1), 0);
  const fresh: Array<typeof autoReplies.$inferInsert> = [];
  for (const r of bot.autoReplies) {
    const key = normalizeForMatch(r.trigger);
    if (triggers.has(key)) {
      rules.unchanged++;
      continue;
    }
    if (existing.length + fresh.length >= BOT_REPLIES_MAX) {
      rules.skipped++;
      continue;
    }
    triggers.add(key);
    fresh.push({
      userId,
      trigger: r.trigger,
      response: r.response,
      type: r.type,
      buttons: r.buttons satisfies BotButton[],
      imageUrl: r.imageUrl,
      isActive: r.isActive,
      position: position++,
    });
  }
  for (let i = 0; i < fresh.length; i += ROW_BATCH) await t.insert(autoReplies).values(fresh.slice(i, i + ROW_BATCH));
  rules.added = fresh.length;

  const d = DEFAULT_BOT_CONFIG;
  if (!row) {
    const [created] = await t
      .insert(botConfigs)
      .values({
        userId,
        isEnabled: bot.isEnabled ?? d.isEnabled,
        welcomeMessage: (bot.welcomeMessage ?? d.welcomeMessage).trim(),
        // AI needs a key on this server: without one it stays off, as the bot settings would keep it.
        aiEnabled: (bot.aiEnabled ?? d.aiEnabled) && aiAvailable,
        aiModel: bot.aiModel ?? d.aiModel,
        outOfHoursMessage: (bot.outOfHoursMessage ?? d.outOfHoursMessage).trim(),
        aiInstructions: (bot.aiInstructions ?? d.aiInstructions).trim(),
        handoffMinutes: bot.handoffMinutes ?? d.handoffMinutes,
      })
      // Saved meanwhile from the bot settings: theirs wins.
      .onConflictDoNothing()
      .returning({ userId: botConfigs.userId });
    if (created) config.added = 1;
    else config.unchanged = 1;
    return { config, rules };
  }
  const fill = {
    ...(!row.welcomeMessage && bot.welcomeMessage?.trim() && { welcomeMessage: bot.welcomeMessage.trim() }),
    ...(!row.outOfHoursMessage && bot.outOfHoursMessage?.trim() && { outOfHoursMessage: bot.outOfHoursMessage.trim() }),
    ...(!row.aiInstructions && bot.aiInstructions?.trim() && { aiInstructions: bot.aiInstructions.trim() }),
  };
  const filled = Object.keys(fill).length > 0;
  if (filled || fresh.length) {
    // Touched whenever rules change too: the chatbot of every process recompiles when updated_at moves.
    await t
      .update(botConfigs)
      .set({ ...fill, updatedAt: new Date() })
      .where(eq(botConfigs.userId, userId));
  }
  if (filled) config.updated = 1;
  else config.unchanged = 1;
  return { config, rules };
}

/** Settings: an account that never saved any takes the backup's; one that did keeps its own. */
async function restoreSettings(t: Db, userId: string, s: NonNullable<BackupFile['settings']>): Promise<RestoreCounts> {
  const counts = zero();
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

const SENT_OR_AFTER = new Set(['sent', 'delivered', 'read', 'failed', 'skipped']);

/**
 * A restored campaign is never sent again. Drafts stay drafts; a scheduled one becomes a draft (its
 * time would otherwise start it); one that was going out or paused is restored cancelled; finished
 * ones keep their status. Recipient lines not yet sent become skipped with the reason.
 */
function restoredStatus(status: BackupCampaign['status']): BackupCampaign['status'] {
  if (status === 'scheduled') return 'draft';
  if (status === 'sending' || status === 'in_progress' || status === 'paused') return 'cancelled';
  return status;
}

/**
 * Campaigns by name and creation date (ids are not carried: another account may hold the same id),
 * each with its recipient lines, which point at the account's contact with the same number.
 */
async function restoreCampaigns(
  t: Db,
  userId: string,
  list: BackupFile['campaigns'],
  uploads: Set<string>,
): Promise<{ counts: RestoreCounts; recipients: number }> {
  const counts = zero();
  const key = (name: string, createdAt: Date) => JSON.stringify([name, createdAt.toISOString()]);
  const own = multiset(
    (
      await t
        .select({ name: campaigns.name, createdAt: campaigns.createdAt })
        .from(campaigns)
        .where(eq(campaigns.userId, userId))
    ).map((c) => key(c.name, c.createdAt)),
  );
  let recipients = 0;
  for (const c of list) {
    if (takeFrom(own, key(c.name, new Date(c.createdAt)))) {
      counts.unchanged++;
      continue;
    }
    const status = restoredStatus(c.status);
    const upload = c.imageUrl ? UPLOAD_REF.exec(c.imageUrl)?.[1]?.toLowerCase() : undefined;
    const imageUrl = upload ? (uploads.has(upload) ? `${UPLOAD_REF_PREFIX}${upload}` : null) : c.imageUrl;
    const [row] = await t
      .insert(campaigns)
      .values({
        userId,
        name: c.name,
        message: c.message,
        status,
        targetType: c.targetType,
        targetGroups: c.targetGroups,
        targetTags: c.targetTags,
        imageUrl,
        templateName: c.templateName,
        templateLanguage: c.templateLanguage,
        templateVariables: c.templateVariables,
        scheduledAt: status !== 'draft' && c.scheduledAt ? new Date(c.scheduledAt) : null,
        pauseReason: c.pauseReason,
        createdAt: new Date(c.createdAt),
        startedAt: c.startedAt ? new Date(c.startedAt) : null,
        finishedAt: c.finishedAt ? new Date(c.finishedAt) : status === 'cancelled' ? new Date() : null,
      })
      .returning({ id: campaigns.id });
    counts.added++;
    for (let i = 0; i < c.recipients.length; i += WRITE_BATCH) {
      const rows = c.recipients.slice(i, i + WRITE_BATCH).map((r) => {
        const done = SENT_OR_AFTER.has(r.status);
        return {
          recipient: r.recipient,
          kind: r.kind,
          name: r.name,
          email: r.email,
          status: done ? r.status : 'skipped',
          error: done ? r.error : backupMsg.recipientNotSent,
          attempts: r.attempts,
          queued_at: r.queuedAt ?? null,
          sent_at: r.sentAt,
          delivered_at: r.deliveredAt,
          read_at: r.readAt,
          failed_at: r.failedAt,
        };
      });
      recipients += rowsOf(
        await t.execute(sql`
          insert into campaign_recipients (campaign_id, user_id, contact_id, recipient, kind, name, email, status, error,
            attempts, created_at, due_at, sent_at, delivered_at, read_at, failed_at)
          select ${row.id}, ${userId}, c.id, x.recipient, x.kind, x.name, x.email, x.status, x.error, x.attempts,
            coalesce(x.queued_at, now()), coalesce(x.queued_at, now()), x.sent_at, x.delivered_at, x.read_at, x.failed_at
          from jsonb_to_recordset(${json(rows)}) as x(recipient text, kind text, name text, email text, status text,
            error text, attempts int, queued_at timestamptz, sent_at timestamptz, delivered_at timestamptz,
            read_at timestamptz, failed_at timestamptz)
          left join contacts c on x.kind = 'contact' and c.user_id = ${userId}
            and c.phone = case when x.recipient like '+%' then x.recipient else '+' || x.recipient end
          on conflict on constraint campaign_recipients_campaign_recipient_key do nothing
          returning 1`),
      ).length;
    }
  }
  return { counts, recipients };
}

/**
 * Merges a backup into the account in one transaction: nothing is deleted, nothing duplicated,
 * and what the account already has wins over the backup (only what it lacks is filled in). The
 * plan's contact limit applies as it does to an import. Restoring the same file again changes nothing.
 */
export async function restoreBackup(
  db: Db,
  account: Account,
  data: Buffer,
  opts: { aiAvailable: boolean },
): Promise<RestoreResult> {
  const backup = parseBackup(data);
  const userId = account.id;
  const result = await db.transaction(async (tx: Tx) => {
    // The account lock of contact writes: concurrent restores, imports and creates take turns.
    const slots = await lockRemainingSlots(tx, account);
    const t = tx as unknown as Db;
    const uploads = new Set(
      rowsOf<{ id: string }>(await t.execute(sql`select id from media_uploads where user_id = ${userId}`)).map((r) =>
        r.id.toLowerCase(),
      ),
    );
    const settings = backup.settings ? await restoreSettings(t, userId, backup.settings) : zero();
    const bot = backup.bot
      ? await restoreBot(t, userId, backup.bot, opts.aiAvailable)
      : { config: zero(), rules: zero() };
    const groupCounts = await restoreGroups(t, userId, backup.groups);
    const messageCounts = await restoreSavedMessages(t, userId, backup.savedMessages, uploads);
    const contactCounts = await restoreContacts(t, userId, backup.contacts, slots);
    // After the contacts: recipient lines point at the account's contact with their number.
    const campaignResult = await restoreCampaigns(t, userId, backup.campaigns, uploads);
    return {
      counts: {
        contacts: contactCounts,
        groups: groupCounts,
        savedMessages: messageCounts,
        campaigns: campaignResult.counts,
        autoReplies: bot.rules,
        botConfig: bot.config,
        settings,
      },
      recipients: campaignResult.recipients,
    };
  });
  contactsChanged(userId);
  const { counts } = result;
  if (counts.contacts.added >= VACUUM_AFTER_ROWS) void db.execute(sql`vacuum analyze contacts`).catch(() => undefined);
  if (result.recipients >= VACUUM_AFTER_ROWS)
    void db.execute(sql`vacuum analyze campaign_recipients`).catch(() => undefined);

  const notes: string[] = [];
  const limit = contactLimitFor(account.planType);
  if (counts.contacts.skipped && limit !== null)
    notes.push(backupMsg.contactsOverLimit(counts.contacts.skipped, limit, planLabel(account.planType)));
  if (counts.autoReplies.skipped) notes.push(backupMsg.repliesOverLimit(counts.autoReplies.skipped));
  return { success: true, message: restoreSummary(counts, notes), ...counts };
}

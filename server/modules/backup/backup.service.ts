import { createHash } from 'node:crypto';
import { asc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  BACKUP_FORMAT,
  BACKUP_MAX_FILE_MB,
  BACKUP_MEDIA_MAX_COUNT,
  BACKUP_MEDIA_MAX_MB,
  BACKUP_VERSION,
  type BackupBot,
  type BackupCampaign,
  type BackupContact,
  type BackupFile,
  type BackupFilesSummary,
  type BackupGroup,
  type BackupQueue,
  type BackupQuickReply,
  type BackupRecipient,
  type BackupSavedMessage,
  type BackupSettings,
  backupCampaign,
  backupCampaignContent,
  backupContact,
  backupFile,
  backupGroup,
  backupMsg,
  backupRecipient,
  backupSavedMessage,
  describeBackupPath,
  type RestoreResult,
  restoreSummary,
  zeroCounts,
} from '../../../contract/backup';
import { weekdays } from '../../../contract/bot';
import { campaignMsg } from '../../../contract/campaigns';
import { contactsMsg } from '../../../contract/contacts';
import { mediaMsg } from '../../../contract/media';
import { unknownVariable } from '../../../contract/personalize';
import { contactLimitFor, planLabel } from '../../../contract/plans';
import { quickRepliesMsg } from '../../../contract/quick-replies';
import { isHttpUrl, SAVED_MESSAGE_TEXT_MAX, savedMessagesMsg } from '../../../contract/saved-messages';
import { UPLOAD_REF_PREFIX, uploadIdOf } from '../../../contract/uploads';
import { accountSql, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import {
  campaignRecipients,
  campaigns,
  contacts,
  groups,
  mediaUploads,
  queues,
  quickReplies,
  savedMessages,
} from '../../db/schema';
import { AppError } from '../../errors';
import type { AppState } from '../../lib/app-state';
import { linkProblem, type OutboundPolicy } from '../../lib/outbound-fetch';
import { normalizePhone } from '../../lib/phone';
import { sanitizeMessageHtml, savedMessageText } from '../../lib/whatsapp-format';
import type { MediaStore } from '../../media/store';
import { restoreCampaigns } from '../campaigns';
import { getBotConfig, restoreBot, ruleContent } from '../chatbot';
import { type Account, contactsChanged, lockRemainingSlots, restoreContacts } from '../contacts';
import { restoreGroups } from '../groups';
import { restoreSavedMessages } from '../messages';
import { restoreQueues } from '../queues';
import { restoreQuickReplies } from '../quick-replies';
import { getAccountSettings, notificationSettingsOf, restoreSettings, whatsappSettingsOf } from '../settings';
import { bytesOut, makeUploadRoom, saveUpload } from '../uploads';
import { base64Pieces, restoreStoreFile } from './backup-files';
import { decodeUtf8InTurns, JsonRefused, parseJsonInTurns, Turns } from './backup-json';
import { decodeMedia, type MediaEntry, splitMedia } from './backup-media';

/** Rows read per query while the file streams out. */
const CONTACTS_PAGE = 2_000;
const RECIPIENTS_PAGE = 5_000;
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
  // The channel is not part of a backup: it follows the Cloud API credentials, which are not.
  const { channel: _channel, ...whatsapp } = whatsappSettingsOf(s);
  return {
    whatsapp,
    businessDays: weekdays.filter((d) => s.businessDays.includes(d)),
    notifications: notificationSettingsOf(s),
  };
}

async function botSection(db: Db, userId: string, queueNames: Map<string, string>): Promise<BackupBot> {
  const c = await getBotConfig(db, userId, { aiAvailable: false });
  const queueOf = (id: string | null | undefined) => (id ? queueNames.get(id.toLowerCase()) : undefined);
  return {
    isEnabled: c.isEnabled,
    welcomeMessage: c.welcomeMessage,
    aiEnabled: c.aiEnabled,
    aiModel: c.aiModel,
    outOfHoursMessage: c.outOfHoursMessage,
    aiInstructions: c.aiInstructions,
    handoffMinutes: c.handoffMinutes,
    autoReplies: c.autoReplies.map((r) => {
      const queue = queueOf(r.queueId);
      return queue ? { ...ruleContent(r), queue } : ruleContent(r);
    }),
  };
}

/** The team's queues without their numbers and people (the account's own where the backup was made). */
async function queuesSection(db: Db, userId: string): Promise<{ list: BackupQueue[]; names: Map<string, string> }> {
  const rows = await db
    .select()
    .from(queues)
    .where(ofAccount(queues, userId))
    .orderBy(asc(queues.createdAt), asc(queues.id));
  return {
    list: rows.map((q) => ({
      name: q.name,
      hours: (q.hours as BackupQueue['hours']) ?? null,
      outOfHoursMessage: q.outOfHoursMessage,
      assignment: q.assignment,
      createdAt: q.createdAt.toISOString(),
    })),
    names: new Map(rows.map((q) => [q.id.toLowerCase(), q.name])),
  };
}

async function quickRepliesSection(db: Db, userId: string): Promise<BackupQuickReply[]> {
  const rows = await db
    .select()
    .from(quickReplies)
    .where(ofAccount(quickReplies, userId))
    .orderBy(asc(quickReplies.shortcut));
  return rows.map((r) =>
    compact({
      shortcut: r.shortcut,
      text: r.text,
      mediaUrl: r.mediaUploadId ? `${UPLOAD_REF_PREFIX}${r.mediaUploadId.toLowerCase()}` : undefined,
      createdAt: r.createdAt.toISOString(),
    }),
  );
}

async function groupsSection(db: Db, userId: string): Promise<BackupGroup[]> {
  const rows = await db
    .select()
    .from(groups)
    .where(ofAccount(groups, userId))
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
    .where(ofAccount(savedMessages, userId))
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
      mediaUrl: m.mediaUrl,
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
    mediaUrl: c.mediaUrl,
    location: (c.location as BackupCampaign['location']) ?? undefined,
    contactCard: (c.contactCard as BackupCampaign['contactCard']) ?? undefined,
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

/** Bytes of the file an image takes beside its base64: its reference, name and type. */
const MEDIA_ENTRY_OVERHEAD = 1024;
/** References a file lists as left out at most (the format's bound). */
const LEFT_OUT_MAX = 10_000;

/**
 * The account's own files that its rows use (never another account's, whatever a row says), the
 * most recently used first: uploaded images of campaigns and saved messages (bytes in the
 * database), and files of the media store that campaigns, saved messages and bot rules send
 * (documents, audio, video, stickers). Those that fit in BACKUP_MEDIA_MAX_MB of base64 and
 * BACKUP_MEDIA_MAX_COUNT go in the file, the others are listed as left out.
 */
async function mediaPlan(db: Db, userId: string): Promise<MediaPlan> {
  const ref = (column: string) => sql.raw(`lower(substr(${column}, ${UPLOAD_REF_PREFIX.length + 1}))`);
  const isRef = (column: string) => sql`${sql.raw(column)} like ${`${UPLOAD_REF_PREFIX}%`}`;
  const used = rowsOf<{ id: string; size: number; stored: boolean }>(
    await db.execute(sql`
      select u.id::text as id, u.size, u.storage_key is not null as stored from media_uploads u
      join (
        select ${ref('image_url')} as ref, created_at, true as image from campaigns
          where ${accountSql(userId)} and ${isRef('image_url')}
        union all
        select upload_id::text, created_at, true from saved_messages
          where ${accountSql(userId)} and has_image and upload_id is not null
        union all
        select ${ref('media_url')}, created_at, false from campaigns where ${accountSql(userId)} and ${isRef('media_url')}
        union all
        select ${ref('media_url')}, created_at, false from saved_messages
          where ${accountSql(userId)} and ${isRef('media_url')}
        union all
        select ${ref('media_url')}, created_at, false from auto_replies
          where ${accountSql(userId)} and ${isRef('media_url')}
        union all
        select ${ref('image_url')}, created_at, false from auto_replies
          where ${accountSql(userId)} and ${isRef('image_url')}
        union all
        select media_upload_id::text, created_at, true from quick_replies
          where ${accountSql(userId)} and media_upload_id is not null
      ) r on r.ref = u.id::text
      where ${accountSql(userId, 'u.user_id')}
        and (r.image or (u.origin = 'upload' and u.storage_key is not null))
      group by u.id, u.size, u.storage_key
      order by max(r.created_at) desc, u.id`),
  );
  const budget = BACKUP_MEDIA_MAX_MB * 1024 * 1024;
  let bytes = 0;
  const carried: MediaPlan['carried'] = [];
  const leftOut: string[] = [];
  for (const u of used) {
    const cost = Math.ceil(Number(u.size) / 3) * 4 + MEDIA_ENTRY_OVERHEAD;
    if (carried.length < BACKUP_MEDIA_MAX_COUNT && bytes + cost <= budget) {
      carried.push({ id: u.id, stored: u.stored });
      bytes += cost;
    } else {
      leftOut.push(u.id);
    }
  }
  return { carried, leftOut: leftOut.slice(0, LEFT_OUT_MAX), notIncluded: leftOut.length };
}

interface MediaPlan {
  /** The files the file carries, in this order; `stored`: its bytes are in the media store. */
  carried: Array<{ id: string; stored: boolean }>;
  leftOut: string[];
  /** Files the rows use that the backup does not carry. */
  notIncluded: number;
}

/**
 * The account's backup as JSON text, a piece at a time. The small sections are read before the
 * first byte goes out (a failure there is an ordinary error answer); contacts and recipient lines
 * follow page by page (keyset on their unique keys), so an account of 100,000 contacts never sits
 * in memory whole. Pages are read outside a transaction: on the embedded database an open
 * transaction would hold its one connection for as long as the download takes.
 */
export async function exportBackup(db: Db, userId: string, store: MediaStore): Promise<AsyncGenerator<string>> {
  const queueList = await queuesSection(db, userId);
  const head = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: new Date().toISOString(),
    settings: await settingsSection(db, userId),
    bot: await botSection(db, userId, queueList.names),
    groups: await groupsSection(db, userId),
    savedMessages: await savedMessagesSection(db, userId),
    queues: queueList.list,
    quickReplies: await quickRepliesSection(db, userId),
  };
  const campaignRows = await db
    .select()
    .from(campaigns)
    .where(ofAccount(campaigns, userId))
    .orderBy(asc(campaigns.createdAt), asc(campaigns.id));
  const media = await mediaPlan(db, userId);
  return streamBackup(db, store, userId, JSON.stringify(head).slice(0, -1), campaignRows, media);
}

async function* streamBackup(
  db: Db,
  store: MediaStore,
  userId: string,
  head: string,
  campaignRows: Array<typeof campaigns.$inferSelect>,
  media: MediaPlan,
): AsyncGenerator<string> {
  yield `${head},"contacts":[`;
  let after = '';
  let first = true;
  for (;;) {
    const rows = await db
      .select(contactColumns)
      .from(contacts)
      .where(ofAccount(contacts, userId, gt(contacts.phone, after)))
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
        .where(
          ofAccount(
            campaignRecipients,
            userId,
            eq(campaignRecipients.campaignId, c.id),
            gt(campaignRecipients.recipient, afterRecipient),
          ),
        )
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
  // Last, so that everything above is written before the largest pieces: one file at a time.
  yield '],"media":[';
  let count = 0;
  let carriedBytes = 0;
  for (const { id, stored } of media.carried) {
    const entry = stored ? storeFileEntry(db, store, userId, id) : imageEntry(db, userId, id);
    let size: number | null = null;
    for await (const piece of entry) {
      if (typeof piece === 'number') {
        size = piece;
        if (count) yield ',';
      } else {
        yield piece;
      }
    }
    // Removed since the plan was made (or its bytes are gone): the restore reports it as missing.
    if (size === null) continue;
    count += 1;
    carriedBytes += size;
  }
  yield ']';
  if (media.leftOut.length) {
    yield `,"mediaLeftOut":${JSON.stringify(media.leftOut.map((id) => `${UPLOAD_REF_PREFIX}${id}`))}`;
  }
  const notIncluded = media.notIncluded + media.carried.length - count;
  const files: BackupFilesSummary = { included: notIncluded === 0, count, bytes: carriedBytes, notIncluded };
  yield `,"files":${JSON.stringify(files)}}`;
}

/**
 * One entry of the `media` section: first the file's size (nothing at all when it is gone), then
 * its JSON text in pieces.
 */
type EntryPieces = AsyncGenerator<number | string>;

/** An uploaded image, its bytes in the database: one piece (at most the base64 of UPLOAD_MAX_BYTES). */
async function* imageEntry(db: Db, userId: string, id: string): EntryPieces {
  const [image] = await db
    .select({
      fileName: mediaUploads.fileName,
      mimeType: mediaUploads.mimeType,
      size: mediaUploads.size,
      data: bytesOut(),
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id)));
  if (!image?.data) return;
  yield image.size;
  yield JSON.stringify({
    url: `${UPLOAD_REF_PREFIX}${id}`,
    fileName: image.fileName,
    contentType: image.mimeType,
    // The database's base64 breaks lines every 76 characters; the file's has none.
    data: image.data.replace(/\n/g, ''),
  });
}

/**
 * A file of the media store: its fields, then its base64 read from the store a piece at a time
 * (base64Pieces), never the whole file as one string; `data` last, so a reader has the rest first.
 */
async function* storeFileEntry(db: Db, store: MediaStore, userId: string, id: string): EntryPieces {
  const [file] = await db
    .select({
      fileName: mediaUploads.fileName,
      mimeType: mediaUploads.mimeType,
      kind: mediaUploads.kind,
      size: mediaUploads.size,
      sha256: mediaUploads.sha256,
      voice: mediaUploads.voice,
      state: mediaUploads.state,
      storageKey: mediaUploads.storageKey,
    })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id)));
  if (file?.state !== 'ready' || !file.storageKey) return;
  const body = await store.get(file.storageKey);
  if (!body) return;
  yield file.size;
  const fields = compact({
    url: `${UPLOAD_REF_PREFIX}${id}`,
    fileName: file.fileName,
    contentType: file.mimeType,
    kind: file.kind,
    size: file.size,
    sha256: file.sha256,
    voice: file.voice || undefined,
  });
  yield `${JSON.stringify(fields).slice(0, -1)},"data":"`;
  for await (const piece of base64Pieces(body)) yield piece;
  yield '"}';
}

// Restore: reading and checking the file

function refuse(path: ReadonlyArray<PropertyKey>, problem: string): AppError {
  const where = describeBackupPath(path);
  return new AppError('VALIDATION', backupMsg.invalid(where, problem), {
    [path.map(String).join('.') || '_']: problem,
  });
}

const E164 = /^\+\d{7,15}$/;
/** The upload a backup's `upload:<id>` names (its stricter reading), or null. */
const uploadOf = (ref: string) => uploadIdOf(ref, { uuidOnly: true });

/** The first issue of a refused part of the file, where it is in the whole file. */
function refuseIssue(path: ReadonlyArray<PropertyKey>, error: z.ZodError): AppError {
  const issue = error.issues[0];
  return refuse([...path, ...issue.path], issue.message);
}

/**
 * A section's items checked one at a time, stopping at the first bad one: checked whole, a section
 * of a million broken items makes zod collect an issue for every one (gigabytes, minutes).
 */
async function parseItems<T extends z.ZodType>(
  items: unknown,
  item: T,
  path: PropertyKey[],
  turns: Turns,
): Promise<z.output<T>[]> {
  if (items === undefined) return [];
  if (!Array.isArray(items)) {
    const whole = z.array(item).safeParse(items);
    if (!whole.success) throw refuseIssue(path, whole.error);
    return whole.data;
  }
  const out: z.output<T>[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = parseItem(items[i], item, [...path, i]);
    if ((i & 0xff) === 0xff) await turns.next();
  }
  return out;
}

function parseItem<T extends z.ZodType>(value: unknown, item: T, path: PropertyKey[]): z.output<T> {
  const parsed = item.safeParse(value);
  if (!parsed.success) throw refuseIssue(path, parsed.error);
  return parsed.data;
}

/** A campaign without its recipient lines, which are checked one at a time after it. */
const campaignWithoutLines = backupCampaign
  .extend({ recipients: z.unknown().optional() })
  .superRefine(backupCampaignContent);

/** The images a file carries (by upload id, lower case), and those it says it left out. */
export interface BackupImages {
  file: Buffer;
  entries: Map<string, MediaEntry>;
  leftOut: Set<string>;
}

/**
 * The whole file read and checked before anything is written: its images cut out of the bytes
 * (backup-media.ts), the rest JSON in UTF-8 within BACKUP_MAX_FILE_MB and the bounds of
 * JSON_LIMITS, our format and version, every section against its schema (item by item, in the
 * file's order), then what a schema cannot say (numbers that are not phone numbers, a number or a
 * group twice, unknown message variables, HTML that sanitises to nothing). The first problem is
 * answered as a 400 naming where it is. A 50 MB file is seconds of work: it goes in turns of a few
 * milliseconds, so the server keeps answering everybody else meanwhile. Each image is judged only
 * when a restored row needs it (imageRestorer).
 */
export async function parseBackup(
  data: Buffer,
  turns = new Turns(),
  outbound: OutboundPolicy = { allowPrivate: false },
): Promise<{ backup: BackupFile; images: BackupImages }> {
  if (!data.length) throw new AppError('VALIDATION', backupMsg.emptyFile);
  let split: Awaited<ReturnType<typeof splitMedia>>;
  try {
    split = await splitMedia(data, turns);
  } catch (err) {
    if (err instanceof SyntaxError) throw new AppError('VALIDATION', backupMsg.notJson);
    throw err;
  }
  // The data's own limit, as before images were carried: the images have room of their own.
  if (split.rest.length > BACKUP_MAX_FILE_MB * 1024 * 1024) {
    throw new AppError('PAYLOAD_TOO_LARGE', backupMsg.fileTooLarge(BACKUP_MAX_FILE_MB));
  }
  let text: string;
  try {
    text = (await decodeUtf8InTurns(split.rest, turns)).replace(/^\uFEFF/, '');
  } catch {
    throw new AppError('VALIDATION', backupMsg.notJson);
  }
  let raw: unknown;
  try {
    raw = await parseJsonInTurns(text, turns);
  } catch (err) {
    if (err instanceof JsonRefused) throw new AppError('VALIDATION', backupMsg.tooComplex);
    if (err instanceof SyntaxError) throw new AppError('VALIDATION', backupMsg.notJson);
    throw err;
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
  // `media` was cut out above (what is left here is null, or a key spelt with escapes: ignored).
  const { groups, savedMessages, contacts, campaigns, media: _media, ...head } = raw as Record<string, unknown>;
  const parsed = backupFile.safeParse(head);
  if (!parsed.success) throw refuseIssue([], parsed.error);
  if (split.refused) throw refuse(split.refused.path, split.refused.problem);
  const backup = parsed.data;
  backup.groups = await parseItems(groups, backupGroup, ['groups'], turns);
  backup.savedMessages = await parseItems(savedMessages, backupSavedMessage, ['savedMessages'], turns);
  backup.contacts = await parseItems(contacts, backupContact, ['contacts'], turns);
  const campaignList = await parseItems(campaigns, z.unknown(), ['campaigns'], turns);
  backup.campaigns = [];
  for (const [i, value] of campaignList.entries()) {
    const campaign = parseItem(value, campaignWithoutLines, ['campaigns', i]);
    backup.campaigns.push({
      ...campaign,
      recipients: await parseItems(campaign.recipients, backupRecipient, ['campaigns', i, 'recipients'], turns),
    });
  }

  const phones = new Set<string>();
  for (const [i, c] of backup.contacts.entries()) {
    const phone = normalizePhone(c.phone) ?? (E164.test(c.phone) ? c.phone : null);
    if (!phone) throw refuse(['contacts', i, 'phone'], contactsMsg.invalidPhone);
    if (phones.has(phone)) throw refuse(['contacts', i, 'phone'], backupMsg.duplicatePhone);
    phones.add(phone);
    c.phone = phone;
    if ((i & 0xff) === 0xff) await turns.next();
  }
  const groupNames = new Set<string>();
  for (const [i, g] of backup.groups.entries()) {
    const key = g.name.toLowerCase();
    if (groupNames.has(key)) throw refuse(['groups', i, 'name'], backupMsg.duplicateGroup);
    groupNames.add(key);
  }
  const queueNames = new Set<string>();
  for (const [i, q] of backup.queues.entries()) {
    const key = q.name.toLowerCase();
    if (queueNames.has(key)) throw refuse(['queues', i, 'name'], backupMsg.duplicateQueue);
    queueNames.add(key);
  }
  const shortcuts = new Set<string>();
  for (const [i, r] of backup.quickReplies.entries()) {
    if (shortcuts.has(r.shortcut)) throw refuse(['quickReplies', i, 'shortcut'], backupMsg.duplicateShortcut);
    shortcuts.add(r.shortcut);
    // Only a file of the account's: the server fetches no link for a quick reply.
    if (r.mediaUrl && !uploadOf(r.mediaUrl))
      throw refuse(['quickReplies', i, 'mediaUrl'], quickRepliesMsg.mediaInvalid);
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
    if (m.hasImage && m.imageUrl && linkProblem(m.imageUrl, outbound))
      throw refuse(['savedMessages', i, 'imageUrl'], mediaMsg.imageUrlNotPublic);
    if (m.mediaUrl && !uploadOf(m.mediaUrl) && !isHttpUrl(m.mediaUrl))
      throw refuse(['savedMessages', i, 'mediaUrl'], savedMessagesMsg.mediaUrlInvalid);
    if (m.mediaUrl && !uploadOf(m.mediaUrl) && linkProblem(m.mediaUrl, outbound))
      throw refuse(['savedMessages', i, 'mediaUrl'], mediaMsg.fileUrlNotPublic);
    await turns.next();
  }
  for (const [i, c] of backup.campaigns.entries()) {
    const unknown = unknownVariable(c.message);
    if (unknown) throw refuse(['campaigns', i, 'message'], campaignMsg.unknownVariable(unknown));
    if (c.imageUrl && !uploadOf(c.imageUrl) && !isHttpUrl(c.imageUrl))
      throw refuse(['campaigns', i, 'imageUrl'], backupMsg.imageInvalid);
    if (c.imageUrl && !uploadOf(c.imageUrl) && linkProblem(c.imageUrl, outbound))
      throw refuse(['campaigns', i, 'imageUrl'], mediaMsg.imageUrlNotPublic);
    if (c.mediaUrl && !uploadOf(c.mediaUrl) && !isHttpUrl(c.mediaUrl))
      throw refuse(['campaigns', i, 'mediaUrl'], backupMsg.fileInvalid);
    if (c.mediaUrl && !uploadOf(c.mediaUrl) && linkProblem(c.mediaUrl, outbound))
      throw refuse(['campaigns', i, 'mediaUrl'], mediaMsg.imageUrlNotPublic);
  }
  // The same rule as in the app: an image link that points inside the server's network is not kept.
  for (const [i, r] of (backup.bot?.autoReplies ?? []).entries()) {
    if (r.imageUrl && linkProblem(r.imageUrl, outbound))
      throw refuse(['bot', 'autoReplies', i, 'imageUrl'], mediaMsg.imageUrlNotPublic);
  }
  const leftOut = new Set<string>();
  for (const ref of backup.mediaLeftOut ?? []) {
    const id = uploadOf(ref);
    if (id) leftOut.add(id.toLowerCase());
  }
  return { backup, images: { file: data, entries: split.media, leftOut } };
}

// Restore: writing

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * What became of a file a restored row refers to: its upload in the account (`kind` when it was
 * brought back from the file), or why not (`absent`: the file does not carry it, or says it left it out).
 */
type RestoredImage =
  | { id: string; fileName: string | null; kind?: string }
  | { problem: string; absent?: 'missing' | 'leftOut' };
type RestoreImage = (id: string) => Promise<RestoredImage>;

/** The media store a restore puts files into, and the keys it has put (removed should it not commit). */
interface RestoreStore {
  store: MediaStore;
  written: string[];
}

/**
 * The files of restored rows. One the account already has (a backup restored where it was made)
 * is used as it is. One the file carries becomes a new file of the account, checked exactly as an
 * upload is: an image by saveUpload (its type by its first bytes, its size, the account's room);
 * a document, audio, video or sticker by restoreStoreFile, into the media store (its kind by its
 * bytes, whatever the file claims). One it does not carry is reported and left out, never pointed
 * at: an upload is served to its owner only, so another account's reference would show 'Com
 * imagem' and send nothing. Each file is judged and stored once, however many rows use it, and
 * only when a row that is restored needs it: a second restore of the same file stores nothing.
 */
function fileRestorer(
  t: Db,
  userId: string,
  own: Set<string>,
  images: BackupImages,
  quotaMb: number | undefined,
  turns: Turns,
  done: Map<string, RestoredImage>,
  files: RestoreStore,
): RestoreImage {
  const asImage = async (entry: MediaEntry): Promise<RestoredImage> => {
    const decoded = decodeMedia(images.file, entry);
    if ('problem' in decoded) return decoded;
    if (entry.sha256 && createHash('sha256').update(decoded.data).digest('hex') !== entry.sha256) {
      return { problem: backupMsg.mediaCorrupted };
    }
    try {
      const upload = await saveUpload(
        t,
        files.store,
        userId,
        { fileName: entry.fileName, data: decoded.data },
        { quotaMb, written: files.written },
      );
      return { id: upload.id, fileName: upload.fileName, kind: 'image' };
    } catch (err) {
      // A refusal of the upload's own checks (type, size, room): reported, the row restored without it.
      if (!(err instanceof AppError)) throw err;
      return { problem: err.message };
    }
  };
  return async (ref: string) => {
    const id = ref.toLowerCase();
    if (own.has(id)) {
      done.set(id, { id, fileName: null });
      return { id, fileName: null };
    }
    const known = done.get(id);
    if (known) return known;
    let result: RestoredImage;
    const entry = images.entries.get(id);
    if (!entry) {
      result = images.leftOut.has(id)
        ? { problem: backupMsg.mediaLeftOut, absent: 'leftOut' }
        : { problem: backupMsg.mediaMissing, absent: 'missing' };
    } else if (entry.kind) {
      const stored = await restoreStoreFile(t, files.store, userId, images.file, entry, {
        quotaMb,
        turns,
        written: files.written,
      });
      result = stored === 'image' ? await asImage(entry) : stored;
      await turns.pause();
    } else {
      result = await asImage(entry);
      await turns.pause();
    }
    done.set(id, result);
    return result;
  };
}

/** Why a document, audio or video of a row did not come back, in the words for files. */
const fileProblem = (r: { problem: string; absent?: 'missing' | 'leftOut' }) =>
  r.absent === 'leftOut' ? backupMsg.fileLeftOut : r.absent === 'missing' ? backupMsg.fileMissing : r.problem;

/**
 * After answering: freshly written rows make every read visit the heap until the table is vacuumed
 * (visibility map, hint bits), and the planner has no statistics for them; PGlite has no
 * autovacuum. On the embedded database each of these statements holds the thread (an analyze reads
 * a sample of 30,000 rows: 200–300 ms there), so they go one at a time with a pause between, never
 * two in a row.
 */
async function vacuumAfterRestore(db: Db, contactsAdded: number, recipients: number, turns: Turns): Promise<void> {
  const tables = [
    ...(contactsAdded >= VACUUM_AFTER_ROWS ? [sql`contacts`] : []),
    ...(recipients >= VACUUM_AFTER_ROWS ? [sql`campaign_recipients`] : []),
  ];
  for (const table of tables) {
    await turns.pause();
    await db.execute(sql`vacuum ${table}`);
    await turns.pause();
    await db.execute(sql`analyze ${table}`);
  }
}

/** Warnings an answer lists one by one; the rest are counted in a last line. */
const WARNINGS_LISTED = 50;

/**
 * Merges a backup into the account in one transaction: nothing is deleted, nothing duplicated,
 * and what the account already has wins over the backup (only what it lacks is filled in). The
 * plan's contact limit applies as it does to an import. Restoring the same file again changes
 * nothing. Uploaded images come back as uploads of this account (imageRestorer); what could not
 * come back is listed in `warnings` and counted in `message`.
 */
export async function restoreBackup(
  db: Db,
  state: AppState,
  account: Account,
  data: Buffer,
  opts: { aiAvailable: boolean; uploadsQuotaMb?: number; outbound?: OutboundPolicy; store: MediaStore },
): Promise<RestoreResult> {
  const turns = new Turns();
  const { backup, images } = await parseBackup(data, turns, opts.outbound);
  const userId = account.id;
  const warnings: string[] = [];
  const warn = (warning: string) => warnings.push(warning);
  // Each file the rows named, once: brought back (or already the account's), or why not.
  const restoredFiles = new Map<string, RestoredImage>();
  const put: RestoreStore = { store: opts.store, written: [] };
  const result = await db
    .transaction(async (tx: Tx) => {
      // The account lock of contact writes: concurrent restores, imports and creates take turns.
      const slots = await lockRemainingSlots(tx, account);
      const t = tx as unknown as Db;
      if (images.entries.size) {
        // Room for every image the file carries, made (as an upload makes it) before the account's
        // own uploads are listed; each image's own check still refuses it when it does not fit. It
        // takes the account's uploads lock, held until the restore commits: uploads meanwhile wait.
        let bytes = 0;
        for (const e of images.entries.values()) bytes += Math.floor(((e.end - e.start) * 3) / 4);
        await makeUploadRoom(t, userId, bytes, opts.uploadsQuotaMb);
      }
      const own = new Set(
        rowsOf<{ id: string }>(await t.execute(sql`select id from media_uploads where ${accountSql(userId)}`)).map(
          (r) => r.id.toLowerCase(),
        ),
      );
      const restoreImage = fileRestorer(t, userId, own, images, opts.uploadsQuotaMb, turns, restoredFiles, put);
      /** A file a row sends (document, audio, video): the account's, or null once the warning is written. */
      const restoreFile = async (id: string, warnOf: (reason: string) => string, kind?: string) => {
        const file = await restoreImage(id);
        if ('problem' in file) {
          warn(warnOf(fileProblem(file)));
          return null;
        }
        if (kind && file.kind && file.kind !== kind) {
          warn(warnOf(backupMsg.fileWrongKind));
          return null;
        }
        return file;
      };
      const settings = backup.settings ? await restoreSettings(t, userId, backup.settings) : zeroCounts();
      // Before the bot: a rule names its queue, which may come with the file.
      const queueResult = await restoreQueues(t, userId, backup.queues);
      const bot = backup.bot
        ? await restoreBot(
            t,
            userId,
            backup.bot,
            opts.aiAvailable,
            {
              own,
              skipFile: (trigger) => warn(backupMsg.ruleFileNotRestored(trigger)),
              restoreFile: async (id, rule) =>
                (await restoreFile(id, (reason) => backupMsg.ruleFileNotRestored(rule.trigger, reason), rule.type))
                  ?.id ?? null,
            },
            (name) => queueResult.idOf.get(name.toLowerCase()),
          )
        : { config: zeroCounts(), rules: zeroCounts() };
      const quickReplyCounts = await restoreQuickReplies(
        t,
        userId,
        backup.quickReplies,
        async (id, shortcut) =>
          (await restoreFile(id, (reason) => backupMsg.quickReplyFileNotRestored(shortcut, reason)))?.id ?? null,
      );
      const groupCounts = await restoreGroups(t, userId, backup.groups);
      const messageCounts = await restoreSavedMessages(
        t,
        userId,
        backup.savedMessages,
        async (id, title) => {
          const image = await restoreImage(id);
          if (!('problem' in image)) return image;
          warn(backupMsg.messageImageNotRestored(title, image.problem));
          return null;
        },
        (id, title) => restoreFile(id, (reason) => backupMsg.messageFileNotRestored(title, reason)),
      );
      // Rows without a creation or queue time take the transaction's, as the column's default would.
      const [{ now }] = rowsOf<{ now: string }>(await t.execute(sql`select now()::text as now`));
      const contactResult = await restoreContacts(t, userId, backup.contacts, slots, now, turns);
      // After the contacts: recipient lines point at the account's contact with their number.
      const campaignResult = await restoreCampaigns(
        t,
        userId,
        backup.campaigns,
        async (id, name) => {
          const image = await restoreImage(id);
          if (!('problem' in image)) return image;
          warn(backupMsg.campaignImageNotRestored(name, image.problem));
          return null;
        },
        contactResult.ids,
        now,
        turns,
        (id, name) => restoreFile(id, (reason) => backupMsg.campaignFileNotRestored(name, reason)),
      );
      return {
        counts: {
          contacts: contactResult.counts,
          groups: groupCounts,
          savedMessages: messageCounts,
          campaigns: campaignResult.counts,
          autoReplies: bot.rules,
          botConfig: bot.config,
          settings,
          queues: queueResult.counts,
          quickReplies: quickReplyCounts,
        },
        recipients: campaignResult.recipients,
      };
    })
    .catch(async (err: unknown) => {
      // Nothing was restored: the files put into the store meanwhile go too.
      for (const key of put.written) await put.store.delete(key).catch(() => undefined);
      throw err;
    });
  contactsChanged(state, userId);
  const { counts } = result;
  void vacuumAfterRestore(db, counts.contacts.added, result.recipients, turns).catch(() => undefined);

  const notes: string[] = [];
  const limit = contactLimitFor(account.planType);
  if (counts.contacts.skipped && limit !== null)
    notes.push(backupMsg.contactsOverLimit(counts.contacts.skipped, limit, planLabel(account.planType)));
  if (counts.autoReplies.skipped) notes.push(backupMsg.repliesOverLimit(counts.autoReplies.skipped));
  if (counts.queues.skipped) notes.push(backupMsg.queuesOverLimit(counts.queues.skipped));
  if (counts.queues.added) notes.push(backupMsg.queuesNeedPeople);
  if (counts.quickReplies.skipped) notes.push(backupMsg.quickRepliesOverLimit(counts.quickReplies.skipped));
  if (warnings.length) notes.push(backupMsg.imagesNotRestored(warnings.length));
  const listed = warnings.slice(0, WARNINGS_LISTED);
  if (warnings.length > listed.length) listed.push(backupMsg.moreWarnings(warnings.length - listed.length));
  const files = { restored: 0, notRestored: 0 };
  for (const r of restoredFiles.values()) files['problem' in r ? 'notRestored' : 'restored'] += 1;
  return { success: true, message: restoreSummary(counts, notes), ...counts, warnings: listed, files };
}

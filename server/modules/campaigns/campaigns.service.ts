import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  CAMPAIGN_RUNNING,
  type Campaign,
  type CampaignMedia,
  type CampaignNumbers,
  type CampaignProgress,
  type CampaignRecipient,
  type CampaignWaitReason,
  type CreateCampaignBody,
  campaignMsg,
  isCampaignStatusIn,
  RECIPIENT_STATUS_LABELS,
  type RecipientStatus,
  type RecipientsPage,
  type UpdateCampaignBody,
} from '../../../contract/campaigns';
import { mediaMsg } from '../../../contract/media';
import { messageCounts } from '../../../contract/metrics';
import { unknownVariable } from '../../../contract/personalize';
import { e164Of } from '../../../contract/phone';
import { contactLimitFor } from '../../../contract/plans';
import { namedUploadId, UPLOAD_REF_PREFIX, uploadIdOf } from '../../../contract/uploads';
import { accountSql, acrossAccounts, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { campaignRecipients, campaigns, connections, groups, type UserRow } from '../../db/schema';
import type { SavedMessageSource } from '../../deps';
import { AppError } from '../../errors';
import type { AppState } from '../../lib/app-state';
import { type Table, tableTime } from '../../lib/download';
import { linkProblem, type OutboundPolicy } from '../../lib/outbound-fetch';
import { readyAccountFiles } from '../../media/account-files';
import {
  assertTransition,
  type CampaignFields,
  cancelCampaign,
  canTransition,
  currentRow,
  editCampaign,
  type LifecycleContext,
} from '../../sending/campaign-lifecycle';
import type { CampaignFile } from '../../sending/content';
import { namelessInAudience } from '../../sending/planner';
import { assertGroupTargetsLinked } from '../groups';
import { findUpload, releaseFiles } from '../uploads';
import { type ForecastFacts, forecastCampaign } from './campaign-forecast';
import { campaignsSlot, namelessKey } from './campaigns-state';

type CampaignRow = typeof campaigns.$inferSelect;

/**
 * What a running campaign's expected finish is forecast from (campaign-forecast.ts), read only when a
 * campaign of the answer still has messages to send.
 */
export type ForecastSource = () => Promise<ForecastFacts>;

const EMPTY_PROGRESS: CampaignProgress = {
  total: 0,
  queued: 0,
  sending: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  skipped: 0,
};

/**
 * Counters of large campaigns, kept briefly: counting 100,000 rows on every 3-second poll of every
 * open page would cost more than the send loop. A campaign under CACHE_FROM_ROWS is always counted
 * afresh; a larger one at most every few seconds, while its status stays (campaigns-state.ts).
 */
const CACHE_FROM_ROWS = 5_000;

/** Drops a campaign's cached counters (after an action that changes its rows). */
export function forgetProgress(state: AppState, id: string): void {
  state.of(campaignsSlot).progress.delete(id);
}

/** Counters per campaign from its recipient rows (one grouped count over the campaign index). */
async function progressOf(
  db: Db,
  state: AppState,
  campaignsToCount: Array<{ id: string; status: string }>,
): Promise<Map<string, CampaignProgress>> {
  const cache = state.of(campaignsSlot).progress;
  const out = new Map<string, CampaignProgress>();
  const ids: string[] = [];
  const statusOf = new Map(campaignsToCount.map((c) => [c.id, c.status]));
  for (const { id, status } of campaignsToCount) {
    const hit = cache.get(id, status);
    if (hit) out.set(id, hit);
    else ids.push(id);
  }
  if (!ids.length) return out;
  const counted = await countProgress(db, ids);
  for (const [id, p] of counted) {
    out.set(id, p);
    if (p.total >= CACHE_FROM_ROWS) cache.set(id, p, statusOf.get(id) ?? '');
  }
  return out;
}

async function countProgress(db: Db, ids: string[]): Promise<Map<string, CampaignProgress>> {
  const out = new Map<string, CampaignProgress>();
  const rows = await db
    .select({
      campaignId: campaignRecipients.campaignId,
      status: campaignRecipients.status,
      n: sql<number>`count(*)::int`,
    })
    // The ids are of the account's own campaigns (loaded with ofAccount); the count stays on the
    // campaign index alone.
    .from(acrossAccounts(campaignRecipients))
    .where(inArray(campaignRecipients.campaignId, ids))
    .groupBy(campaignRecipients.campaignId, campaignRecipients.status);
  for (const r of rows) {
    const p = out.get(r.campaignId) ?? { ...EMPTY_PROGRESS };
    p[r.status] += r.n;
    p.total += r.n;
    out.set(r.campaignId, p);
  }
  return out;
}

/** Messages a running campaign still has to send; 0 for any other. */
function leftToSend(row: CampaignRow, p: CampaignProgress): number {
  return isCampaignStatusIn(CAMPAIGN_RUNNING, row.status) ? p.queued + p.sending : 0;
}

/** A campaign's file as its answer shows it. */
type ShownFile = CampaignMedia & { id: string };

function toCampaign(
  row: CampaignRow,
  p: CampaignProgress,
  facts?: ForecastFacts,
  files?: Map<string, ShownFile>,
): Campaign {
  const fileId = row.mediaUrl ? uploadIdOf(row.mediaUrl) : null;
  const file = fileId ? files?.get(fileId) : undefined;
  // Sent, delivered and read as every screen counts them (contract/metrics.ts).
  const figures = messageCounts(p);
  const left = leftToSend(row, p);
  // The confirmation's forecast for what is left: pace, daily limit, business hours and days.
  const expectedFinishAt =
    facts && left > 0 ? forecastCampaign(facts, { recipients: left, connectionIds: row.connectionIds }).finishAt : null;
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    status: row.status,
    messagesSent: figures.sent,
    messagesDelivered: figures.delivered,
    messagesRead: figures.read,
    targetType: row.targetType,
    targetGroups: row.targetGroups,
    targetTags: row.targetTags,
    createdAt: row.createdAt.toISOString(),
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    imageUrl: row.imageUrl,
    mediaUrl: row.mediaUrl,
    media: file ? { kind: file.kind, mimeType: file.mimeType, fileName: file.fileName, size: file.size } : null,
    location: (row.location as Campaign['location']) ?? null,
    contactCard: (row.contactCard as Campaign['contactCard']) ?? null,
    templateName: row.templateName,
    templateLanguage: row.templateLanguage,
    templateVariables: row.templateVariables as Campaign['templateVariables'],
    connectionIds: row.connectionIds,
    pauseReason: row.pauseReason,
    waitingReason: row.status === 'in_progress' ? ((row.waitingReason as CampaignWaitReason | null) ?? null) : null,
    progress: p,
    expectedFinishAt,
  };
}

/** Campaigns of one account, newest first, with counters computed from their recipient rows. */
export async function listCampaigns(
  db: Db,
  state: AppState,
  userId: string,
  forecast?: ForecastSource,
): Promise<Campaign[]> {
  const rows = await db.select().from(campaigns).where(ofAccount(campaigns, userId)).orderBy(desc(campaigns.createdAt));
  // Drafts and scheduled campaigns have no rows yet: only the others are counted.
  const counted = rows.filter((r) => r.status !== 'draft' && r.status !== 'scheduled');
  const progress = await progressOf(db, state, counted);
  const progressOfRow = (r: CampaignRow) => progress.get(r.id) ?? EMPTY_PROGRESS;
  const facts = forecast && rows.some((r) => leftToSend(r, progressOfRow(r)) > 0) ? await forecast() : undefined;
  const files = await filesOf(db, userId, rows);
  return rows.map((r) => toCampaign(r, progressOfRow(r), facts, files));
}

async function filesOf(db: Db, userId: string, rows: CampaignRow[]): Promise<Map<string, ShownFile>> {
  const ids = rows.flatMap((r) => {
    const id = r.mediaUrl ? uploadIdOf(r.mediaUrl) : null;
    return id ? [id] : [];
  });
  return readyAccountFiles(db, userId, ids);
}

/** The account's file a campaign's `mediaUrl` names, as a send reads it; null for a link or a file gone. */
export async function campaignFile(
  db: Db,
  userId: string,
  mediaUrl: string | null | undefined,
): Promise<CampaignFile | null> {
  const id = mediaUrl ? uploadIdOf(mediaUrl) : null;
  if (!id) return null;
  const file = (await readyAccountFiles(db, userId, [id])).get(id);
  if (!file) return null;
  const { size: _size, ...rest } = file;
  return rest;
}

export async function getCampaign(
  db: Db,
  state: AppState,
  userId: string,
  id: string,
  forecast?: ForecastSource,
): Promise<Campaign> {
  const row = await currentRow(db, userId, id);
  const p = (await progressOf(db, state, [row])).get(id) ?? EMPTY_PROGRESS;
  const facts = forecast && leftToSend(row, p) > 0 ? await forecast() : undefined;
  return toCampaign(row, p, facts, await filesOf(db, userId, [row]));
}

export interface CampaignDeps {
  db: Db;
  savedMessage?: SavedMessageSource;
  /** Which image links may be saved: public addresses only unless the server allows private ones. */
  outbound?: OutboundPolicy;
  /** Stores an https link's file (any kind) as one of the account's files (deps.media.fromLink). */
  fromLink?: (userId: string, link: string) => Promise<{ id: string }>;
}

/** A link whose name says it is an image: kept as a link, sent as `imageUrl` links are. */
const IMAGE_LINK = /\.(jpe?g|png|webp|gif)$/i;

/** An image is an http(s) URL or one of the account's uploads (as `upload:<id>` or its `/api/uploads/<id>` URL). */
async function resolveImage(
  db: Db,
  userId: string,
  value: string | null | undefined,
  outbound: OutboundPolicy = { allowPrivate: false },
): Promise<string | null> {
  if (!value) return null;
  // A bare `upload:` names nothing: it falls through to the link check below.
  const uploadId = namedUploadId(value);
  if (uploadId) {
    // One of the account's uploaded images (findUpload checks the id's shape and the account).
    const found = await findUpload(db, userId, uploadId);
    if (!found) throw new AppError('VALIDATION', 'Imagem não encontrada. Envie a imagem novamente.');
    return `${UPLOAD_REF_PREFIX}${uploadId}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('VALIDATION', 'Link da imagem inválido. Use um endereço que comece com http:// ou https://.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('VALIDATION', 'Link da imagem inválido. Use um endereço que comece com http:// ou https://.');
  }
  if (linkProblem(url.href, outbound)) throw new AppError('VALIDATION', mediaMsg.imageUrlNotPublic);
  return url.toString();
}

/**
 * Any file: one of the account's ready files (uploaded or received), as `upload:<id>` or its
 * `/api/uploads/<id>` URL, or an image link (checked as `imageUrl` links are).
 */
async function resolveMedia(
  db: Db,
  userId: string,
  value: string | null,
  outbound: OutboundPolicy | undefined,
  fromLink?: CampaignDeps['fromLink'],
): Promise<{ ref: string | null; file: CampaignFile | null }> {
  if (!value) return { ref: null, file: null };
  const uploadId = namedUploadId(value);
  if (uploadId) {
    const file = (await readyAccountFiles(db, userId, [uploadId])).get(uploadId);
    if (!file) throw new AppError('VALIDATION', campaignMsg.fileNotFound, { mediaUrl: campaignMsg.fileNotFound });
    const { size: _size, ...rest } = file;
    return { ref: `${UPLOAD_REF_PREFIX}${uploadId}`, file: rest };
  }
  let link: URL | null = null;
  try {
    link = new URL(value);
  } catch {
    link = null;
  }
  // A link to a file of another kind (a PDF, an audio): fetched once into the account's files.
  if (link?.protocol === 'https:' && fromLink && !IMAGE_LINK.test(link.pathname)) {
    const stored = await fromLink(userId, link.href);
    const file = (await readyAccountFiles(db, userId, [stored.id])).get(stored.id);
    if (!file) throw new AppError('VALIDATION', campaignMsg.fileNotFound, { mediaUrl: campaignMsg.fileNotFound });
    const { size: _size, ...rest } = file;
    return { ref: `${UPLOAD_REF_PREFIX}${stored.id}`, file: rest };
  }
  return { ref: await resolveImage(db, userId, value, outbound), file: null };
}

/** Group names as the account spells them; an unknown name is a 400 naming it. */
async function resolveGroups(db: Db, userId: string, names: string[]): Promise<string[]> {
  const wanted = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (!wanted.length) throw new AppError('VALIDATION', campaignMsg.groupsRequired);
  const found = await db
    .select({ name: groups.name })
    .from(groups)
    .where(
      ofAccount(
        groups,
        userId,
        inArray(
          sql`lower(${groups.name})`,
          wanted.map((n) => n.toLowerCase()),
        ),
      ),
    );
  const byLower = new Map(found.map((g) => [g.name.toLowerCase(), g.name]));
  const missing = wanted.filter((n) => !byLower.has(n.toLowerCase()));
  if (missing.length) throw new AppError('VALIDATION', campaignMsg.unknownGroups(missing));
  return wanted.map((n) => byLower.get(n.toLowerCase()) as string);
}

/** The account's own numbers, in the order given, each once; an id of anything else is refused. */
async function ownNumbers(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const rows = await db
    .select({ id: connections.id })
    .from(connections)
    .where(ofAccount(connections, userId, inArray(connections.id, wanted), isNull(connections.deletedAt)));
  if (rows.length !== wanted.length) {
    throw new AppError('VALIDATION', campaignMsg.numberNotFound, { connectionIds: campaignMsg.numberNotFound });
  }
  return wanted;
}

function checkMessage(message: string): void {
  const unknown = unknownVariable(message);
  if (unknown)
    throw new AppError('VALIDATION', campaignMsg.unknownVariable(unknown), {
      message: campaignMsg.unknownVariable(unknown),
    });
}

type Fields = CampaignFields;

/** Validates and normalises what a create or an edit asks for. */
async function fieldsFrom(
  deps: CampaignDeps,
  userId: string,
  body: UpdateCampaignBody,
  current: CampaignRow | null,
): Promise<Fields> {
  const { db } = deps;
  const f: Fields = {};
  if (body.name !== undefined) f.name = body.name;
  let message = body.message;
  let imageUrl = body.imageUrl;
  let mediaUrl = body.mediaUrl;
  if (imageUrl && mediaUrl) throw new AppError('VALIDATION', campaignMsg.imageOrMedia);
  if (body.savedMessageId) {
    const saved = await deps.savedMessage?.(userId, body.savedMessageId);
    if (!saved) throw new AppError('VALIDATION', 'Mensagem salva não encontrada.');
    message = saved.message;
    // Its file of any kind, else its image, unless the request names its own.
    if (!imageUrl && !mediaUrl) {
      if (saved.mediaUrl) mediaUrl = saved.mediaUrl;
      else imageUrl = saved.imageUrl;
    }
  }
  // The file the campaign will send: the one asked for, or the one it has.
  let file: CampaignFile | null = null;
  if (mediaUrl !== undefined) {
    const media = await resolveMedia(db, userId, mediaUrl, deps.outbound, deps.fromLink);
    f.mediaUrl = media.ref;
    file = media.file;
    // One attachment: a file replaces the image.
    if (media.ref) f.imageUrl = null;
  } else if (current?.mediaUrl && !imageUrl) {
    file = await campaignFile(db, userId, current.mediaUrl);
  }
  if (body.location !== undefined) f.location = body.location;
  if (body.contactCard !== undefined) f.contactCard = body.contactCard;
  const extras =
    Boolean(body.location === undefined ? current?.location : body.location) ||
    Boolean(body.contactCard === undefined ? current?.contactCard : body.contactCard);
  if (
    message !== undefined ||
    mediaUrl !== undefined ||
    body.location !== undefined ||
    body.contactCard !== undefined ||
    file
  ) {
    const text = message ?? current?.message ?? '';
    // A location or a contact card may go alone; an audio or a sticker takes its text as a message after it.
    if (!text.trim() && !file && !extras) throw new AppError('VALIDATION', campaignMsg.required);
    if (message !== undefined) {
      checkMessage(message);
      f.message = message;
    }
  }
  if (imageUrl !== undefined && f.imageUrl === undefined) {
    f.imageUrl = await resolveImage(db, userId, imageUrl, deps.outbound);
    // One attachment: an image replaces the file.
    if (f.imageUrl && mediaUrl === undefined) f.mediaUrl = null;
  }
  const targetType = body.targetType ?? current?.targetType ?? 'all';
  if (body.targetType !== undefined) f.targetType = body.targetType;
  if (body.targetGroups !== undefined || body.targetType !== undefined) {
    const names = (body.targetGroups as string[] | undefined) ?? current?.targetGroups ?? [];
    f.targetGroups = targetType === 'groups' ? await resolveGroups(db, userId, names) : [];
    await assertGroupTargetsLinked(db, userId, f.targetGroups);
  }
  if (body.targetTags !== undefined) f.targetTags = [...new Set(body.targetTags.filter(Boolean))];
  if (body.templateName !== undefined) f.templateName = body.templateName || null;
  if (body.templateLanguage !== undefined) f.templateLanguage = body.templateLanguage || null;
  if (body.templateVariables !== undefined) f.templateVariables = body.templateVariables;
  if (body.connectionIds !== undefined) f.connectionIds = await ownNumbers(db, userId, body.connectionIds);

  const scheduledAt = body.scheduledAt === undefined ? undefined : body.scheduledAt ? new Date(body.scheduledAt) : null;
  const status = body.status;
  if (scheduledAt) {
    if (scheduledAt.getTime() <= Date.now()) throw new AppError('VALIDATION', campaignMsg.scheduledInPast);
    f.scheduledAt = scheduledAt;
    // A time in the future schedules the campaign (the spec's client always sends status draft).
    f.status = 'scheduled';
  } else {
    if (scheduledAt === null) f.scheduledAt = null;
    if (status === 'scheduled' && !(scheduledAt === undefined && current?.scheduledAt)) {
      throw new AppError('VALIDATION', campaignMsg.scheduleRequired);
    }
    if (status) f.status = status;
  }
  return f;
}

export async function createCampaign(deps: CampaignDeps, userId: string, body: CreateCampaignBody): Promise<Campaign> {
  const f = await fieldsFrom(deps, userId, body as UpdateCampaignBody, null);
  const [row] = await deps.db
    .insert(campaigns)
    .values({ ...f, name: f.name as string, message: f.message ?? '', userId, status: f.status ?? 'draft' })
    .returning();
  return toCampaign(row, EMPTY_PROGRESS, undefined, await filesOf(deps.db, userId, [row]));
}

export async function updateCampaign(
  deps: CampaignDeps,
  userId: string,
  id: string,
  body: UpdateCampaignBody,
): Promise<Campaign> {
  const current = await currentRow(deps.db, userId, id);
  assertTransition('edit', current.status);
  const f = await fieldsFrom(deps, userId, body, current);
  // The status change an edit may make (draft ↔ scheduled) goes through the campaign's lifecycle.
  const row = await editCampaign(deps.db, userId, id, f);
  // A file the edit replaced or removed is freed when nothing else of the account uses it.
  const dropped = [current.imageUrl, current.mediaUrl].filter(
    (ref) => ref && ref !== row.imageUrl && ref !== row.mediaUrl,
  );
  if (dropped.length) await releaseFiles(deps.db, userId, dropped);
  return toCampaign(row, EMPTY_PROGRESS, undefined, await filesOf(deps.db, userId, [row]));
}

/** Deletes a campaign; one that is going out is cancelled first, so nothing more is sent. */
export async function deleteCampaign(ctx: LifecycleContext, userId: string, id: string): Promise<void> {
  const { db } = ctx;
  const current = await currentRow(db, userId, id);
  if (canTransition('cancel', current.status)) {
    await cancelCampaign(ctx, userId, id, { record: false }).catch((err) => {
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
    });
  }
  await db.delete(campaigns).where(ofAccount(campaigns, userId, eq(campaigns.id, id)));
  await releaseFiles(db, userId, [current.imageUrl, current.mediaUrl]);
}

export async function duplicateCampaign(db: Db, userId: string, id: string): Promise<Campaign> {
  const c = await currentRow(db, userId, id);
  const [row] = await db
    .insert(campaigns)
    .values({
      userId,
      name: `${c.name} (cópia)`.slice(0, 120),
      message: c.message,
      status: 'draft',
      targetType: c.targetType,
      targetGroups: c.targetGroups,
      targetTags: c.targetTags,
      imageUrl: c.imageUrl,
      mediaUrl: c.mediaUrl,
      location: c.location,
      contactCard: c.contactCard,
      templateName: c.templateName,
      templateLanguage: c.templateLanguage,
      templateVariables: c.templateVariables,
    })
    .returning();
  return toCampaign(row, EMPTY_PROGRESS, undefined, await filesOf(db, userId, [row]));
}

/** The first contacts of the account, as a campaign would address them (for previews). */
export async function sampleRecipients(
  db: Db,
  userId: string,
  n: number,
): Promise<Array<{ name: string; phone: string; email: string | null }>> {
  return rowsOf<{ name: string; phone: string; email: string | null }>(
    await db.execute(sql`
      select name, phone, email from contacts
      where ${accountSql(userId)} and is_active and not opted_out
      order by search_text limit ${n}
    `),
  );
}

/**
 * The contacts of an audience without a name, whose {{nome}} a campaign fills with the variable's
 * fallback (or nothing): how many, and the first few numbers, by the planner's rule of who a start
 * sends to (`namelessInAudience`). A groups audience has none. The count reads every contact of
 * the account (tens of milliseconds for 100,000), so the previews of one audience share it for
 * a few seconds, or until the account's contacts change (campaigns-state.ts).
 */
export async function namelessRecipients(
  db: Db,
  state: AppState,
  account: Pick<UserRow, 'id' | 'planType'>,
  audience: { targetType?: 'all' | 'groups' | 'contacts'; targetTags?: string[] },
  n: number,
): Promise<{ count: number; phones: string[] }> {
  const targetType = audience.targetType ?? 'all';
  if (targetType === 'groups') return { count: 0, phones: [] };
  const tags = targetType === 'contacts' && audience.targetTags?.length ? [...new Set(audience.targetTags)] : [];
  const cache = state.of(campaignsSlot).nameless;
  const key = namelessKey(account.id, n, targetType, tags, account.planType);
  const cached = cache.get(key);
  if (cached) return cached;
  const value = await namelessInAudience(
    db,
    { userId: account.id, targetType, targetGroups: [], targetTags: tags },
    contactLimitFor(account.planType),
    n,
  );
  cache.set(key, value);
  return value;
}

const ISO = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The account's numbers, removed ones too (report lines keep naming who sent them): label and phone by id. */
async function numberNames(db: Db, userId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: connections.id, label: connections.label, phone: connections.phoneNumber })
    .from(connections)
    .where(ofAccount(connections, userId));
  return new Map(
    rows.map((r) => {
      const phone = e164Of(r.phone);
      return [r.id, phone ? `${r.label} (${phone})` : r.label];
    }),
  );
}

/**
 * Progress and delivery per number of a campaign: the numbers it chose, and every number that sent
 * a line of it. A campaign of CACHE_FROM_ROWS lines or more is kept as briefly as its counters (the
 * report polls it every 3 s).
 */
export async function campaignNumbers(db: Db, state: AppState, userId: string, id: string): Promise<CampaignNumbers> {
  const cache = state.of(campaignsSlot).numbers;
  const campaign = await currentRow(db, userId, id);
  const hit = cache.get(id, campaign.status);
  if (hit) return hit;
  const value = await countNumbers(db, userId, campaign);
  const total = value.unassigned + value.numbers.reduce((n, x) => n + x.queued + x.sent + x.failed, 0);
  if (total >= CACHE_FROM_ROWS) cache.set(id, value, campaign.status);
  return value;
}

async function countNumbers(db: Db, userId: string, campaign: CampaignRow): Promise<CampaignNumbers> {
  const { id } = campaign;
  const counts = rowsOf<{
    id: string | null;
    queued: number;
    sent: number;
    delivered: number;
    read: number;
    failed: number;
    total: number;
  }>(
    await db.execute(sql`
      select connection_id as id,
        count(*) filter (where status in ('queued', 'sending'))::int as queued,
        count(*) filter (where sent_at is not null)::int as sent,
        count(*) filter (where status in ('delivered', 'read'))::int as delivered,
        count(*) filter (where status = 'read')::int as read,
        count(*) filter (where status = 'failed')::int as failed,
        count(*)::int as total
      from campaign_recipients where campaign_id = ${id}
      group by connection_id`),
  );
  const byId = new Map(counts.filter((c) => c.id).map((c) => [c.id as string, c]));
  const ids = [...new Set([...campaign.connectionIds, ...byId.keys()])];
  const rows = ids.length
    ? await db
        .select()
        .from(connections)
        .where(ofAccount(connections, userId, inArray(connections.id, ids)))
    : [];
  const zero = { queued: 0, sent: 0, delivered: 0, read: 0, failed: 0 };
  return {
    numbers: rows
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((n) => {
        const c = byId.get(n.id);
        return {
          connectionId: n.id,
          label: n.label,
          phoneNumber: e164Of(n.phoneNumber),
          kind: n.kind,
          removed: n.deletedAt !== null,
          stopReason: n.stopReason,
          ...(c ? { queued: c.queued, sent: c.sent, delivered: c.delivered, read: c.read, failed: c.failed } : zero),
        };
      }),
    unassigned: counts.find((c) => !c.id)?.total ?? 0,
  };
}

export async function listRecipients(
  db: Db,
  userId: string,
  id: string,
  q: { status?: RecipientStatus; page: number; limit: number },
): Promise<RecipientsPage> {
  await currentRow(db, userId, id);
  const status = q.status ? eq(campaignRecipients.status, q.status) : undefined;
  // The campaign is the account's (currentRow above); the count stays on the campaign index alone.
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(acrossAccounts(campaignRecipients))
    .where(and(eq(campaignRecipients.campaignId, id), status));
  const rows = await db
    .select()
    .from(campaignRecipients)
    .where(ofAccount(campaignRecipients, userId, eq(campaignRecipients.campaignId, id), status))
    .orderBy(campaignRecipients.name, campaignRecipients.recipient)
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const names = await numberNames(db, userId);
  return { items: rows.map((r) => toRecipient(r, names)), total, page: q.page, limit: q.limit };
}

function toRecipient(r: typeof campaignRecipients.$inferSelect, names: Map<string, string>): CampaignRecipient {
  return {
    id: r.id,
    recipient: r.kind === 'group' ? r.recipient : `+${r.recipient}`,
    kind: r.kind,
    name: r.name,
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    queuedAt: r.createdAt.toISOString(),
    sentAt: ISO(r.sentAt),
    deliveredAt: ISO(r.deliveredAt),
    readAt: ISO(r.readAt),
    failedAt: ISO(r.failedAt),
    connectionId: r.connectionId,
    sentFrom: r.connectionId ? (names.get(r.connectionId) ?? null) : null,
  };
}

const EXPORT_MAX_ROWS = 1_000_000;

/** The per-recipient report as a table: recipient, name, status, the time of each step, the failure reason. */
export async function recipientsTable(
  db: Db,
  userId: string,
  id: string,
  status?: RecipientStatus,
): Promise<{ name: string; table: Table }> {
  const c = await currentRow(db, userId, id);
  const rows = await db
    .select()
    .from(campaignRecipients)
    .where(
      ofAccount(
        campaignRecipients,
        userId,
        eq(campaignRecipients.campaignId, id),
        status ? eq(campaignRecipients.status, status) : undefined,
      ),
    )
    .orderBy(campaignRecipients.name, campaignRecipients.recipient)
    .limit(EXPORT_MAX_ROWS);
  const names = await numberNames(db, userId);
  const table: Table = [
    [
      'Destinatário',
      'Nome',
      'Tipo',
      'Status',
      'Na fila em',
      'Enviada em',
      'Entregue em',
      'Lida em',
      'Falhou em',
      'Tentativas',
      'Motivo',
      'Número',
    ],
    ...rows.map((r) => {
      const x = toRecipient(r, names);
      return [
        x.recipient,
        r.name,
        r.kind === 'group' ? 'Grupo' : 'Contato',
        RECIPIENT_STATUS_LABELS[r.status],
        tableTime(r.createdAt),
        tableTime(r.sentAt),
        tableTime(r.deliveredAt),
        tableTime(r.readAt),
        tableTime(r.failedAt),
        String(r.attempts),
        r.error ?? '',
        x.sentFrom ?? '',
      ];
    }),
  ];
  return { name: c.name, table };
}

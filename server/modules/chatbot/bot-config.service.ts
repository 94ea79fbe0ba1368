import { asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Role } from '../../../contract/auth';
import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import {
  type AutoReply,
  type AutoReplyRule,
  aiUnavailableFor,
  BOT_REPLIES_MAX,
  type BotButton,
  type BotConfig,
  type BotConfigInput,
  type botConfigInput,
  botMsg,
  DEFAULT_BOT_CONFIG,
  fileKindArticles,
  isFileRule,
  type Weekday,
  weekdays,
} from '../../../contract/bot';
import { mediaMsg } from '../../../contract/media';
import { normalizeForMatch } from '../../../contract/text-match';
import { uploadIdOf } from '../../../contract/uploads';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { autoReplies, botConfigs, mediaUploads, queues } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { linkProblem, type OutboundPolicy } from '../../lib/outbound-fetch';
import { getAccountSettings, updateBusinessHours } from '../settings';
import { releaseFiles } from '../uploads';

type ParsedInput = z.output<typeof botConfigInput>;
type RuleRow = typeof autoReplies.$inferSelect;

/** What a rule answers and when, without its id and place: as saved, restored and backed up. */
export function ruleContent(
  r: Pick<AutoReplyRule, 'trigger' | 'response' | 'type' | 'buttons' | 'imageUrl' | 'isActive'> &
    Partial<Pick<AutoReply, 'mediaUrl' | 'location' | 'contactCard'>>,
) {
  return {
    trigger: r.trigger,
    response: r.response,
    type: r.type,
    buttons: r.buttons satisfies BotButton[],
    imageUrl: r.imageUrl,
    mediaUrl: r.mediaUrl ?? '',
    location: r.location ?? null,
    contactCard: r.contactCard ?? null,
    isActive: r.isActive,
  };
}

/** What a rule's file must be for the account: one of its own ready files, of the rule's kind. */
export type RuleMedia = Pick<AppDeps['media'], 'fromLink'>;

/**
 * A document, audio or video rule's file as it is kept: `upload:<id>` of one of the account's own
 * files, of the rule's kind. An https link is fetched now into the account's files (and kept as
 * that upload). Another account's id is as unknown as a missing one. Other rules pass as they are.
 */
export async function resolveRuleMedia<R extends AutoReplyRule>(
  db: Db,
  userId: string,
  rule: R,
  media: RuleMedia | undefined,
  field = 'mediaUrl',
): Promise<R> {
  if (!isFileRule(rule.type)) return rule;
  const refuse = (message: string): never => {
    throw new AppError('VALIDATION', message, { [field]: message });
  };
  let id = uploadIdOf(rule.mediaUrl, { uuidOnly: true });
  if (id === null) {
    if (!media) return refuse(botMsg.mediaInvalid);
    id = (await media.fromLink(userId, rule.mediaUrl)).id;
  }
  const [file] = await db
    .select({ kind: mediaUploads.kind, state: mediaUploads.state })
    .from(mediaUploads)
    .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, id.toLowerCase())));
  if (file?.state !== 'ready') return refuse(botMsg.mediaNotFound);
  if (file.kind !== rule.type)
    return refuse(
      botMsg.mediaWrongKind(fileKindArticles[rule.type] ?? rule.type, fileKindArticles[file.kind] ?? file.kind),
    );
  return { ...rule, mediaUrl: `upload:${id.toLowerCase()}` };
}

function toAutoReply(r: RuleRow): AutoReply {
  return {
    id: r.id,
    keyword: r.trigger,
    trigger: r.trigger,
    response: r.response,
    type: r.type,
    buttons: (r.buttons as BotButton[]) ?? [],
    imageUrl: r.imageUrl,
    mediaUrl: r.mediaUrl,
    location: (r.location as AutoReply['location']) ?? null,
    contactCard: (r.contactCard as AutoReply['contactCard']) ?? null,
    queueId: r.queueId ?? null,
    isActive: r.isActive,
  };
}

/**
 * The queues rules hand conversations to must be the account's own: another account's queue is as
 * unknown as a made-up id, named on the rule's field.
 */
async function checkRuleQueues(db: Db, userId: string, rules: AutoReplyRule[], field: (i: number) => string) {
  const wanted = [...new Set(rules.map((r) => r.queueId).filter((id): id is string => !!id))];
  if (!wanted.length) return;
  const found = new Set(
    (
      await db
        .select({ id: queues.id })
        .from(queues)
        .where(ofAccount(queues, userId, inArray(queues.id, wanted)))
    ).map((r) => r.id),
  );
  const bad = rules.findIndex((r) => r.queueId && !found.has(r.queueId));
  if (bad >= 0) throw new AppError('NOT_FOUND', botMsg.queueNotFound, { [field(bad)]: botMsg.queueNotFound });
}

/** The whole bot config of SPEC §3 with our additions, defaults for an account that saved nothing. */
export async function getBotConfig(
  db: Db,
  userId: string,
  opts: { aiAvailable: boolean; defaultModel?: string },
): Promise<BotConfig> {
  const [row] = await db.select().from(botConfigs).where(ofAccount(botConfigs, userId));
  const rules = await db
    .select()
    .from(autoReplies)
    .where(ofAccount(autoReplies, userId))
    .orderBy(asc(autoReplies.position), asc(autoReplies.createdAt));
  const settings = await getAccountSettings(db, userId);
  const d = DEFAULT_BOT_CONFIG;
  return {
    isEnabled: row?.isEnabled ?? d.isEnabled,
    welcomeMessage: row?.welcomeMessage ?? d.welcomeMessage,
    autoReplies: rules.map(toAutoReply),
    aiEnabled: row?.aiEnabled ?? d.aiEnabled,
    aiModel: row?.aiModel ?? opts.defaultModel ?? d.aiModel,
    businessHours: {
      start: settings.businessStart,
      end: settings.businessEnd,
      days: weekdays.filter((w): w is Weekday => settings.businessDays.includes(w)),
    },
    outOfHoursMessage: row?.outOfHoursMessage ?? d.outOfHoursMessage,
    aiInstructions: row?.aiInstructions ?? d.aiInstructions,
    handoffMinutes: row?.handoffMinutes ?? d.handoffMinutes,
    aiAvailable: opts.aiAvailable,
  };
}

/**
 * Saves the config whole (SPEC §3: `POST /api/bot-config`): a field left out keeps its stored
 * value; `autoReplies`, when sent, replaces the account's rules in the order given; the business
 * hours are the account's one set, shared with the WhatsApp settings. One transaction.
 */
export async function saveBotConfig(
  db: Db,
  userId: string,
  input: ParsedInput,
  opts: { aiAvailable: boolean; defaultModel?: string; outbound?: OutboundPolicy; role: Role; media?: RuleMedia },
): Promise<BotConfig> {
  const outbound = opts.outbound ?? { allowPrivate: false };
  const badImage = input.autoReplies?.findIndex((r) => imageProblem(r, outbound)) ?? -1;
  if (badImage >= 0) {
    throw new AppError('VALIDATION', mediaMsg.imageUrlNotPublic, {
      [`autoReplies.${badImage}.imageUrl`]: mediaMsg.imageUrlNotPublic,
    });
  }
  if (input.autoReplies) {
    const resolved: AutoReplyRule[] = [];
    for (const [i, r] of input.autoReplies.entries())
      resolved.push(await resolveRuleMedia(db, userId, r, opts.media, `autoReplies.${i}.mediaUrl`));
    input = { ...input, autoReplies: resolved };
    await checkRuleQueues(db, userId, resolved, (i) => `autoReplies.${i}.queueId`);
  }
  if (input.aiEnabled && !opts.aiAvailable) {
    // Turning AI on needs a key on this server; a config saved whole with AI already on is kept as is.
    const [stored] = await db
      .select({ aiEnabled: botConfigs.aiEnabled })
      .from(botConfigs)
      .where(ofAccount(botConfigs, userId));
    if (!stored?.aiEnabled) {
      const message = aiUnavailableFor(opts.role);
      throw new AppError('VALIDATION', message, { aiEnabled: message });
    }
  }
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const values = {
      ...(input.isEnabled !== undefined && { isEnabled: input.isEnabled }),
      ...(input.welcomeMessage !== undefined && { welcomeMessage: input.welcomeMessage.trim() }),
      ...(input.aiEnabled !== undefined && { aiEnabled: input.aiEnabled }),
      ...(input.aiModel !== undefined && { aiModel: input.aiModel }),
      ...(input.outOfHoursMessage !== undefined && { outOfHoursMessage: input.outOfHoursMessage.trim() }),
      ...(input.aiInstructions !== undefined && { aiInstructions: input.aiInstructions.trim() }),
      ...(input.handoffMinutes !== undefined && { handoffMinutes: input.handoffMinutes }),
    };
    // Always touched: the chatbot recompiles an account's rules when updated_at moves.
    await t
      .insert(botConfigs)
      .values({ userId, ...values, updatedAt: new Date() })
      .onConflictDoUpdate({ target: botConfigs.userId, set: { ...values, updatedAt: sql`now()` } });
    if (input.autoReplies) {
      // Only this account's own ids are kept: another account's id is never reused.
      const previous = await t
        .select({ id: autoReplies.id, imageUrl: autoReplies.imageUrl, mediaUrl: autoReplies.mediaUrl })
        .from(autoReplies)
        .where(ofAccount(autoReplies, userId));
      const own = new Set(previous.map((r) => r.id));
      await t.delete(autoReplies).where(ofAccount(autoReplies, userId));
      const seen = new Set<string>();
      const rows = input.autoReplies.map((r, position) => ({
        // Ids stay stable across saves; a repeated one (a copied row) gets a new id.
        ...(r.id && own.has(r.id) && !seen.has(r.id) && seen.add(r.id) ? { id: r.id } : {}),
        userId,
        ...ruleContent(r),
        queueId: r.queueId,
        position,
      }));
      for (let i = 0; i < rows.length; i += 500) await t.insert(autoReplies).values(rows.slice(i, i + 500));
      // Files the replaced rules used and nothing uses now are freed with the save.
      await releaseFiles(
        t,
        userId,
        previous.flatMap((r) => [r.imageUrl, r.mediaUrl]),
      );
    }
  });
  if (input.businessHours) {
    await updateBusinessHours(db, userId, input.businessHours);
  }
  return getBotConfig(db, userId, opts);
}

/** A rule's image must be a public link (not an upload of this server, not a private address). */
function imageProblem(rule: Pick<AutoReplyRule, 'imageUrl'>, outbound: OutboundPolicy): boolean {
  return Boolean(rule.imageUrl && linkProblem(rule.imageUrl, outbound));
}

type RuleOpts = { aiAvailable: boolean; defaultModel?: string; outbound?: OutboundPolicy; media?: RuleMedia };

/**
 * One rule written on its own (the manager's add, edit, pause, delete): in one transaction that
 * first touches the account's config row — which moves `updated_at`, so the chatbot recompiles, and
 * locks the row, so two writes of one account's rules take turns and the repeated-keyword check
 * holds — then finds the account's own rule `exceptId` (not found: 404, whoever else owns the id)
 * and checks the keyword against the account's other rules.
 */
async function writeRule<T>(
  db: Db,
  userId: string,
  rule: AutoReplyRule | null,
  exceptId: string | null,
  write: (t: Db, before: RuleRow | undefined) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t
      .insert(botConfigs)
      .values({ userId, updatedAt: new Date() })
      .onConflictDoUpdate({ target: botConfigs.userId, set: { updatedAt: sql`now()` } });
    let before: RuleRow | undefined;
    if (exceptId) {
      [before] = await t
        .select()
        .from(autoReplies)
        .where(ofAccount(autoReplies, userId, eq(autoReplies.id, exceptId)));
      if (!before) throw new AppError('NOT_FOUND', botMsg.ruleNotFound);
    }
    if (rule) {
      const others = await t
        .select({ trigger: autoReplies.trigger })
        .from(autoReplies)
        .where(ofAccount(autoReplies, userId, exceptId ? ne(autoReplies.id, exceptId) : undefined));
      const key = normalizeForMatch(rule.trigger);
      if (others.some((o) => normalizeForMatch(o.trigger) === key)) {
        const message = botMsg.keywordDuplicate(rule.trigger);
        throw new AppError('VALIDATION', message, { trigger: message });
      }
      if (!exceptId && others.length >= BOT_REPLIES_MAX) throw new AppError('VALIDATION', botMsg.tooManyReplies);
    }
    return write(t, before);
  });
}

const ruleValues = (rule: AutoReplyRule) => ({
  trigger: rule.trigger,
  response: rule.response,
  type: rule.type,
  buttons: rule.buttons,
  imageUrl: rule.imageUrl,
  mediaUrl: rule.mediaUrl,
  location: rule.location,
  contactCard: rule.contactCard,
  queueId: rule.queueId,
  isActive: rule.isActive,
});

function refuseBadImage(rule: AutoReplyRule, outbound: OutboundPolicy | undefined): void {
  if (imageProblem(rule, outbound ?? { allowPrivate: false })) {
    throw new AppError('VALIDATION', mediaMsg.imageUrlNotPublic, { imageUrl: mediaMsg.imageUrlNotPublic });
  }
}

/** `POST /api/bot-config/auto-replies`: one rule added after the account's others, kept at once. */
export async function addAutoReply(
  db: Db,
  userId: string,
  rule: AutoReplyRule,
  opts: RuleOpts,
): Promise<{ rule: AutoReply; config: BotConfig }> {
  refuseBadImage(rule, opts.outbound);
  rule = await resolveRuleMedia(db, userId, rule, opts.media);
  await checkRuleQueues(db, userId, [rule], () => 'queueId');
  const row = await writeRule(db, userId, rule, null, async (t) => {
    const [last] = await t
      .select({ position: sql<number>`coalesce(max(${autoReplies.position}), -1)` })
      .from(autoReplies)
      .where(ofAccount(autoReplies, userId));
    const [inserted] = await t
      .insert(autoReplies)
      .values({ userId, ...ruleValues(rule), position: Number(last?.position ?? -1) + 1 })
      .returning();
    return inserted;
  });
  return { rule: toAutoReply(row), config: await getBotConfig(db, userId, opts) };
}

/**
 * `PUT /api/bot-config/auto-replies/{id}`: the account's own rule replaced whole, in its place
 * (another account's id, or none, is not found). Tells whether only its on/off state moved.
 */
export async function updateAutoReply(
  db: Db,
  userId: string,
  id: string,
  rule: AutoReplyRule,
  opts: RuleOpts,
): Promise<{ rule: AutoReply; config: BotConfig; onlyActiveChanged: boolean }> {
  refuseBadImage(rule, opts.outbound);
  rule = await resolveRuleMedia(db, userId, rule, opts.media);
  await checkRuleQueues(db, userId, [rule], () => 'queueId');
  const { row, onlyActiveChanged } = await writeRule(db, userId, rule, id, async (t, before) => {
    const [updated] = await t
      .update(autoReplies)
      .set(ruleValues(rule))
      .where(ofAccount(autoReplies, userId, eq(autoReplies.id, id)))
      .returning();
    // A file the rule no longer uses (and nothing else does) is freed with the change.
    if (updated && before) await releaseFiles(t, userId, [before.imageUrl, before.mediaUrl]);
    const same = (r: RuleRow) => JSON.stringify({ ...ruleValues(toAutoReply(r) as AutoReplyRule), isActive: null });
    const moved = before !== undefined && before.isActive !== updated.isActive;
    return { row: updated, onlyActiveChanged: moved && same(before) === same(updated) };
  });
  return { rule: toAutoReply(row), config: await getBotConfig(db, userId, opts), onlyActiveChanged };
}

/** `DELETE /api/bot-config/auto-replies/{id}`: the account's own rule removed (another's is not found). */
export async function deleteAutoReply(db: Db, userId: string, id: string, opts: RuleOpts): Promise<BotConfig> {
  await writeRule(db, userId, null, id, async (t, before) => {
    await t.delete(autoReplies).where(ofAccount(autoReplies, userId, eq(autoReplies.id, id)));
    await releaseFiles(t, userId, [before?.imageUrl, before?.mediaUrl]);
  });
  return getBotConfig(db, userId, opts);
}

export type { BotConfigInput };

// Restore (modules/backup)

/** Rows written per statement on restore (modules/backup). */
const RESTORE_BATCH = 500;

/**
 * The bot: an account that never saved a configuration takes the backup's; one that did keeps its
 * own, with its empty texts (welcome, out-of-hours, AI instructions) filled from the backup. Rules
 * by keyword (as the matcher compares them): a keyword the account has keeps its rule; the others
 * are added after its own, up to the limit of rules.
 */
export async function restoreBot(
  t: Db,
  userId: string,
  bot: NonNullable<BackupFile['bot']>,
  aiAvailable: boolean,
  /**
   * The account's own files (lowercase ids): a document, audio or video rule comes back when its
   * file is one of them, or when `restoreFile` brings it back as one (answering its id, or null once
   * it has said why not); the others are told to `skipFile`.
   */
  files?: {
    own: ReadonlySet<string>;
    skipFile: (trigger: string) => void;
    restoreFile?: (id: string, rule: { trigger: string; type: string }) => Promise<string | null>;
  },
  /** The account's queue of a name (the backup names a rule's queue): the restored rule hands off to it. */
  queueOf?: (name: string) => string | undefined,
): Promise<{ config: RestoreCounts; rules: RestoreCounts }> {
  const config = zeroCounts();
  const rules = zeroCounts();
  // The account's bot row is locked before its rules are counted, until the restore commits: saving
  // the bot settings meanwhile (which takes the row first, then replaces the rules) waits, so the
  // rules counted here stay the account's and BOT_REPLIES_MAX holds. An account that never saved a
  // configuration gets the backup's now, which locks it the same way.
  const locked = () => t.select().from(botConfigs).where(ofAccount(botConfigs, userId)).for('update');
  let [row] = await locked();
  let created = false;
  if (!row) {
    const d = DEFAULT_BOT_CONFIG;
    const [inserted] = await t
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
      // Saved meanwhile from the bot settings: theirs wins, and is filled in as any saved one.
      .onConflictDoNothing()
      .returning({ userId: botConfigs.userId });
    created = inserted !== undefined;
    if (!created) [row] = await locked();
  }
  const existing = await t
    .select({ trigger: autoReplies.trigger, position: autoReplies.position })
    .from(autoReplies)
    .where(ofAccount(autoReplies, userId));
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
    let mediaUrl = r.mediaUrl;
    if (isFileRule(r.type)) {
      const id = uploadIdOf(r.mediaUrl, { uuidOnly: true })?.toLowerCase();
      if (id && !files?.own.has(id) && files?.restoreFile) {
        const restored = await files.restoreFile(id, r);
        // Not a rule over the limit: the warning (written by restoreFile) says why it stayed out.
        if (!restored) continue;
        mediaUrl = `upload:${restored.toLowerCase()}`;
      } else if (!id || !files?.own.has(id)) {
        files?.skipFile(r.trigger);
        continue;
      }
    }
    triggers.add(key);
    fresh.push({
      userId,
      ...ruleContent({ ...r, mediaUrl }),
      queueId: (r.queue && queueOf?.(r.queue)) || null,
      position: position++,
    });
  }
  for (let i = 0; i < fresh.length; i += RESTORE_BATCH)
    await t.insert(autoReplies).values(fresh.slice(i, i + RESTORE_BATCH));
  rules.added = fresh.length;

  if (!row) {
    // Created here (or, saved meanwhile, gone again before it could be read).
    config[created ? 'added' : 'unchanged'] = 1;
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
      .where(ofAccount(botConfigs, userId));
  }
  if (filled) config.updated = 1;
  else config.unchanged = 1;
  return { config, rules };
}

import './zod-locale';
import { z } from 'zod';
import { BOT_REPLIES_MAX, backupAutoReplyInput, botConfigInput, botMsg, refuseRepeatedTriggers, weekdays } from './bot';
import {
  CAMPAIGN_MESSAGE_MAX,
  CAMPAIGN_NAME_MAX,
  campaignMsg,
  campaignStatuses,
  campaignTargetTypes,
  recipientStatuses,
  templateVariable,
} from './campaigns';
import { contactsMsg, groupInput } from './contacts';
import { contactCardInput, locationInput, MEDIA_KINDS } from './message-content';
import { QUEUE_LIMIT, queueInput } from './queues';
import { QUICK_REPLY_LIMIT, quickReplyInput } from './quick-replies';
import { savedMessageInput } from './saved-messages';
import { notificationSettingsSchema, updateWhatsappSettingsInput } from './settings';
import { INVALID_CHARACTERS, text } from './text';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, uploadIdOf } from './uploads';

/**
 * The account backup (`GET /api/backup`, `POST /api/backup/restore`): one JSON file with a format
 * name and version, and the account's data — contacts, groups, saved messages, campaigns with
 * their recipient lines, the bot's configuration and rules, the team's queues and quick replies,
 * and the settings. Never a secret: no
 * password, session, WhatsApp key or credential, no Cloud API token (docs/decisions/013).
 */
export const BACKUP_FORMAT = 'disparo-backup';
export const BACKUP_VERSION = 1;
/**
 * Largest backup a restore accepts without its images (about 200,000 contacts, or contacts plus
 * recipient lines): what is parsed as JSON.
 */
export const BACKUP_MAX_FILE_MB = 50;
/**
 * Room in a backup file for the account's uploaded images, as the file carries them (base64, so
 * about 30 MB of images), and how many it carries at most. Images beyond either are named in
 * `mediaLeftOut`, and a restore says which ones it could not bring back.
 */
export const BACKUP_MEDIA_MAX_MB = 40;
export const BACKUP_MEDIA_MAX_COUNT = 100;
/** The whole file a restore reads: the data and its images. */
export const BACKUP_MAX_UPLOAD_MB = BACKUP_MAX_FILE_MB + BACKUP_MEDIA_MAX_MB;
/** Base64 characters of the largest image an account may upload. */
export const BACKUP_MEDIA_BASE64_MAX = Math.ceil(UPLOAD_MAX_BYTES / 3) * 4;
/** Base64 characters of the largest file of the media store a backup may carry (all of its room). */
export const BACKUP_FILE_BASE64_MAX = BACKUP_MEDIA_MAX_MB * 1024 * 1024;

const FILE_MISSING = 'o arquivo não é desta conta e o backup não o traz';

/** pt-BR texts of the backup download and restore. */
export const backupMsg = {
  downloadLabel: 'Backup de Dados',
  downloading: 'Gerando backup...',
  downloaded: 'Backup baixado com sucesso.',
  downloadError: 'Erro ao gerar o backup. Tente novamente.',
  restoreTitle: 'Restaurar backup',
  restoreDescription:
    'Envie um arquivo de backup do Disparo (.json). Os dados são somados aos da conta: contatos pelo telefone, grupos e filas pelo nome, respostas automáticas pela palavra-chave e respostas rápidas pelo atalho. Nada é apagado nem duplicado, e campanhas restauradas não são reenviadas. As imagens enviadas voltam como imagens desta conta; o que não puder voltar é avisado.',
  fileLabel: 'Arquivo de backup (.json)',
  restoreButton: 'Restaurar backup',
  restoring: 'Restaurando...',
  restoreErrorTitle: 'Erro ao restaurar backup',
  restoreError: 'Não foi possível restaurar o backup. Nenhum dado foi alterado. Tente novamente.',
  chooseFile: 'Selecione o arquivo de backup (.json).',
  invalidFileType: 'Selecione um arquivo de backup .json gerado pelo Disparo.',
  noFile: 'Nenhum arquivo enviado. Envie o backup no campo "file".',
  emptyFile: 'O arquivo de backup está vazio.',
  fileTooLarge: (mb: number) =>
    `Arquivo muito grande. O limite do backup é ${mb} MB, mais até ${BACKUP_MEDIA_MAX_MB} MB de imagens.`,
  /** The hint under the file picker. */
  sizeHint: `Até ${BACKUP_MAX_FILE_MB} MB de dados, mais até ${BACKUP_MEDIA_MAX_MB} MB de imagens.`,
  notJson: 'O arquivo não é um backup do Disparo: o conteúdo não é um JSON válido.',
  tooComplex:
    'O arquivo não é um backup do Disparo: tem níveis ou itens demais para um backup. Nenhum dado foi alterado.',
  notBackup: 'O arquivo não é um backup do Disparo (formato "disparo-backup" não encontrado).',
  unsupportedVersion: (version: unknown) =>
    `Versão de backup não suportada (${String(version).slice(0, 20)}). Este servidor restaura backups da versão ${BACKUP_VERSION}.`,
  /** A refused file: where (see describeBackupPath) and what is wrong. Nothing was changed. */
  invalid: (where: string, problem: string) =>
    `Backup inválido (${where}): ${problem.trim().replace(/([^.!?])$/, '$1.')} Nenhum dado foi alterado.`,
  dateInvalid: 'Data inválida. Use o formato ISO 8601, por exemplo 2026-11-22T14:05:00.000Z.',
  duplicatePhone: 'Telefone repetido no backup.',
  duplicateGroup: 'Grupo repetido no backup.',
  imageInvalid: 'Imagem inválida: use um link http(s) ou uma imagem enviada à conta.',
  fileInvalid: 'Arquivo inválido: use um link http(s) ou um arquivo enviado à conta.',
  /** The report line of a recipient that had not been sent when the backup was made. */
  recipientNotSent: 'Não enviada: a campanha foi restaurada de um backup e não é reenviada.',
  nothingNew: 'Nada a restaurar: todos os dados do backup já estão na conta.',
  contactsOverLimit: (skipped: number, limit: number, label: string) =>
    `${skipped.toLocaleString('pt-BR')} contatos não foram restaurados porque o ${label} permite até ${limit.toLocaleString('pt-BR')} contatos.`,
  queuesOverLimit: (skipped: number) =>
    `${skipped.toLocaleString('pt-BR')} ${skipped === 1 ? 'fila não foi restaurada' : 'filas não foram restauradas'}: o limite é de ${QUEUE_LIMIT} por conta.`,
  /** Numbers and people belong to the account where the backup was made: a restored queue has none yet. */
  queuesNeedPeople: 'As filas restauradas vêm sem números e sem pessoas: escolha-os em Filas.',
  quickRepliesOverLimit: (skipped: number) =>
    `${skipped.toLocaleString('pt-BR')} ${skipped === 1 ? 'resposta rápida não foi restaurada' : 'respostas rápidas não foram restauradas'}: o limite é de ${QUICK_REPLY_LIMIT.toLocaleString('pt-BR')} por conta.`,
  quickReplyFileNotRestored: (shortcut: string, reason: string = FILE_MISSING) =>
    `Arquivo da resposta rápida “/${shortcut}” não foi restaurado: ${lowerFirst(reason).replace(/([^.!?])$/, '$1.')} A resposta voltou só com o texto.`,
  duplicateQueue: 'Fila repetida no backup: cada nome de fila deve aparecer uma vez.',
  duplicateShortcut: 'Atalho repetido no backup: cada resposta rápida deve ter o seu.',
  repliesOverLimit: (skipped: number) =>
    `${skipped.toLocaleString('pt-BR')} respostas automáticas não foram restauradas: o limite é de ${BOT_REPLIES_MAX.toLocaleString('pt-BR')} por conta.`,
  /** The images section of a file (`media`): shape problems refuse the file, as any other section's. */
  mediaNotList: 'A seção de imagens deve ser uma lista.',
  mediaNotObject: 'Cada imagem deve ser um objeto com "url" e "data".',
  mediaTooMany: `O backup traz mais de ${BACKUP_MEDIA_MAX_COUNT} imagens; um backup do Disparo leva até ${BACKUP_MEDIA_MAX_COUNT}.`,
  mediaUrlInvalid: 'Referência de imagem inválida: use "upload:" seguido do identificador da imagem.',
  mediaFieldInvalid: 'Valor inválido para este campo da imagem.',
  mediaDataNotText: 'O conteúdo da imagem deve ser um texto em base64.',
  /** Why one image of a restored row did not come back (the row itself is restored without it). */
  mediaMissing:
    'o arquivo não traz a imagem (backups feitos antes de as imagens irem junto levam só a referência). Anexe a imagem novamente.',
  mediaLeftOut: `a imagem ficou fora do arquivo: um backup leva até ${BACKUP_MEDIA_MAX_COUNT} imagens e ${BACKUP_MEDIA_MAX_MB} MB de imagens. Anexe a imagem novamente.`,
  mediaCorrupted: 'o conteúdo da imagem no arquivo está corrompido (não é base64 válido).',
  campaignImageNotRestored: (name: string, reason: string) =>
    `Imagem da campanha “${name}” não pôde ser restaurada: ${lowerFirst(reason)}`,
  ruleFileNotRestored: (trigger: string, reason: string = FILE_MISSING) =>
    `Resposta automática “${trigger}” não foi restaurada: ${lowerFirst(reason).replace(/([^.!?])$/, '$1.')} Crie a resposta novamente com o arquivo.`,
  campaignFileNotRestored: (name: string, reason: string) =>
    `Arquivo da campanha “${name}” não pôde ser restaurado: ${lowerFirst(reason)}`,
  /** Why a document, audio, video or sticker of a restored row did not come back. */
  fileMissing: FILE_MISSING,
  fileLeftOut: `o arquivo ficou fora do backup: um backup leva até ${BACKUP_MEDIA_MAX_COUNT} arquivos e ${BACKUP_MEDIA_MAX_MB} MB de arquivos. Anexe o arquivo novamente.`,
  fileCorrupted: 'o conteúdo do arquivo no backup está corrompido (não é base64 válido ou não confere com o original).',
  fileWrongKind: 'o arquivo no backup não é do tipo que a resposta envia.',
  messageFileNotRestored: (title: string, reason: string = FILE_MISSING) =>
    `Arquivo da mensagem salva “${title}” não foi restaurado: ${lowerFirst(reason).replace(/([^.!?])$/, '$1.')} Anexe o arquivo novamente.`,
  messageImageNotRestored: (title: string, reason: string) =>
    `Imagem da mensagem salva “${title}” não pôde ser restaurada: ${lowerFirst(reason)}`,
  moreWarnings: (n: number) =>
    `E mais ${n.toLocaleString('pt-BR')} ${n === 1 ? 'imagem não pôde ser restaurada' : 'imagens não puderam ser restauradas'}.`,
  imagesNotRestored: (n: number) =>
    n === 1 ? '1 imagem não pôde ser restaurada.' : `${n.toLocaleString('pt-BR')} imagens não puderam ser restauradas.`,
} as const;

/** A reason as the rest of a sentence: 'Imagem muito grande.' → 'imagem muito grande.' (an acronym stays). */
function lowerFirst(reason: string): string {
  return /^[A-ZÀ-Ý][a-zà-ÿ]/.test(reason) ? reason.charAt(0).toLowerCase() + reason.slice(1) : reason;
}

const SECTION_LABELS: Record<string, string> = {
  contacts: 'contato',
  groups: 'grupo',
  savedMessages: 'mensagem salva',
  campaigns: 'campanha',
  recipients: 'destinatário',
  autoReplies: 'resposta automática',
  queues: 'fila',
  quickReplies: 'resposta rápida',
  buttons: 'botão',
  templateVariables: 'variável do modelo',
  targetGroups: 'grupo do público',
  targetTags: 'tag do público',
  tags: 'tag',
  bot: 'chatbot',
  settings: 'configurações',
  whatsapp: 'WhatsApp',
  notifications: 'notificações',
  businessDays: 'dia do expediente',
  media: 'imagem',
};

const FIELD_LABELS: Record<string, string> = {
  format: 'formato',
  version: 'versão',
  exportedAt: 'data do backup',
  name: 'nome',
  phone: 'telefone',
  email: 'email',
  isActive: 'ativo',
  optedOut: 'descadastrado',
  isWhatsAppActive: 'WhatsApp ativo',
  whatsappCheckedAt: 'verificado em',
  createdAt: 'criado em',
  updatedAt: 'atualizado em',
  whatsappGroupId: 'ID do grupo no WhatsApp',
  membersCount: 'membros',
  title: 'título',
  type: 'tipo',
  content: 'conteúdo',
  contentType: 'tipo de conteúdo',
  imageUrl: 'imagem',
  imageFile: 'arquivo de imagem',
  mediaUrl: 'arquivo',
  uploadId: 'imagem enviada',
  message: 'mensagem',
  status: 'status',
  targetType: 'público',
  scheduledAt: 'agendada para',
  startedAt: 'iniciada em',
  finishedAt: 'concluída em',
  recipient: 'destinatário',
  kind: 'tipo',
  error: 'erro',
  attempts: 'tentativas',
  queuedAt: 'na fila desde',
  sentAt: 'enviada em',
  deliveredAt: 'entregue em',
  readAt: 'lida em',
  failedAt: 'falhou em',
  trigger: 'palavra-chave',
  keyword: 'palavra-chave',
  response: 'resposta',
  text: 'texto',
  value: 'valor',
  welcomeMessage: 'mensagem de boas-vindas',
  outOfHoursMessage: 'mensagem fora do expediente',
  aiInstructions: 'instruções da IA',
  aiModel: 'modelo de IA',
  aiEnabled: 'IA ativa',
  isEnabled: 'bot ativo',
  handoffMinutes: 'tempo de atendimento humano',
  messageDelay: 'intervalo entre mensagens',
  dailyLimit: 'limite diário',
  businessStart: 'início do expediente',
  businessEnd: 'fim do expediente',
  media: 'imagens',
  url: 'referência',
  fileName: 'nome do arquivo',
  data: 'conteúdo',
  mediaLeftOut: 'imagens fora do backup',
};

/**
 * Where in a backup a problem is, in words a person can find it by: ['contacts', 2, 'phone'] →
 * 'contato nº 3, campo "telefone"'.
 */
export function describeBackupPath(path: ReadonlyArray<PropertyKey>): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = String(path[i]);
    const next = path[i + 1];
    if (typeof next === 'number' && SECTION_LABELS[key]) {
      parts.push(`${SECTION_LABELS[key]} nº ${next + 1}`);
      i++;
    } else if (SECTION_LABELS[key] && i < path.length - 1) {
      parts.push(SECTION_LABELS[key]);
    } else {
      parts.push(`campo "${FIELD_LABELS[key] ?? key}"`);
    }
  }
  return parts.length ? parts.join(', ') : 'arquivo';
}

const isoDate = () => z.iso.datetime({ offset: true, error: backupMsg.dateInvalid });
const optionalDate = () =>
  isoDate()
    .nullish()
    .transform((v) => v ?? null);
const optionalText = (max: number) =>
  text()
    .max(max)
    .nullish()
    .transform((v) => v || null);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text as the database holds it: anything but NUL and lone surrogates, which it cannot store.
 * Contacts arrive from spreadsheets and WhatsApp, which may carry control characters a form would
 * refuse (`text()`); their backup brings them back as they were instead of refusing the account's own data.
 */
const storedText = () =>
  z
    .string()
    .refine((v) => !v.includes('\u0000') && !LONE_SURROGATE.test(v), { message: INVALID_CHARACTERS, abort: true });
const optionalStoredText = (max: number) =>
  storedText()
    .max(max)
    .nullish()
    .transform((v) => v || null);

/** A contact as `GET /api/contacts` answers it, without its id (the phone is its identity). */
export const backupContact = z.object({
  name: storedText().trim().max(200, contactsMsg.nameMax),
  phone: text().trim().min(1, contactsMsg.required).max(40, contactsMsg.invalidPhone),
  email: optionalStoredText(320),
  tags: z.array(storedText().trim().max(100)).max(200).default([]),
  isActive: z.boolean().default(true),
  optedOut: z.boolean().default(false),
  isWhatsAppActive: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  whatsappCheckedAt: optionalDate(),
  createdAt: isoDate().optional(),
});
export type BackupContact = z.input<typeof backupContact>;

/** A group as the group form saves it (its name is its identity), with its creation date. */
export const backupGroup = groupInput.extend({ createdAt: isoDate().optional() });
export type BackupGroup = z.input<typeof backupGroup>;

/** A saved message as `POST /api/messages` takes it, with its dates. */
export const backupSavedMessage = savedMessageInput.extend({
  /** Any file sent with the message (`upload:<id>`); carried with its file, read by later restores. */
  mediaUrl: z.string().max(2048).nullish(),
  createdAt: isoDate().optional(),
  updatedAt: isoDate().optional(),
});
export type BackupSavedMessage = z.input<typeof backupSavedMessage>;

/** One report line of a campaign, as `GET /api/campaigns/{id}/recipients` answers it, without ids. */
export const backupRecipient = z.object({
  recipient: text().trim().min(1).max(200),
  kind: z.enum(['contact', 'group']).default('contact'),
  name: storedText().max(200).default(''),
  email: optionalStoredText(320),
  status: z.enum(recipientStatuses),
  error: optionalStoredText(2000),
  attempts: z.number().int().min(0).max(1000).default(0),
  queuedAt: isoDate().optional(),
  sentAt: optionalDate(),
  deliveredAt: optionalDate(),
  readAt: optionalDate(),
  failedAt: optionalDate(),
});
export type BackupRecipient = z.input<typeof backupRecipient>;

/** A campaign (its name and creation date are its identity) with its recipient lines. */
export const backupCampaign = z.object({
  name: text().trim().min(1, campaignMsg.required).max(CAMPAIGN_NAME_MAX, campaignMsg.nameTooLong),
  /** Empty only when the campaign sends a location or a contact card alone. */
  message: text().max(CAMPAIGN_MESSAGE_MAX, campaignMsg.messageTooLong),
  status: z.enum(campaignStatuses),
  targetType: z.enum(campaignTargetTypes).default('all'),
  targetGroups: z.array(text().trim().max(200)).max(1000).default([]),
  targetTags: z.array(text().trim().max(50)).max(50).default([]),
  imageUrl: optionalText(2048),
  /** Any file sent with the message (`upload:<id>` of the account's files); came after version 1's first files. */
  mediaUrl: optionalText(2048),
  /** Sent right after the message, then the contact card. */
  location: locationInput.nullable().optional(),
  contactCard: contactCardInput.nullable().optional(),
  templateName: optionalText(512),
  templateLanguage: optionalText(20),
  templateVariables: z.array(templateVariable).max(20).default([]),
  scheduledAt: optionalDate(),
  startedAt: optionalDate(),
  finishedAt: optionalDate(),
  pauseReason: optionalText(1000),
  createdAt: isoDate(),
  recipients: z.array(backupRecipient).default([]),
});
export type BackupCampaign = z.input<typeof backupCampaign>;

/** A campaign's message may be empty only when it sends a location or a contact card. */
export function backupCampaignContent(
  c: { message: string; location?: unknown; contactCard?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (!c.message && !c.location && !c.contactCard) {
    ctx.addIssue({ code: 'custom', path: ['message'], message: campaignMsg.required });
  }
}

const bot = botConfigInput.shape;

/**
 * A queue: its name (its identity), hours, out-of-hours message and how it gives conversations
 * out. Not its numbers nor its people: those are the account's where it was made.
 */
export const backupQueue = z.object({
  name: queueInput.shape.name,
  hours: queueInput.shape.hours,
  outOfHoursMessage: queueInput.shape.outOfHoursMessage,
  assignment: queueInput.shape.assignment,
  createdAt: isoDate().optional(),
});
export type BackupQueue = z.input<typeof backupQueue>;

/** A quick reply (its shortcut is its identity); `mediaUrl` (`upload:<id>`) is carried with its file. */
export const backupQuickReply = quickReplyInput.extend({
  mediaUrl: z.string().max(2048).nullish(),
  createdAt: isoDate().optional(),
});
export type BackupQuickReply = z.input<typeof backupQuickReply>;

/** The bot's configuration and its rules, as `POST /api/bot-config` takes them (business hours live in settings). */
export const backupBot = z
  .object({
    isEnabled: bot.isEnabled,
    welcomeMessage: bot.welcomeMessage,
    aiEnabled: bot.aiEnabled,
    aiModel: bot.aiModel,
    outOfHoursMessage: bot.outOfHoursMessage,
    aiInstructions: bot.aiInstructions,
    handoffMinutes: bot.handoffMinutes,
    autoReplies: z.array(backupAutoReplyInput).max(BOT_REPLIES_MAX, botMsg.tooManyReplies).default([]),
  })
  .superRefine((c, ctx) => refuseRepeatedTriggers(c.autoReplies, ctx));
export type BackupBot = z.input<typeof backupBot>;

/**
 * The settings the server obeys: sending pacing and business hours, business days, notification
 * preferences. The WhatsApp channel is not part of a backup: it follows the credentials, which are not.
 */
export const backupSettings = z.object({
  whatsapp: updateWhatsappSettingsInput,
  businessDays: z.array(z.enum(weekdays)).max(7),
  notifications: notificationSettingsSchema,
});
export type BackupSettings = z.input<typeof backupSettings>;

/**
 * One uploaded image the account's campaigns or saved messages use, carried in the file: `url` is
 * the reference those rows hold (`upload:<id>`), `data` the image's bytes in base64. A restore
 * stores it as a new upload of the restoring account, checked as an upload is (its type by its
 * first bytes, its size), and points the restored rows at it.
 */
export const backupMediaItem = z.object({
  url: z.string().refine((url) => uploadIdOf(url, { uuidOnly: true }) !== null, backupMsg.mediaUrlInvalid),
  fileName: z.string().max(255).optional(),
  contentType: z.string().max(100).optional(),
  /**
   * A file kept in the media store (document, audio, video, sticker): its kind, size and SHA-256 as
   * the account had them. Without `kind` (files written before these were carried) it is an image.
   * A restore decides the kind again from the bytes and checks the SHA-256 against them.
   */
  kind: z.enum(MEDIA_KINDS).optional(),
  size: z.number().int().min(0).optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /**
   * An audio file recorded as a voice note (sent to play as one): restored as one when its bytes
   * are Ogg Opus, its duration read again from them; otherwise as plain audio.
   */
  voice: z.boolean().optional(),
  data: z.string().max(BACKUP_FILE_BASE64_MAX, `Arquivo muito grande. O limite é ${UPLOAD_MAX_MB} MB para imagens.`),
});

/**
 * The whole file. Sections left out count as empty. `media` and `mediaLeftOut` came after version
 * 1's first files: optional, so older files restore (their uploaded images are reported missing)
 * and older servers ignore them.
 */
export const backupFile = z.object({
  format: z.literal(BACKUP_FORMAT, { error: backupMsg.notBackup }),
  version: z.literal(BACKUP_VERSION, { error: (issue) => backupMsg.unsupportedVersion(issue.input) }),
  exportedAt: isoDate(),
  settings: backupSettings.optional(),
  bot: backupBot.optional(),
  groups: z.array(backupGroup).default([]),
  savedMessages: z.array(backupSavedMessage).default([]),
  /** Added after version 1's first files: optional, so older files restore and older servers ignore them. */
  queues: z
    .array(backupQueue)
    .max(QUEUE_LIMIT * 4)
    .default([]),
  quickReplies: z
    .array(backupQuickReply)
    .max(QUICK_REPLY_LIMIT * 4)
    .default([]),
  contacts: z.array(backupContact).default([]),
  campaigns: z.array(backupCampaign.superRefine(backupCampaignContent)).default([]),
  media: z.array(backupMediaItem).max(BACKUP_MEDIA_MAX_COUNT, backupMsg.mediaTooMany).optional(),
  /** Images the rows refer to that did not fit in the file (`upload:<id>`). */
  mediaLeftOut: z.array(z.string().max(100)).max(10_000).optional(),
  /** What the export says of the account's files it carries (backupFilesSummary); read by people, ignored on restore. */
  files: z.unknown().optional(),
});
/**
 * The export's word on the account's files (`files`, after `media`): `included` when it carries every
 * file its rows use; `count` and `bytes` of those it carries (images and files of the media store);
 * `notIncluded`, those it does not (over the file's bounds, or gone from the store).
 */
export const backupFilesSummary = z.object({
  included: z.boolean(),
  count: z.number().int(),
  bytes: z.number().int(),
  notIncluded: z.number().int(),
});
export type BackupFilesSummary = z.infer<typeof backupFilesSummary>;
export type BackupFileInput = z.input<typeof backupFile>;
export type BackupFile = z.output<typeof backupFile>;

/** What a restore did with one kind of data. `skipped`: left out by a limit (plan, rules). */
export const restoreCounts = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
});
export type RestoreCounts = z.infer<typeof restoreCounts>;

/** Counts before a restore has done anything: each owner of a kind of data starts from these. */
export const zeroCounts = (): RestoreCounts => ({ added: 0, updated: 0, unchanged: 0, skipped: 0 });

export const restoreSections = [
  'contacts',
  'groups',
  'savedMessages',
  'campaigns',
  'autoReplies',
  'botConfig',
  'settings',
  'queues',
  'quickReplies',
] as const;
export type RestoreSection = (typeof restoreSections)[number];

export const restoreResult = z.object({
  success: z.literal(true),
  message: z.string(),
  contacts: restoreCounts,
  groups: restoreCounts,
  savedMessages: restoreCounts,
  campaigns: restoreCounts,
  autoReplies: restoreCounts,
  botConfig: restoreCounts,
  settings: restoreCounts,
  /** Ours, beside the spec's answer: the team's queues (by name) and quick replies (by shortcut). */
  queues: restoreCounts,
  quickReplies: restoreCounts,
  /**
   * What could not be brought back, one sentence each ('Imagem da campanha “Black Friday” não pôde
   * ser restaurada: …'). Beside the spec's answer: a client that does not know it reads `message`,
   * which counts them.
   */
  warnings: z.array(z.string()).optional(),
  /**
   * The files the backup carried: how many came back as the account's (or were already its own)
   * and how many could not (each also in `warnings`). Beside the spec's answer.
   */
  files: z.object({ restored: z.number().int(), notRestored: z.number().int() }).optional(),
});
export type RestoreResult = z.infer<typeof restoreResult>;

const NOUNS: Record<RestoreSection, { one: string; many: string; feminine: boolean }> = {
  contacts: { one: 'contato', many: 'contatos', feminine: false },
  groups: { one: 'grupo', many: 'grupos', feminine: false },
  savedMessages: { one: 'mensagem salva', many: 'mensagens salvas', feminine: true },
  campaigns: { one: 'campanha', many: 'campanhas', feminine: true },
  autoReplies: { one: 'resposta automática', many: 'respostas automáticas', feminine: true },
  botConfig: { one: 'configuração do chatbot', many: 'configurações do chatbot', feminine: true },
  settings: { one: 'configuração da conta', many: 'configurações da conta', feminine: true },
  queues: { one: 'fila', many: 'filas', feminine: true },
  quickReplies: { one: 'resposta rápida', many: 'respostas rápidas', feminine: true },
};

/**
 * The toast of a restore: 'Backup restaurado: 3 contatos adicionados e 1 atualizado; 1 grupo
 * adicionado.', then `notes` (what a limit left out).
 */
export function restoreSummary(r: Omit<RestoreResult, 'success' | 'message'>, notes: string[] = []): string {
  const count = (n: number) => n.toLocaleString('pt-BR');
  const parts = restoreSections.flatMap((section) => {
    const c = r[section];
    const noun = NOUNS[section];
    const word = (n: number, masculine: string) => {
      const w = noun.feminine ? `${masculine.slice(0, -1)}a` : masculine;
      return n === 1 ? w : `${w}s`;
    };
    const bits = [
      ...(c.added ? [{ n: c.added, word: word(c.added, 'adicionado') }] : []),
      ...(c.updated ? [{ n: c.updated, word: word(c.updated, 'atualizado') }] : []),
    ];
    if (!bits.length) return [];
    const [first, ...rest] = bits;
    const head = `${count(first.n)} ${first.n === 1 ? noun.one : noun.many} ${first.word}`;
    return [[head, ...rest.map((b) => `${count(b.n)} ${b.word}`)].join(' e ')];
  });
  const lead = parts.length
    ? `Backup restaurado: ${parts.join('; ')}.`
    : notes.length
      ? 'Nenhum dado novo foi restaurado.'
      : backupMsg.nothingNew;
  return [lead, ...notes].join(' ');
}

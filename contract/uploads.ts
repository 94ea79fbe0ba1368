import { z } from 'zod';
import { MEDIA_KINDS } from './message-content';
import { storageSizeText } from './plans';

/** How a campaign or a saved message refers to one of the account's uploads: `upload:<id>`. */
export const UPLOAD_REF_PREFIX = 'upload:';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The upload an `upload:<id>` reference names, or null when the value is not one (a link, nothing).
 * `uuidOnly` is a backup file's stricter reading: the id must be a UUID, and the prefix counts in
 * any case ('UPLOAD:…'), as restores have always read it.
 */
export function uploadIdOf(ref: string, opts: { uuidOnly?: boolean } = {}): string | null {
  const prefix = ref.slice(0, UPLOAD_REF_PREFIX.length);
  const id = ref.slice(UPLOAD_REF_PREFIX.length);
  if (!opts.uuidOnly) return prefix === UPLOAD_REF_PREFIX ? id : null;
  return prefix.toLowerCase() === UPLOAD_REF_PREFIX && UUID.test(id) ? id : null;
}

/** Largest image an account may upload (WhatsApp itself refuses images above 5 MB). */
export const UPLOAD_MAX_MB = 5;
export const UPLOAD_MAX_BYTES = UPLOAD_MAX_MB * 1024 * 1024;

/** The image types accepted, decided from the file's first bytes (never from its name or declared type). */
export const UPLOAD_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type UploadMimeType = (typeof UPLOAD_MIME_TYPES)[number];

/** What the browser's file picker offers (the server still checks the bytes). */
export const UPLOAD_ACCEPT = '.jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp';

export const uploadsMsg = {
  noFile: 'Nenhuma imagem enviada. Envie a imagem no campo "file".',
  emptyFile: 'O arquivo enviado está vazio.',
  invalidType: 'Formato de imagem não suportado. Envie uma imagem JPEG, PNG ou WebP.',
  tooLarge: `Imagem muito grande. O limite é ${UPLOAD_MAX_MB} MB.`,
  notFound: 'Imagem não encontrada.',
  uploadError: 'Erro ao enviar imagem. Tente novamente.',
  uploaded: 'Imagem enviada.',
  fileTooLarge: 'Arquivo muito grande: o limite é 100 MB (documentos), 16 MB (áudio e vídeo) e 5 MB (imagens).',
  voiceInvalid: 'Não foi possível usar a gravação como mensagem de voz. Grave novamente.',
  quotaExceeded: (limitBytes: number, usedBytes: number) =>
    `Espaço de arquivos da conta esgotado: o limite do seu plano é ${storageSizeText(limitBytes)} e ${storageSizeText(usedBytes)} já estão em uso. Exclua campanhas, mensagens salvas ou respostas do chatbot com arquivos que você não usa mais e tente novamente.`,
} as const;

/**
 * The file name alone: browsers report a picked file's input value as `C:\fakepath\foto.png`, and a
 * name is never a path.
 */
export function baseFileName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? '').trim();
}

/** The address an upload is served from (to its owner only). */
export function uploadUrl(id: string): string {
  return `/api/uploads/${id}`;
}

const UPLOAD_PATH = /^\/api\/uploads\/([0-9a-f-]{36})$/i;

/**
 * The upload a field names, as `upload:<id>` or as its own `/api/uploads/<id>` URL; null for
 * anything else (a link elsewhere). The id is as written: whose file it is, the server checks.
 */
export function namedUploadId(ref: string): string | null {
  return uploadIdOf(ref) ?? UPLOAD_PATH.exec(ref)?.[1] ?? null;
}

export const uploadIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

/** POST /api/uploads answers the stored file. */
export const uploadSchema = z.object({
  id: z.string(),
  url: z.string(),
  fileName: z.string(),
  /** An image's is one of UPLOAD_MIME_TYPES; ours, widened: a document's, an audio's, a video's type. */
  mimeType: z.string(),
  size: z.number().int(),
  /** Ours, additive: what the file is, decided from its bytes. */
  kind: z.enum(MEDIA_KINDS).optional(),
  /** Ours: an audio that plays as a voice note (OGG/Opus, recorded in the page). */
  voice: z.boolean().optional(),
  durationSeconds: z.number().int().optional(),
});

/** `POST /api/uploads?voice=true` marks a voice note recorded in the page; `kind=sticker` a WebP sticker. */
export const uploadQuery = z.object({
  voice: z.stringbool().optional(),
  /** `image`: only an image will do (a campaign's or saved message's picture); `sticker`: a WebP sticker. */
  kind: z.enum(['image', 'sticker']).optional(),
});

/** Any file the composer accepts (the server still decides by the bytes). */
export const FILE_ACCEPT =
  'image/jpeg,image/png,image/webp,application/pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,audio/ogg,audio/mpeg,audio/mp4,audio/aac,audio/amr,.m4a,.amr,video/mp4,video/3gpp';
export type Upload = z.infer<typeof uploadSchema>;

/** `GET /api/uploads/usage`: the bytes the account's files take and its plan's room for them. */
export const uploadUsageSchema = z.object({
  usedBytes: z.number().int().nonnegative(),
  limitBytes: z.number().int().positive(),
});
export type UploadUsage = z.infer<typeof uploadUsageSchema>;

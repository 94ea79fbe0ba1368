import { z } from 'zod';
import { MEDIA_KINDS } from './message-content';
import { countLabel } from './plural';
import { text } from './text';
import { baseFileName, UPLOAD_REF_PREFIX } from './uploads';

/** Recipient types of a composed message (SPEC §3 'Message to compose'). */
export const savedMessageTypes = ['contacts', 'groups'] as const;
export type SavedMessageType = (typeof savedMessageTypes)[number];
export const savedMessageContentTypes = ['text', 'html'] as const;
export type SavedMessageContentType = (typeof savedMessageContentTypes)[number];

export const SAVED_MESSAGE_TITLE_MAX = 120;
/** WhatsApp's limit for a text message body: the text sent (after HTML is turned into WhatsApp formatting). */
export const SAVED_MESSAGE_TEXT_MAX = 4096;
/** What the content field may hold before sanitising (tags take room the sent text does not). */
export const SAVED_MESSAGE_CONTENT_MAX = 20_000;
export const SAVED_MESSAGE_IMAGE_URL_MAX = 2048;
export const SAVED_MESSAGE_FILE_NAME_MAX = 255;

/** The tags an HTML message may use; everything else is removed on the server before it is stored. */
export const SAVED_MESSAGE_HTML_TAGS = [
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'br',
  'p',
  'div',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
] as const;

export const savedMessagesMsg = {
  titleRequired: 'Título é obrigatório',
  titleTooLong: `O título deve ter no máximo ${countLabel(SAVED_MESSAGE_TITLE_MAX, 'caractere', 'caracteres')}.`,
  typeRequired: 'Selecione o tipo de destinatário',
  contentRequired: 'Conteúdo da mensagem é obrigatório',
  contentTooLong: `A mensagem deve ter no máximo ${countLabel(SAVED_MESSAGE_TEXT_MAX, 'caractere', 'caracteres')}.`,
  contentTypeInvalid: 'Tipo de conteúdo inválido. Use texto ou HTML.',
  booleanInvalid: 'Valor inválido. Use verdadeiro ou falso.',
  imageUrlInvalid: 'Link da imagem inválido. Use um endereço que comece com http:// ou https://.',
  imageUrlRequired: 'Informe o link da imagem.',
  imageFileInvalid: 'Nome do arquivo de imagem inválido.',
  imageUploadRequired: 'Envie uma imagem ou desative "Anexar Imagem".',
  uploadNotFound: 'Imagem não encontrada. Envie a imagem novamente.',
  fileNotFound: 'Arquivo não encontrado. Envie o arquivo novamente.',
  mediaUrlInvalid:
    'Link do arquivo inválido. Use um endereço https:// (ou o link http:// de uma imagem) ou envie o arquivo.',
  imageOrMedia: 'Anexe uma imagem ou um arquivo, não os dois.',
  htmlHint: 'Tags como <b>negrito</b>, <i>itálico</i> e <br> (quebra de linha) são permitidas.',
  saved: 'Mensagem salva com sucesso!',
  saveErrorTitle: 'Erro',
  saveError: 'Erro ao salvar mensagem',
  deleted: 'Mensagem excluída com sucesso.',
  deleteError: 'Erro ao excluir mensagem. Tente novamente.',
  deleteConfirm: 'Campanhas que já usaram o texto dela não mudam. Esta ação não pode ser desfeita.',
  notFound: 'Mensagem não encontrada.',
  emptyList: 'Nenhuma mensagem salva ainda.',
} as const;

/** True for an absolute http(s) address. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The file a saved message sends through `mediaUrl` (any kind: `upload:<id>` or a link), else its
 * image given the spec's way, else null.
 */
export function savedMessageAttachmentRef(m: {
  hasImage: boolean;
  uploadId: string | null;
  imageUrl: string;
  mediaUrl?: string | null;
}): string | null {
  return m.mediaUrl || savedMessageImageRef(m);
}

/** The image a saved message sends: its upload (`upload:<id>`), its http(s) link, or none. */
export function savedMessageImageRef(m: {
  hasImage: boolean;
  uploadId: string | null;
  imageUrl: string;
}): string | null {
  if (!m.hasImage) return null;
  if (m.uploadId) return `${UPLOAD_REF_PREFIX}${m.uploadId}`;
  return m.imageUrl && isHttpUrl(m.imageUrl) ? m.imageUrl : null;
}

const boolean = (fallback: boolean) => z.boolean({ error: savedMessagesMsg.booleanInvalid }).default(fallback);

/**
 * `imageFile` as any client may send it: the picked file's name, its input value, null or empty, or
 * the picked File itself serialised as JSON (an object, perhaps with a name).
 */
const imageFileInput = z
  .union(
    [
      text().max(SAVED_MESSAGE_FILE_NAME_MAX * 2),
      z.null(),
      z.object({
        name: text()
          .max(SAVED_MESSAGE_FILE_NAME_MAX * 2)
          .optional(),
      }),
    ],
    { error: savedMessagesMsg.imageFileInvalid },
  )
  .optional()
  .transform((v) => baseFileName(typeof v === 'string' ? v : (v?.name ?? '')).slice(0, SAVED_MESSAGE_FILE_NAME_MAX));

/**
 * POST /api/messages and PUT /api/messages/{id}: the spec's payload (title, type, enableMessage,
 * hasImage, imageUrl, imageFile, content, contentType) plus our optional `uploadId`, an image this
 * account uploaded through POST /api/uploads.
 */
export const savedMessageInput = z.object({
  title: text({ error: savedMessagesMsg.titleRequired })
    .trim()
    .min(1, savedMessagesMsg.titleRequired)
    .max(SAVED_MESSAGE_TITLE_MAX, savedMessagesMsg.titleTooLong),
  type: z.enum(savedMessageTypes, { error: savedMessagesMsg.typeRequired }).default('contacts'),
  enableMessage: boolean(true),
  hasImage: boolean(false),
  imageUrl: z
    .union([text().trim().max(SAVED_MESSAGE_IMAGE_URL_MAX, savedMessagesMsg.imageUrlInvalid), z.null()], {
      error: savedMessagesMsg.imageUrlInvalid,
    })
    .optional()
    .transform((v) => v ?? ''),
  imageFile: imageFileInput,
  content: text({ error: savedMessagesMsg.contentRequired })
    .trim()
    .min(1, savedMessagesMsg.contentRequired)
    .max(SAVED_MESSAGE_CONTENT_MAX, savedMessagesMsg.contentTooLong),
  contentType: z.enum(savedMessageContentTypes, { error: savedMessagesMsg.contentTypeInvalid }).default('text'),
  uploadId: z
    .union([z.uuid({ error: savedMessagesMsg.uploadNotFound }), z.literal(''), z.null()], {
      error: savedMessagesMsg.uploadNotFound,
    })
    .optional()
    .transform((v) => v || null),
  /**
   * Ours: any file sent with the message (an image, a document, an audio, a video): `upload:<id>` of
   * one of the account's files, or a link (an https link to a file that is not an image is fetched
   * once into the account's files). Absent keeps the message's file; null or empty removes it. Not
   * with an image given the spec's way (`hasImage`).
   */
  mediaUrl: z
    .union([text().trim().max(SAVED_MESSAGE_IMAGE_URL_MAX, savedMessagesMsg.mediaUrlInvalid), z.null()], {
      error: savedMessagesMsg.mediaUrlInvalid,
    })
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
});
export type SavedMessageInput = z.input<typeof savedMessageInput>;
export type SavedMessageFields = z.output<typeof savedMessageInput>;

export const savedMessageIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

/** One of the account's files a saved message sends. */
export const savedMessageMedia = z.object({
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  fileName: z.string(),
  size: z.number().int(),
});
export type SavedMessageMedia = z.infer<typeof savedMessageMedia>;

export const savedMessageSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(savedMessageTypes),
  enableMessage: z.boolean(),
  hasImage: z.boolean(),
  /** The image link (http or https), or empty. */
  imageUrl: z.string(),
  /** The uploaded image's file name, or empty. */
  imageFile: z.string(),
  /** The upload behind `imageFile`, when the image was uploaded here. */
  uploadId: z.string().nullable(),
  /** Where the uploaded image is served (to this account only). */
  uploadUrl: z.string().nullable(),
  /** As stored: plain text, or HTML already sanitised. */
  content: z.string(),
  contentType: z.enum(savedMessageContentTypes),
  /** The text WhatsApp receives (HTML turned into WhatsApp formatting). */
  preview: z.string(),
  /** Ours, additive: the file sent with the message (`upload:<id>` or a link), or null. */
  mediaUrl: z.string().nullable().optional(),
  /** What that file is, when it is one of the account's files (null for a link or a file gone). */
  media: savedMessageMedia.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedMessage = z.infer<typeof savedMessageSchema>;
export const savedMessageList = z.array(savedMessageSchema);

export const savedMessageMutationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  savedMessage: savedMessageSchema,
});
export type SavedMessageMutationResponse = z.infer<typeof savedMessageMutationResponse>;

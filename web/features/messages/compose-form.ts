import { z } from 'zod';
import {
  isHttpUrl,
  SAVED_MESSAGE_CONTENT_MAX,
  SAVED_MESSAGE_IMAGE_URL_MAX,
  SAVED_MESSAGE_TITLE_MAX,
  type SavedMessage,
  type SavedMessageInput,
  savedMessagesMsg,
  savedMessageTypes,
} from '#contract/saved-messages';

/** Where the attached image comes from: the 'Link da Imagem' or the 'Upload de Arquivo' tab. */
export const imageSources = ['url', 'upload'] as const;
export type ImageSource = (typeof imageSources)[number];

/**
 * The 'Compor Nova Mensagem' form (SPEC §2, §5): the spec's fields plus what the form needs to
 * show (the image tab, the uploaded image). An attached image needs a link or an upload.
 */
export const composeMessageForm = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, savedMessagesMsg.titleRequired)
      .max(SAVED_MESSAGE_TITLE_MAX, savedMessagesMsg.titleTooLong),
    type: z.enum(savedMessageTypes, { error: savedMessagesMsg.typeRequired }),
    enableMessage: z.boolean(),
    hasImage: z.boolean(),
    imageSource: z.enum(imageSources),
    imageUrl: z.string().trim().max(SAVED_MESSAGE_IMAGE_URL_MAX, savedMessagesMsg.imageUrlInvalid),
    uploadId: z.string().nullable(),
    uploadUrl: z.string().nullable(),
    imageFile: z.string(),
    content: z
      .string()
      .trim()
      .min(1, savedMessagesMsg.contentRequired)
      .max(SAVED_MESSAGE_CONTENT_MAX, savedMessagesMsg.contentTooLong),
    htmlMode: z.boolean(),
    /** Ours: a file of any kind sent with the message (`upload:<id>`), when no image is attached; '' for none. */
    mediaUrl: z.string(),
    /** What the attached file is, to show it (the upload's answer, or the saved message's `media`). */
    media: z
      .object({
        kind: z.enum(['image', 'document', 'audio', 'video', 'sticker']).optional(),
        mimeType: z.string().optional(),
        fileName: z.string().optional(),
        size: z.number().optional(),
      })
      .nullable(),
    /** Whether the message being edited had such a file: removing it then sends `mediaUrl: null`. */
    hadMedia: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (!v.hasImage) return;
    if (v.imageSource === 'upload') {
      if (!v.uploadId)
        ctx.addIssue({ code: 'custom', path: ['uploadId'], message: savedMessagesMsg.imageUploadRequired });
    } else if (!v.imageUrl) {
      ctx.addIssue({ code: 'custom', path: ['imageUrl'], message: savedMessagesMsg.imageUrlRequired });
    } else if (!isHttpUrl(v.imageUrl)) {
      ctx.addIssue({ code: 'custom', path: ['imageUrl'], message: savedMessagesMsg.imageUrlInvalid });
    }
  });
export type ComposeMessageValues = z.input<typeof composeMessageForm>;
export type ComposeMessageOutput = z.output<typeof composeMessageForm>;

export const emptyComposeValues: ComposeMessageValues = {
  title: '',
  type: 'contacts',
  enableMessage: true,
  hasImage: false,
  imageSource: 'url',
  imageUrl: '',
  uploadId: null,
  uploadUrl: null,
  imageFile: '',
  content: '',
  htmlMode: false,
  mediaUrl: '',
  media: null,
  hadMedia: false,
};

/** The form filled with a saved message (to edit it), or empty. */
export function valuesFromMessage(m: SavedMessage | null): ComposeMessageValues {
  if (!m) return emptyComposeValues;
  return {
    title: m.title,
    type: m.type,
    enableMessage: m.enableMessage,
    hasImage: m.hasImage,
    imageSource: m.uploadId ? 'upload' : 'url',
    imageUrl: m.imageUrl,
    uploadId: m.uploadId,
    uploadUrl: m.uploadUrl,
    imageFile: m.imageFile,
    content: m.content,
    htmlMode: m.contentType === 'html',
    mediaUrl: m.mediaUrl ?? '',
    media: m.media ?? null,
    hadMedia: Boolean(m.mediaUrl),
  };
}

/**
 * The request body: the spec's payload, with contentType set from the HTML switch and only the
 * chosen image; a file of another kind goes as `mediaUrl` (null removes the one an edited message
 * had), and never with an image.
 */
export function bodyFromValues(v: ComposeMessageOutput): SavedMessageInput {
  const upload = v.hasImage && v.imageSource === 'upload';
  const link = v.hasImage && v.imageSource === 'url';
  return {
    title: v.title,
    type: v.type,
    enableMessage: v.enableMessage,
    hasImage: v.hasImage,
    imageUrl: link ? v.imageUrl : '',
    imageFile: upload ? v.imageFile : '',
    content: v.content,
    contentType: v.htmlMode ? 'html' : 'text',
    uploadId: upload ? v.uploadId : null,
    // Only when there is one, or one to remove: a message without files sends the spec's payload alone.
    ...(!v.hasImage && v.mediaUrl ? { mediaUrl: v.mediaUrl } : v.hadMedia ? { mediaUrl: null } : {}),
  };
}

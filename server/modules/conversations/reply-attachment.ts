import { conversationsMsg } from '../../../contract/conversations';
import { contentPreview, type MediaKind } from '../../../contract/message-content';
import { namedUploadId } from '../../../contract/uploads';
import type { Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { readyAccountFile } from '../../media/account-files';
import type { OutgoingMessage } from '../../whatsapp/driver';

/** A file a person sends from 'Conversas': one of the account's files. */
export interface Attachment {
  file: string;
  kind: MediaKind;
  mimeType: string;
  fileName: string;
  voice: boolean;
  durationSeconds: number | null;
}

async function readyFile(db: Db, userId: string, id: string): Promise<Attachment | null> {
  const file = await readyAccountFile(db, userId, id);
  return file ? { file: id, ...file } : null;
}

/**
 * The file `mediaUrl` names: `upload:<id>` or `/api/uploads/<id>` of the account's own (uploaded, or
 * received and fetched), or an https link to a file of any kind, fetched once under the outbound
 * rules into the account's files (and then sent, and shown in the thread, as that file). Anything
 * else is a 400 in Portuguese.
 */
export async function replyAttachment(
  deps: { db: Db; media: Pick<AppDeps['media'], 'fromLink'> },
  userId: string,
  mediaUrl: string,
): Promise<Attachment> {
  const id = namedUploadId(mediaUrl);
  if (id !== undefined && id !== null) {
    const file = await readyFile(deps.db, userId, id);
    if (!file) throw new AppError('VALIDATION', conversationsMsg.mediaInvalid);
    return file;
  }
  let url: URL | null = null;
  try {
    url = new URL(mediaUrl);
  } catch {
    url = null;
  }
  if (url?.protocol !== 'https:') throw new AppError('VALIDATION', conversationsMsg.mediaInvalid);
  const stored = await deps.media.fromLink(userId, url.href);
  const file = await readyFile(deps.db, userId, stored.id);
  if (!file) throw new AppError('VALIDATION', conversationsMsg.mediaInvalid);
  return file;
}

/** A message to send and what its row keeps. */
export interface OutgoingPart {
  message: OutgoingMessage;
  text: string;
  imageUrl: string | null;
  mediaId: string | null;
  preview: string;
}

/** Kinds whose message carries a caption on WhatsApp; audio and stickers have none. */
const CAPTIONED: ReadonlySet<MediaKind> = new Set(['image', 'video', 'document']);

/**
 * What goes out for a text and a file: the file with the text as its caption where WhatsApp allows
 * one; an audio or a sticker, then the text as a message of its own; the text alone without a file.
 */
export function outgoingParts(text: string, attachment: Attachment | null): OutgoingPart[] {
  const textPart = (): OutgoingPart => ({
    message: { kind: 'text', text },
    text,
    imageUrl: null,
    mediaId: null,
    preview: text,
  });
  if (!attachment) return [textPart()];
  const captioned = CAPTIONED.has(attachment.kind);
  // Only OGG/Opus plays as a voice note on a phone; other audio goes as an audio file.
  const voice = attachment.kind === 'audio' && attachment.voice && attachment.mimeType === 'audio/ogg';
  const media = {
    kind: attachment.kind,
    mimeType: attachment.mimeType,
    fileName: attachment.fileName,
    file: attachment.file,
    ...(voice ? { voice: true } : {}),
    ...(attachment.durationSeconds ? { durationSeconds: attachment.durationSeconds } : {}),
  };
  const caption = captioned ? text : '';
  const filePart: OutgoingPart = {
    message: { kind: 'media', media, ...(caption ? { caption } : {}) },
    text: caption,
    imageUrl: null,
    mediaId: attachment.file,
    preview: contentPreview({
      text: caption,
      media: { kind: attachment.kind, fileName: attachment.fileName, voice, durationSeconds: media.durationSeconds },
    }),
  };
  return !captioned && text ? [filePart, textPart()] : [filePart];
}

import type { OutgoingMessage } from './driver';

/** One of an account's uploaded images by its id, or null when the account has no such upload. */
export type ImageLoader = (userId: string, uploadId: string) => Promise<{ data: Buffer; mimeType: string } | null>;

/**
 * The message as a driver sends it: an image given by upload id (`image.upload`) gets its bytes,
 * read for the account that sends it (another account's upload is as missing as a deleted one);
 * a missing upload leaves the caption, sent as text. Anything else is returned as it is.
 */
export async function withUploadedImage(
  message: OutgoingMessage,
  userId: string,
  load: ImageLoader | undefined,
): Promise<OutgoingMessage> {
  if (message.kind !== 'image' || message.image.data || message.image.upload === undefined) return message;
  const image = load ? await load(userId, message.image.upload) : null;
  if (!image) return { kind: 'text', text: message.caption ?? '' };
  return { ...message, image: { data: image.data, mimeType: image.mimeType } };
}

import type { OutgoingMessage } from './driver';

/** One of an account's files, ready to be read where it is sent; null when the account has no such file. */
export type FileOpener = (
  userId: string,
  fileId: string,
) => Promise<{
  mimeType: string;
  fileName: string;
  size: number;
  sha256: string | null;
  /** A fresh stream of the bytes at each call. */
  open: () => Promise<AsyncIterable<Uint8Array>>;
} | null>;

/**
 * The message as a driver sends it: a file given by id (`media.file`) gets `open`, read for the
 * account that sends it (another account's file is as missing as a deleted one). A missing file
 * leaves the caption, sent as text. Anything else is returned as it is.
 */
export async function withAccountFile(
  message: OutgoingMessage,
  userId: string,
  opener: FileOpener | undefined,
): Promise<OutgoingMessage> {
  if (message.kind !== 'media' || message.media.open || message.media.file === undefined) return message;
  const file = opener ? await opener(userId, message.media.file) : null;
  if (!file) return { kind: 'text', text: message.caption ?? '' };
  return {
    ...message,
    media: { ...message.media, size: file.size, ...(file.sha256 ? { sha256: file.sha256 } : {}), open: file.open },
  };
}

import type { MediaKind } from '../../contract/message-content';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { fetchBaileysMedia } from './baileys/media-download';
import type { InboundMediaSource } from './driver';

/** A received file waiting to be fetched: what a fetcher is given. */
export interface PendingFile {
  userId: string;
  fileId: string;
  connectionId: string | null;
  kind: MediaKind;
  mimeType: string;
  source: InboundMediaSource;
}

/**
 * Fetches a received file's bytes from where its driver says they are; answers them as a stream.
 * A failure no retry can mend (expired, too big, refused) carries `permanent: true`.
 */
export type MediaFetcher = (
  file: PendingFile,
  maxBytes: number,
  signal: AbortSignal,
) => Promise<AsyncIterable<Uint8Array>>;

/** How each driver's received files are fetched, in any process: the Cloud API and WhatsApp Web's CDN. */
export function inboundMediaFetchers(_deps: { db: Db; config: Config }): {
  cloud?: MediaFetcher;
  baileys?: MediaFetcher;
} {
  return {
    // WhatsApp Web's files sit encrypted on its CDN; the media key in the message opens them, no socket needed.
    baileys: async (file, maxBytes, signal) => {
      if (file.source.via !== 'baileys') throw Object.assign(new Error('not a WhatsApp Web file'), { permanent: true });
      return fetchBaileysMedia(file.source, maxBytes, signal);
    },
  };
}

import type { MediaKind } from '../../contract/message-content';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { decryptSecret } from '../lib/crypto';
import { fetchBaileysMedia } from './baileys/media-download';
import { fetchCloudMedia } from './cloud-api/media-download';
import { cloudAccount } from './cloud-connections';
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

/**
 * Meta's own file hosts: the URL a media id's lookup answers is on one of these (lookaside.fbsbx.com
 * today), not on the Graph API's. It comes from Meta, not from a customer, so it is fetched directly,
 * https only and never redirected elsewhere.
 */
const META_HOSTS = /(^|\.)(fbsbx\.com|facebook\.com|fbcdn\.net|whatsapp\.net)$/i;

export async function metaCdnFetch(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  const target = new URL(url);
  if (target.protocol !== 'https:' || !META_HOSTS.test(target.hostname) || target.username || target.password) {
    throw Object.assign(new Error(`not a Meta file host: ${target.hostname}`), { permanent: true });
  }
  return fetch(target, { headers, signal, redirect: 'error' });
}

/** How each driver's received files are fetched, in any process: the Cloud API and WhatsApp Web's CDN. */
export function inboundMediaFetchers(deps: { db: Db; config: Config }): {
  cloud?: MediaFetcher;
  baileys?: MediaFetcher;
} {
  return {
    // Cloud API: the number's token asks Graph where the file is, then reads it there.
    cloud: async (file, maxBytes, signal) => {
      if (file.source.via !== 'cloud') throw Object.assign(new Error('not a Cloud API file'), { permanent: true });
      const account = file.connectionId ? await cloudAccount(deps.db, file.connectionId) : undefined;
      if (!account) throw Object.assign(new Error('the number has no Cloud API settings'), { permanent: true });
      const fetched = await fetchCloudMedia(
        {
          baseUrl: deps.config.GRAPH_API_URL,
          version: deps.config.GRAPH_API_VERSION,
          accessToken: decryptSecret(deps.config.ENCRYPTION_KEY, account.accessToken),
          fetchElsewhere: metaCdnFetch,
        },
        file.source.mediaId,
        maxBytes,
        signal,
      );
      return fetched.body;
    },
    // WhatsApp Web's files sit encrypted on its CDN; the media key in the message opens them, no socket needed.
    baileys: async (file, maxBytes, signal) => {
      if (file.source.via !== 'baileys') throw Object.assign(new Error('not a WhatsApp Web file'), { permanent: true });
      return fetchBaileysMedia(file.source, maxBytes, signal);
    },
  };
}

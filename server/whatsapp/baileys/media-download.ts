import type { Readable } from 'node:stream';
import { downloadContentFromMessage } from '@whiskeysockets/baileys';
import type { InboundMediaSource } from '../driver';

type BaileysSource = Extract<InboundMediaSource, { via: 'baileys' }>;

/**
 * Why a received file could not be fetched: `permanent` when trying again cannot help (the link
 * expired, the path or key is not valid, the file is too large), otherwise a retry may succeed.
 */
export class BaileysMediaError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'BaileysMediaError';
  }
}

/** WhatsApp's media CDN: the only host a file is fetched from, whatever the message says. */
const CDN_HOST = 'mmg.whatsapp.net';
const CDN_PREFIX = `https://${CDN_HOST}/`;
/**
 * The sender writes the path: it is appended to the CDN's origin, so it must stay a path on that
 * host. No '@' (userinfo), '\' (read as '/'), whitespace, '#' or a leading '//' (protocol-relative);
 * only the characters WhatsApp's paths use (`/v/t62.7118-24/1_n.enc?ccb=11-4&oh=…&oe=…`).
 */
const DIRECT_PATH = /^\/(?!\/)[A-Za-z0-9\-._~/?=&%+]*$/;
const MAX_PATH = 2048;
const MAX_MEDIA_KEY_BYTES = 64;

const statusOf = (err: unknown) => (err as { output?: { statusCode?: unknown } })?.output?.statusCode;

/** Expired or refused links are permanent; the network, 5xx, timeouts and rate limits are not. */
function classify(err: unknown): BaileysMediaError {
  if (err instanceof BaileysMediaError) return err;
  const message = (err as Error)?.message ?? String(err);
  const status = statusOf(err);
  if (typeof status === 'number') {
    const transient = status >= 500 || status === 408 || status === 429;
    return new BaileysMediaError(`WhatsApp media: HTTP ${status}`, !transient, status);
  }
  // A wrong key or a damaged file fails in the decipher: fetching again gives the same bytes.
  const code = String((err as { code?: unknown })?.code ?? '');
  if (code.startsWith('ERR_OSSL') || /decrypt|final block/i.test(message)) {
    return new BaileysMediaError(`WhatsApp media: could not decrypt (${message})`, true);
  }
  return new BaileysMediaError(`WhatsApp media: ${message}`, false);
}

function abortError(signal: AbortSignal): BaileysMediaError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
  return new BaileysMediaError(`WhatsApp media: ${reason}`, false);
}

/**
 * The decrypted bytes of a file a contact sent through the personal number, from WhatsApp's CDN
 * (Baileys derives the keys from `mediaKey` and deciphers as the bytes arrive; no socket needed).
 * Throws BaileysMediaError: before any byte when the path is not a CDN path or the CDN refuses,
 * while iterating once more than `maxBytes` arrived or the transfer fails.
 */
export async function fetchBaileysMedia(
  source: BaileysSource,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<AsyncIterable<Uint8Array>> {
  const { directPath, mediaType } = source;
  if (typeof directPath !== 'string' || directPath.length > MAX_PATH || !DIRECT_PATH.test(directPath)) {
    throw new BaileysMediaError('WhatsApp media: not a CDN path', true);
  }
  const mediaKey = Buffer.from(source.mediaKey ?? '', 'base64');
  if (!mediaKey.length || mediaKey.length > MAX_MEDIA_KEY_BYTES) {
    throw new BaileysMediaError('WhatsApp media: no media key', true);
  }
  // Baileys takes the host from `url` unless told one: it is always told, the URL only rides along.
  const url = source.url?.startsWith(CDN_PREFIX) ? source.url : undefined;
  if (signal?.aborted) throw abortError(signal);

  const download = downloadContentFromMessage({ mediaKey, directPath, url }, mediaType, { host: CDN_HOST });
  let stream: Readable;
  try {
    // Baileys' fetch takes no signal: an abort stops the wait, and the stream is dropped when it comes.
    stream = await new Promise<Readable>((resolve, reject) => {
      const onAbort = () => reject(abortError(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      download.then(
        (s) => {
          signal?.removeEventListener('abort', onAbort);
          if (signal?.aborted) s.destroy();
          resolve(s);
        },
        (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  } catch (err) {
    download.then((s) => s.destroy()).catch(() => undefined);
    throw classify(err);
  }
  return chunks(stream, maxBytes, signal);
}

async function* chunks(stream: Readable, maxBytes: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const onAbort = () => stream.destroy(abortError(signal as AbortSignal));
  signal?.addEventListener('abort', onAbort, { once: true });
  let received = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxBytes) throw new BaileysMediaError(`WhatsApp media: larger than ${maxBytes} bytes`, true);
      yield chunk;
    }
  } catch (err) {
    throw classify(err);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stream.destroy();
  }
}

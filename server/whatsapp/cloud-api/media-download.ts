import { WEBHOOK_ID_MAX } from './webhook';

export interface CloudMediaOptions {
  baseUrl: string;
  version: string;
  accessToken: string;
  fetch?: typeof fetch;
  /** The whole fetch, lookup and bytes; a 100 MB document needs time. */
  timeoutMs?: number;
  /** fetches a URL whose origin is not the Graph API's, under the outbound rules */
  fetchElsewhere?: (url: string, headers: Record<string, string>, signal: AbortSignal) => Promise<Response>;
}

/**
 * Why a received file could not be fetched. `permanent`: trying again cannot help (the media
 * expired or is unknown, the token is refused, the file is too big); otherwise a later try may.
 */
export class CloudMediaError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** What `GET /{media-id}` answers: a short-lived URL to read with the same token. */
interface MediaLookup {
  url?: unknown;
  mime_type?: unknown;
  sha256?: unknown;
  file_size?: unknown;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** Meta's lookup answer is a few hundred bytes; more is no answer of Meta's. */
const LOOKUP_MAX_CHARS = 64 * 1024;

/**
 * 404 or code 100: the media expired (Meta keeps it 30 days) or never was; 401 or 190: the token is
 * no longer valid; 429, a 5xx or no answer may pass.
 */
function graphError(status: number, code: number | undefined, message: string): CloudMediaError {
  const transient = code !== 100 && code !== 190 && (status === 0 || status === 429 || status >= 500);
  return new CloudMediaError(message, !transient, status, code);
}

async function errorOf(res: Response, what: string): Promise<CloudMediaError> {
  let code: number | undefined;
  let message = `${what}: Graph API answered ${res.status}`;
  try {
    const e = (
      JSON.parse((await res.text()).slice(0, LOOKUP_MAX_CHARS)) as { error?: { message?: unknown; code?: unknown } }
    ).error;
    if (typeof e?.code === 'number') code = e.code;
    if (typeof e?.message === 'string') message = `${what}: ${e.message.slice(0, 500)}`;
  } catch {
    // Not Graph's JSON error: the status says enough.
  }
  return graphError(res.status, code, message);
}

const unreachable = (what: string, err: unknown) =>
  new CloudMediaError(`${what}: ${(err as Error)?.message ?? 'network error'}`, false, 0);

/** 'audio/ogg; codecs=opus' → 'audio/ogg'; anything else than a plain type is only bytes. */
function cleanMimeType(v: unknown): string | null {
  const type = typeof v === 'string' && v.length <= 100 ? v.split(';')[0].trim().toLowerCase() : '';
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : null;
}

/**
 * A received file's bytes from the Cloud API: its media id's lookup, then its short-lived URL, both
 * with the account's token. Refuses before any byte when Meta announces more than `maxBytes`, and
 * the returned body throws once more than that has arrived (an announcement can lie). The URL is
 * fetched directly only on the Graph API's own origin; any other host goes through `fetchElsewhere`
 * (the outbound rules), never straight from here.
 */
export async function fetchCloudMedia(
  opts: CloudMediaOptions,
  mediaId: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ mimeType: string; size: number | null; sha256: string | null; body: AsyncIterable<Uint8Array> }> {
  if (typeof mediaId !== 'string' || !mediaId || mediaId.length > WEBHOOK_ID_MAX)
    throw new CloudMediaError('Invalid media id', true);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const aborted = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const doFetch = opts.fetch ?? fetch;
  const headers = { Authorization: `Bearer ${opts.accessToken}` };
  const base = opts.baseUrl.replace(/\/$/, '');

  let res: Response;
  try {
    res = await doFetch(`${base}/${opts.version}/${encodeURIComponent(mediaId)}`, {
      headers,
      signal: aborted,
      redirect: 'manual',
    });
  } catch (err) {
    throw unreachable('Media lookup', err);
  }
  if (!res.ok) throw await errorOf(res, 'Media lookup');
  let info: MediaLookup;
  try {
    const text = await res.text();
    if (text.length > LOOKUP_MAX_CHARS) throw new Error('too long');
    info = JSON.parse(text) as MediaLookup;
  } catch (err) {
    if (aborted.aborted) throw unreachable('Media lookup', err);
    throw new CloudMediaError('Media lookup: unreadable answer', false, res.status);
  }
  if (typeof info !== 'object' || info === null || typeof info.url !== 'string')
    throw new CloudMediaError('Media lookup: no url', false, res.status);

  const announced =
    typeof info.file_size === 'number' || (typeof info.file_size === 'string' && /^\d+$/.test(info.file_size))
      ? Number(info.file_size)
      : null;
  if (announced !== null && announced > maxBytes)
    throw new CloudMediaError(`Media of ${announced} bytes is over the limit of ${maxBytes}`, true);

  let target: URL;
  try {
    target = new URL(info.url);
  } catch {
    throw new CloudMediaError('Media lookup: invalid url', true);
  }
  try {
    if (target.origin === new URL(base).origin) {
      res = await doFetch(target, { headers, signal: aborted, redirect: 'manual' });
    } else if (target.protocol !== 'https:' || !opts.fetchElsewhere) {
      throw new CloudMediaError(`Media url on a host that may not be fetched: ${target.host}`, true);
    } else {
      res = await opts.fetchElsewhere(target.toString(), headers, aborted);
    }
  } catch (err) {
    if (err instanceof CloudMediaError) throw err;
    throw unreachable('Media download', err);
  }
  // A redirect followed here would escape the origin check above.
  if (res.status >= 300 && res.status < 400) throw new CloudMediaError('Media download redirected', true, res.status);
  if (!res.ok) throw await errorOf(res, 'Media download');
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  if (length > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new CloudMediaError(`Media of ${length} bytes is over the limit of ${maxBytes}`, true);
  }

  const stream = res.body;
  async function* body(): AsyncIterable<Uint8Array> {
    if (!stream) return;
    const reader = stream.getReader();
    let received = 0;
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw unreachable('Media download', err);
        }
        if (chunk.done) return;
        received += chunk.value.byteLength;
        if (received > maxBytes)
          throw new CloudMediaError(`Media over the limit of ${maxBytes} bytes (the size announced was wrong)`, true);
        yield chunk.value;
      }
    } finally {
      // Stops the transfer when the caller (or the limit) ends early.
      await reader.cancel().catch(() => undefined);
    }
  }

  return {
    mimeType:
      cleanMimeType(info.mime_type) ?? cleanMimeType(res.headers.get('content-type')) ?? 'application/octet-stream',
    size: announced,
    sha256: typeof info.sha256 === 'string' && info.sha256.length <= 128 ? info.sha256 : null,
    body: body(),
  };
}

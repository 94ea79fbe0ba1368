import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LINKED_IMAGE_MAX_BYTES, LINKED_IMAGE_TYPES, mediaMsg } from '../../contract/media';

/**
 * The only way the server fetches a URL a customer gave it. Without this, an image link becomes a
 * way to read the server's own network (loopback, the cloud metadata address, a database's HTTP
 * port) and to hand the bytes to Meta, or to fill the process's memory with an endless answer.
 *
 * - Public addresses only: the name is resolved once, every address it has must be public, and the
 *   socket connects to the address that was checked (the lookup is ours, so there is no second DNS
 *   answer to race). Literal addresses in any spelling are normalised by the URL parser first.
 * - Each redirect is checked the same way, at most three.
 * - Ten seconds and 5 MB at most; the type must be JPEG or PNG, by header and by its first bytes.
 * - Every failure reads the same to the customer (`mediaMsg.imageUnavailable`); the reason is logged.
 */
export interface OutboundPolicy {
  /**
   * Non-public addresses that may be fetched all the same: every one (`true`), these (a list), or
   * none. For tests and local demos with images on this machine; warned about at start-up.
   */
  allowPrivate: boolean | readonly string[];
}

/** Whether the policy lets this address through. */
function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  if (isPublicAddress(address) || policy.allowPrivate === true) return true;
  if (policy.allowPrivate === false || !ipaddr.isValid(address)) return false;
  const normal = ipaddr.process(address).toString();
  return policy.allowPrivate.some((a) => ipaddr.isValid(a) && ipaddr.process(a).toString() === normal);
}

export class OutboundFetchError extends Error {
  constructor(
    /** Why, for the log only: the customer always reads the same message. */
    readonly reason: string,
  ) {
    super(mediaMsg.imageUnavailable);
    this.name = 'OutboundFetchError';
  }
}

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

/** True for an address on the public internet: not loopback, private, link-local, CGNAT, multicast, reserved… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    // An IPv4 address inside an IPv6 one reaches the IPv4 host: judge that host.
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    // Only global unicast (2000::/3) is routable; 6to4, Teredo and NAT64 carry an IPv4 inside and are refused by range.
    else if ((v6.parts[0] & 0xe000) !== 0x2000) return false;
  }
  return ip.range() === 'unicast';
}

/** The host of a parsed URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Names that never leave this machine or its local network, whatever DNS says. */
function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h.endsWith('.home.arpa') ||
    !h.includes('.')
  );
}

/**
 * Why a link cannot be used, judged from the link alone (no DNS): a scheme other than http(s),
 * credentials, a local name or a literal non-public address. Null when it may be saved; the fetch
 * still checks the addresses the name resolves to.
 */
export function linkProblem(value: string, policy: OutboundPolicy): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (policy.allowPrivate === true) return null;
  const host = bareHost(url);
  if (ipaddr.isValid(host)) return addressAllowed(host, policy) ? null : 'private address';
  if (isLocalName(host)) return 'local name';
  return null;
}

/** A DNS lookup that answers only public addresses, in both of the shapes `net.connect` asks for. */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => addressAllowed(a.address, policy));
      // One private answer among public ones refuses the name: the caller would not know which one it gets.
      if (!usable.length || usable.length !== addresses.length) {
        return callback(new OutboundFetchError(`${hostname} resolves to a non-public address`), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    });
  };
}

function request(url: URL, policy: OutboundPolicy, signal: AbortSignal, accept: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(policy),
      signal,
      headers: { accept, 'user-agent': 'Disparo-ImageFetch/1' },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

const MAGIC: Record<(typeof LINKED_IMAGE_TYPES)[number], number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
};

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new OutboundFetchError(`declared ${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new OutboundFetchError(`more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface FetchedImage {
  data: Buffer;
  mimeType: string;
}

/** Downloads an image a customer linked to, under the rules above; throws OutboundFetchError. */
export async function fetchLinkedImage(
  link: string,
  policy: OutboundPolicy,
  opts: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<FetchedImage> {
  const maxBytes = opts.maxBytes ?? LINKED_IMAGE_MAX_BYTES;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? TIMEOUT_MS);
  try {
    const { res } = await openChecked(link, policy, signal, LINKED_IMAGE_TYPES.join(', '));
    const mimeType = contentTypeOf(res);
    if (!(LINKED_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
      res.destroy();
      throw new OutboundFetchError(`content type ${mimeType || 'missing'}`);
    }
    const data = await readCapped(res, maxBytes);
    const magic = MAGIC[mimeType as keyof typeof MAGIC];
    if (data.length < magic.length || magic.some((b, i) => data[i] !== b)) {
      throw new OutboundFetchError(`bytes are not ${mimeType}`);
    }
    return { data, mimeType };
  } catch (err) {
    throw asFetchError(err, signal);
  }
}

function asFetchError(err: unknown, signal: AbortSignal): OutboundFetchError {
  if (err instanceof OutboundFetchError) return err;
  if (signal.aborted) return new OutboundFetchError('timed out');
  return new OutboundFetchError((err as Error).message || 'network error');
}

const contentTypeOf = (res: IncomingMessage) =>
  String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();

/** The answer of a link, every hop checked (public addresses, at most three redirects), once it is a 200. */
async function openChecked(
  link: string,
  policy: OutboundPolicy,
  signal: AbortSignal,
  accept: string,
): Promise<{ res: IncomingMessage; url: URL }> {
  let current = link;
  for (let hop = 0; ; hop++) {
    const problem = linkProblem(current, policy);
    if (problem) throw new OutboundFetchError(problem);
    const url = new URL(current);
    const res = await request(url, policy, signal, accept);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new OutboundFetchError('too many redirects');
      current = new URL(res.headers.location, url).href;
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new OutboundFetchError(`status ${status}`);
    }
    return { res, url };
  }
}

/** A linked file being read: its bytes as they arrive, at most `maxBytes` (then `truncated()`). */
export interface LinkedFile {
  /** The name the answer gives (Content-Disposition), else the link's last path segment. */
  fileName: string | undefined;
  stream: AsyncIterable<Buffer>;
  /** True once the answer went past `maxBytes`: the read stopped there. */
  truncated: () => boolean;
}

/**
 * Opens a file a customer linked to (a document, audio, video or image: what it is is decided by its
 * bytes, never by the answer's type), under the rules above, streaming: nothing is held but the
 * chunk in hand. A declared length over `maxBytes` is refused before any byte is read; an answer that
 * runs past it stops there and reads as truncated. Throws OutboundFetchError, also from the stream.
 */
export async function openLinkedFile(
  link: string,
  policy: OutboundPolicy,
  opts: { maxBytes: number; timeoutMs: number },
): Promise<LinkedFile> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let opened: { res: IncomingMessage; url: URL };
  try {
    opened = await openChecked(link, policy, signal, '*/*');
  } catch (err) {
    throw asFetchError(err, signal);
  }
  const { res, url } = opened;
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    res.destroy();
    throw new OutboundFetchError(`declared ${declared} bytes`);
  }
  let over = false;
  async function* body(): AsyncGenerator<Buffer> {
    let size = 0;
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > opts.maxBytes) {
          over = true;
          yield chunk.subarray(0, chunk.length - (size - opts.maxBytes));
          return;
        }
        yield chunk;
      }
    } catch (err) {
      throw asFetchError(err, signal);
    } finally {
      res.destroy();
    }
  }
  return {
    fileName: dispositionName(res.headers['content-disposition']) ?? pathName(url),
    stream: body(),
    truncated: () => over,
  };
}

/** `filename*=UTF-8''…` or `filename="…"` of a Content-Disposition header. */
function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || undefined;
}

function pathName(url: URL): string | undefined {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The fetch a driver is given: the server's policy, and each refusal's reason written to the log
 * (the customer reads only `mediaMsg.imageUnavailable`; an operator needs to know why).
 */
export function linkedImageFetcher(
  policy: OutboundPolicy,
  log: { warn(obj: object, msg: string): void },
): (url: string) => Promise<FetchedImage> {
  return (url) =>
    fetchLinkedImage(url, policy).catch((err: unknown) => {
      const reason = err instanceof OutboundFetchError ? err.reason : String(err);
      log.warn({ reason, host: hostOf(url) }, 'image link refused');
      throw err;
    });
}

/** The host of a link, for the log (never its path or query, which may carry a token). */
function hostOf(link: string): string {
  try {
    return new URL(link).host;
  } catch {
    return '';
  }
}

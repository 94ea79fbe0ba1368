/**
 * One spelling per path, before the router sees it. Clients and proxies send the same path in many
 * spellings (`/%61pi/x`, `//api/x`, `/api/./x`, `/x/../api/x`, `/api/x/`, `/api/x;p=1`, double
 * encoding); the router would decode some of them and not others. Here every one of them becomes
 * the plain path, so a route answers the same whatever the spelling, and nothing downstream ever
 * reasons about the raw URL. The router compares case-insensitively (parameters keep their case).
 * The query string is left as it came.
 */

/** Characters that may stay unencoded in a path segment (RFC 3986 pchar without ';' and '%'). */
const PLAIN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,=:@]*$/;
/** Anything that makes a path non-canonical: an escape, a parameter, a dot or empty segment, a trailing slash. */
const NEEDS_WORK = /[%;\\]|\/\/|\/\.\.?(?:\/|$)|.\/$/;
const MAX_DECODE_ROUNDS = 4;

function decodeFully(path: string): string {
  let current = path;
  for (let round = 0; round < MAX_DECODE_ROUNDS && current.includes('%'); round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // A stray '%' that starts no escape: keep what was decoded so far.
      break;
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

function encodeSegment(segment: string): string {
  return PLAIN_SEGMENT.test(segment) ? segment : encodeURIComponent(segment);
}

/** The canonical form of a path (no query string): decoded, dot segments resolved, one slash each. */
export function canonicalPath(path: string): string {
  if (!NEEDS_WORK.test(path)) return path;
  const segments: string[] = [];
  // Backslashes are path separators to several clients and proxies; treat them as such here too.
  for (const raw of decodeFully(path).replaceAll('\\', '/').split('/')) {
    const semicolon = raw.indexOf(';');
    const segment = semicolon >= 0 ? raw.slice(0, semicolon) : raw;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      segments.pop();
      continue;
    }
    segments.push(encodeSegment(segment));
  }
  return `/${segments.join('/')}`;
}

/** The request URL with its path made canonical; the query string is kept as it came. */
export function canonicalUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return canonicalPath(url);
  return canonicalPath(url.slice(0, q)) + url.slice(q);
}

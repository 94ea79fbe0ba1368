/**
 * The same API path spelled as clients, proxies and attackers may spell it: escaped letters,
 * double encoding, doubled slashes, dot segments, upper case, a trailing slash, path parameters
 * (`;v=1`), an encoded or backslashed separator. The router must treat each one as the plain path
 * (see server/plugins/canonical-url.ts).
 *
 * `keep` lists values inside the path whose case is part of their meaning (ids, phone numbers):
 * the upper-case spelling leaves them as they are.
 */
export function pathSpellings(path: string, keep: string[] = []): string[] {
  if (!path.startsWith('/api/')) throw new Error(`not an API path: ${path}`);
  const rest = path.slice('/api'.length);
  let upper = `/Api${rest.toUpperCase()}`;
  for (const value of keep) upper = upper.replaceAll(value.toUpperCase(), value);
  return [
    `/%61pi${rest}`,
    `/ap%69${rest}`,
    `/%61%70%69${rest}`,
    `/%2561pi${rest}`,
    `//api${rest}`,
    `/api/.${rest}`,
    `/api/./.${rest}`,
    `/x/../api${rest}`,
    `/api/x/..${rest}`,
    `/API${rest}`,
    upper,
    `${path}/`,
    `/api;v=1${rest}`,
    `${path};jsessionid=1`,
    `/api%2F${rest.slice(1).replaceAll('/', '%2F')}`,
    `/api\\${rest.slice(1)}`,
  ];
}

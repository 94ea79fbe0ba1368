import pg from 'pg';
import { request } from './http';

/** Helpers of the benchmarks that send campaigns through the fake Graph API, and run on PostgreSQL. */

/** The PostgreSQL server when BENCH_DATABASE_URL is not set. */
export const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The PostgreSQL server URL with its credentials hidden, for printing. */
export const shownUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@');

/** Why the PostgreSQL server at `serverUrl` cannot be used (printable), or undefined when it answers. */
export async function postgresUnreachable(serverUrl: string): Promise<string | undefined> {
  const probe = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  try {
    await probe.connect();
    await probe.query('select 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL unreachable at ${shownUrl(serverUrl)} (${(err as Error).message})`;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it answers a value, or throws after `ms`. */
export async function waitFor<T>(
  what: string,
  ms: number,
  everyMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(everyMs);
  }
}

/** A JSON request as a signed-in customer: the status, the parsed body and its text. */
export async function api(base: string, cookie: string, method: string, path: string, json?: unknown) {
  const res = await request(base, method, path, { cookie, json });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : undefined, text: res.body };
}

/** E.164 digits of a phone written as `contactRows` writes it (Brazilian, with or without +55). */
export const normalisedBr = (phone: string) => {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 13 && digits.startsWith('55') ? digits : `55${digits}`;
};

/** Messages a second from the first to the last of these times (ms, in order). */
export const rateOf = (times: readonly number[]) =>
  times.length > 1 ? ((times.length - 1) * 1000) / (times[times.length - 1] - times[0]) : 0;

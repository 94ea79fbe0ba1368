import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { type TestContext, waitFor } from './test-app';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): Record<string, unknown>;
}

/**
 * A request sent over a real socket with the path exactly as given: no normalisation of dot
 * segments, slashes, case or escapes (fetch and app.inject both rewrite some of them), so tests
 * see what an attacker's hand-made request gets.
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
  /** The loopback address the request comes from (127.0.0.2, …): another client, as the server sees it. */
  from?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, method, path, headers, agent: false, localAddress: from };
    const req = request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json: () => JSON.parse(text),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Starts the test app on a free loopback port and returns the port. */
export async function listen(ctx: TestContext): Promise<number> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return (ctx.app.server.address() as AddressInfo).port;
}

export interface ApiAnswer {
  status: number;
  text: string;
  /** The parsed JSON answer, or null when the body is empty or not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of the API
  body: any;
}

/** A same-origin API call over a real socket with a session cookie, as the browser app makes it. */
export async function apiFetch(
  base: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, origin: base, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, text, body: parsed };
}

/** Someone signed in, seen over a real socket: the server's address and the session cookie. */
export interface HttpSession {
  base: string;
  cookie: string;
}

/**
 * Creates a campaign to all the account's contacts ('Oi {{nome}}') and starts it, as the dialog
 * does; answers its id.
 */
export async function startCampaign(s: HttpSession, name = 'Falhas'): Promise<string> {
  const created = await apiFetch(s.base, s.cookie, 'POST', '/api/campaigns', {
    name,
    message: 'Oi {{nome}}',
    targetType: 'contacts',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.id as string;
  expect((await apiFetch(s.base, s.cookie, 'POST', `/api/campaigns/${id}/send`)).status).toBe(200);
  return id;
}

/** The campaign as `GET /api/campaigns/:id` answers it. */
export async function readCampaign(s: HttpSession, id: string): Promise<ApiAnswer['body']> {
  return (await apiFetch(s.base, s.cookie, 'GET', `/api/campaigns/${id}`)).body;
}

/** The campaign read again until `ok` accepts it (at most `ms`); answers it. */
export function untilCampaign(
  s: HttpSession,
  id: string,
  ok: (c: Record<string, unknown>) => boolean,
  ms = 15_000,
): Promise<ApiAnswer['body']> {
  return waitFor(() => readCampaign(s, id), ok, ms);
}

/**
 * Polls `${base}/api/health` one request after another (10 ms apart) until `until` settles, each
 * answer a 200; answers each one's latency in milliseconds.
 */
export async function pollHealth(base: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

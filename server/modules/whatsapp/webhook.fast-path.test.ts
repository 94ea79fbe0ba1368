import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { msg } from '../../../contract/messages';
import { whatsappInboundMessages } from '../../db/schema';
import { Foreground } from '../../lib/foreground';
import { inboundDelivery } from '../../testing/cloud-account';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import { listen, type RawResponse, rawRequest } from '../../testing/raw-http';
import { apiCall, createTestApp, createUser, loginAs, type TestContext, waitFor } from '../../testing/test-app';
import { signBody } from '../../whatsapp/cloud-api/webhook';
import { updateAccountSettings } from '../settings';
import { webhookFastPath } from './webhook.fast-path';

/**
 * The webhook's fast path must answer exactly as the regular route does, and take only the plain
 * deliveries Meta sends. The fast path is mounted alone on a bare HTTP server (a request it declines
 * answers 599 there), the regular route is reached on the app's own server with a query string,
 * which the fast path never takes.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let bare: Server;
let barePort: number;
let appPort: number;
let webhookPath: string;
let userId: string;
const SECRET = 'segredo-do-app-rapido';
/** The bare server's deadline for a body to arrive (the app's own is WEBHOOK_BODY_DEADLINE_MS). */
const BODY_DEADLINE_MS = 400;
const PHONE_ID = '109000000000555';

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.addPhone(PHONE_ID, 'EAAG-rapido', '551130005555', 'Loja Rápida', { businessAccountId: '209000000000555' });
  ctx = await createTestApp({ GRAPH_API_URL: graph.url });
  const user = await createUser(ctx);
  userId = user.id;
  const cookie = await loginAs(ctx, user);
  const res = await apiCall(ctx, 'POST', '/api/whatsapp-business/configure', {
    cookie,
    payload: {
      accessToken: 'EAAG-rapido',
      phoneNumberId: PHONE_ID,
      businessAccountId: '209000000000555',
      appId: '123456',
      appSecret: SECRET,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  webhookPath = res.json().config.webhookPath;
  await updateAccountSettings(ctx.database.db, userId, { channel: 'cloud' });

  const fast = webhookFastPath(
    { cloudApi: ctx.app.deps.cloudApi, log: ctx.app.log },
    { 'x-content-type-options': 'nosniff' },
    BODY_DEADLINE_MS,
  );
  bare = createServer((request, response) => {
    if (fast(request, response)) return;
    request.resume();
    response.writeHead(599).end();
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  barePort = (bare.address() as AddressInfo).port;
  appPort = await listen(ctx);
});
afterAll(async () => {
  await new Promise((resolve) => bare.close(resolve));
  await ctx.close();
  await graph.stop();
});

let seq = 0;
function message(text: string): string {
  seq++;
  const number = { phoneNumberId: PHONE_ID, displayPhoneNumber: '551130005555', businessAccountId: '209000000000555' };
  const content = { timestamp: String(1763800000 + seq), type: 'text', text: { body: text } };
  return inboundDelivery(number, '5511987650000', `wamid.FAST${seq}`, content, 'Bia');
}

const json = { 'content-type': 'application/json' };
const sized = (body: string | Buffer, headers: Record<string, string>) => ({
  'content-length': String(Buffer.byteLength(body)),
  ...headers,
});
const fastPost = (path: string, body: string | Buffer, headers: Record<string, string>) =>
  rawRequest(barePort, 'POST', path, sized(body, headers), body);
const routePost = (path: string, body: string | Buffer, headers: Record<string, string>) =>
  rawRequest(appPort, 'POST', `${path}?via=rota`, sized(body, headers), body);
const answerOf = (r: RawResponse) => ({ status: r.status, body: r.json() });

describe('webhook fast path', () => {
  it('answers every outcome exactly as the regular route', async () => {
    const cases: Array<[string, string, string | Buffer, Record<string, string>]> = [];
    const signed = (body: string) => ({ ...json, 'x-hub-signature-256': signBody(body, SECRET) });
    const a = message('Olá, qual o preço?');
    cases.push(['a new message', webhookPath, a, signed(a)]);
    cases.push(['the same delivery again', webhookPath, a, signed(a)]);
    const b = message('Outra pergunta');
    cases.push(['a wrong signature', webhookPath, b, { ...json, 'x-hub-signature-256': signBody(b, 'outro') }]);
    cases.push(['no signature', webhookPath, b, json]);
    cases.push(['an unknown key', `/api/whatsapp-business/webhook/${'0'.repeat(32)}`, b, signed(b)]);
    cases.push(['signed bytes that are not JSON', webhookPath, '{"object":', signed('{"object":')]);
    const empty = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    cases.push(['a delivery with no events', webhookPath, empty, signed(empty)]);

    for (const [label, path, body, headers] of cases) {
      // Each outcome once through each path; a new message is sent as two different messages.
      const viaRoute = answerOf(await routePost(path, body, headers));
      const again = label === 'a new message' ? message('Olá, qual o preço?') : undefined;
      const viaFast = answerOf(
        again ? await fastPost(path, again, signed(again)) : await fastPost(path, body, headers),
      );
      expect(viaFast, label).toEqual(viaRoute);
    }
    expect(answerOf(await fastPost(webhookPath, a, signed(a)))).toEqual({
      status: 200,
      body: { success: true, applied: 0 },
    });

    // The database known to be out of reach: both paths answer 503, so Meta delivers it again.
    const service = ctx.app.deps.cloudApi as unknown as {
      recordingFails: boolean;
      eventKeys: { record: (...args: unknown[]) => Promise<unknown> };
    };
    const failing = vi
      .spyOn(service.eventKeys, 'record')
      .mockRejectedValue(new Error('Connection terminated unexpectedly'));
    service.recordingFails = true;
    try {
      const c = message('Durante a queda');
      const viaRoute = answerOf(await routePost(webhookPath, c, signed(c)));
      expect(viaRoute).toEqual({
        status: 503,
        body: { success: false, code: 'UNAVAILABLE', message: msg.generic.unavailable },
      });
      expect(answerOf(await fastPost(webhookPath, c, signed(c)))).toEqual(viaRoute);
    } finally {
      failing.mockRestore();
      service.recordingFails = false;
    }
    // Each message applied once, whichever path carried it.
    const stored = await waitFor(
      () =>
        ctx.database.db
          .select({ id: whatsappInboundMessages.providerMessageId })
          .from(whatsappInboundMessages)
          .where(
            and(eq(whatsappInboundMessages.userId, userId), eq(whatsappInboundMessages.fromPhone, '5511987650000')),
          ),
      (rows) => rows.length >= 2,
    );
    expect(stored.map((r) => r.id).sort()).toEqual(['wamid.FAST1', 'wamid.FAST3']);
  });

  it('takes only the plain shape Meta sends and leaves the rest to the regular route', async () => {
    const body = message('Oi');
    const headers = { ...json, 'x-hub-signature-256': signBody(body, SECRET) };
    const declined: Array<[string, Promise<RawResponse>]> = [
      ['a query string', fastPost(`${webhookPath}?a=1`, body, headers)],
      ['a cookie', fastPost(webhookPath, body, { ...headers, cookie: 'sid=x' })],
      ['another content type', fastPost(webhookPath, body, { ...headers, 'content-type': 'text/plain' })],
      ['an encoded path', fastPost(webhookPath.replace('webhook', 'web%68ook'), body, headers)],
      ['upper-case path', fastPost(webhookPath.toUpperCase(), body, headers)],
      ['a body over the limit', fastPost(webhookPath, Buffer.alloc(1024 * 1024 + 1, 32), headers)],
      ['a chunked body', chunked(webhookPath, body, headers)],
    ];
    for (const [label, res] of declined) expect((await res).status, label).toBe(599);
    const get = await rawRequest(barePort, 'GET', webhookPath);
    expect(get.status).toBe(599);
    // Over the app's own server those still reach the regular route and its answers.
    const oversized = Buffer.alloc(1024 * 1024 + 1, 32);
    const big = await rawRequest(appPort, 'POST', webhookPath, sized(oversized, headers), oversized);
    expect(big.status).toBe(413);
  });

  it('counts only deliveries whose signature checks out towards a burst of webhooks', async () => {
    const arrived = vi.spyOn(Foreground.prototype, 'arrived');
    try {
      const body = message('Só conta a assinada');
      const forged = { ...json, 'x-hub-signature-256': signBody(body, 'falsa') };
      for (let i = 0; i < 20; i++) {
        expect((await fastPost(webhookPath, body, forged)).status).toBe(403);
        expect((await routePost(webhookPath, body, forged)).status).toBe(403);
      }
      expect(arrived).not.toHaveBeenCalled();
      expect(
        (await fastPost(webhookPath, body, { ...json, 'x-hub-signature-256': signBody(body, SECRET) })).status,
      ).toBe(200);
      expect(arrived).toHaveBeenCalledTimes(1);
    } finally {
      arrived.mockRestore();
    }
  });
});

describe('a slow delivery', () => {
  /** Opens a socket, declares a large body and sends its first byte only; answers what the server sends back. */
  function trickle(port: number, path: string) {
    const socket: Socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: 1000000\r\nX-Hub-Signature-256: sha256=${'0'.repeat(64)}\r\n\r\n{`,
    );
    return { socket, closed, answer: () => Buffer.concat(received).toString('utf8') };
  }

  it('counts as foreground work only once its body arrived and its signature checked out', async () => {
    const run = vi.spyOn(Foreground.prototype, 'run');
    const slow = [
      trickle(appPort, `/api/whatsapp-business/webhook/${'a'.repeat(32)}`),
      trickle(appPort, webhookPath),
      trickle(barePort, webhookPath),
    ];
    try {
      // Bytes keep trickling in: the requests are under way, and no one's statements wait for them.
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        for (const s of slow.slice(0, 2)) s.socket.write(' ');
      }
      expect(run).not.toHaveBeenCalled();
      // A forged delivery is refused without being counted either.
      const body = message('Forjada');
      const forged = { ...json, 'x-hub-signature-256': signBody(body, 'falsa') };
      expect((await routePost(webhookPath, body, forged)).status).toBe(403);
      expect((await fastPost(webhookPath, body, forged)).status).toBe(403);
      expect(run).not.toHaveBeenCalled();
      // A signed one is, once.
      const ok = message('Assinada');
      expect((await fastPost(webhookPath, ok, { ...json, 'x-hub-signature-256': signBody(ok, SECRET) })).status).toBe(
        200,
      );
      expect(run).toHaveBeenCalledTimes(1);
    } finally {
      run.mockRestore();
      for (const s of slow) s.socket.destroy();
    }
  });

  it('is answered 408 and its socket closed when its body does not arrive by the deadline', async () => {
    const slow = trickle(barePort, webhookPath);
    await slow.closed;
    expect(slow.answer()).toMatch(/^HTTP\/1\.1 408 /);
    const body = JSON.parse(slow.answer().split('\r\n\r\n')[1]);
    expect(body).toEqual({ success: false, code: 'REQUEST_TIMEOUT', message: msg.generic.requestTimeout });
  });
});

/** A post without a declared length: Node sends the body with Transfer-Encoding: chunked. */
function chunked(path: string, body: string, headers: Record<string, string>): Promise<RawResponse> {
  return rawRequest(barePort, 'POST', path, headers, body);
}

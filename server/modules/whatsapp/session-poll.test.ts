import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, loginAs, type TestContext } from '../../testing/test-app';
import { sessionPollFastPath } from './session-poll.fast-path';

/** The poll answered before Fastify must be the very answer of the regular route. */
let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createTestApp({}, 60_000);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

const poll = (cookie?: string, query = '') =>
  fetch(`${base}/api/whatsapp-session${query}`, { headers: cookie ? { cookie: `other=1; ${cookie}` } : {} });
const headersOf = (res: Response) => {
  const h = Object.fromEntries(res.headers);
  delete h.date;
  delete h['keep-alive'];
  delete h.connection;
  return h;
};

describe('the 2-second session poll', () => {
  it('answers a cached session before Fastify with the same body and headers as the route', async () => {
    const user = await createUser(ctx);
    const cookie = await loginAs(ctx, user);
    const viaRoute = await poll(cookie, '?via=route'); // a query string always takes the regular route
    const viaFastPath = await poll(cookie); // the session is cached now
    expect(viaRoute.status).toBe(200);
    expect(viaFastPath.status).toBe(200);
    expect(await viaFastPath.json()).toEqual(await viaRoute.json());
    expect(headersOf(viaFastPath)).toEqual(headersOf(viaRoute));

    // The poll answers for the account's primary personal number.
    ctx.app.deps.registry.setPrimary(user.id, 'number-1');
    ctx.app.deps.registry.set('number-1', {
      phoneNumber: '+55 21 99876-5432',
      isConnected: true,
      state: 'connected',
      qr: null,
    });
    expect(await (await poll(cookie)).json()).toEqual({
      phoneNumber: '+55 21 99876-5432',
      isConnected: true,
      state: 'connected',
      qr: null,
    });
  });

  it('takes the fast path only for a cached session that may poll', async () => {
    const fast = sessionPollFastPath(ctx.app.deps, { 'x-content-type-options': 'nosniff' });
    const written: Array<{ status: number; body: string }> = [];
    const response = {
      writeHead(status: number) {
        written.push({ status, body: '' });
        return this;
      },
      end(body: string) {
        written[written.length - 1].body = body;
      },
    } as unknown as ServerResponse;
    const request = (cookie?: string) =>
      ({ url: '/api/whatsapp-session', method: 'GET', headers: cookie ? { cookie } : {} }) as IncomingMessage;

    const user = await createUser(ctx);
    const cookie = await loginAs(ctx, user);
    expect(fast(request(), response)).toBe(false);
    ctx.app.deps.sessions.clearCache();
    expect(fast(request(cookie), response)).toBe(false); // not cached: the route reads the database
    await poll(cookie, '?warm=1');
    expect(fast(request(cookie), response)).toBe(true);
    expect(written).toEqual([{ status: 200, body: JSON.stringify(ctx.app.deps.registry.status(user)) }]);
    expect(fast({ ...request(cookie), method: 'POST' } as IncomingMessage, response)).toBe(false);
  });

  it('leaves refusals to the regular route: anonymous, pending, logged out and expired demo', async () => {
    expect((await poll()).status).toBe(401);
    const pending = await loginAs(ctx, await createUser(ctx, { accountType: 'pending', isActive: false }));
    await poll(pending, '?warm=1');
    const refused = await poll(pending);
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('ACCOUNT_PENDING');

    const user = await createUser(ctx);
    const cookie = await loginAs(ctx, user);
    expect((await poll(cookie)).status).toBe(200);
    await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect((await poll(cookie)).status).toBe(401);

    const demo = await createUser(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 1500),
    });
    const demoCookie = await loginAs(ctx, demo);
    expect((await poll(demoCookie)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await poll(demoCookie);
    expect(expired.status).toBe(401);
    expect((await expired.json()).message).toBe('Conta demo expirada!');
  });
});

describe('the HTTP server behind the fast path', () => {
  it('keeps idle connections as long as Fastify would (72 s), not Node’s 5 s', () => {
    expect(ctx.app.server.keepAliveTimeout).toBe(72_000);
  });
});

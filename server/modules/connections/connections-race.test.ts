import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudApiMsg } from '../../../contract/cloud-api';
import { connectionLimitFor, connectionsMsg } from '../../../contract/connections';
import { connections, whatsappBusinessAccounts } from '../../db/schema';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import { type ApiAnswer, apiFetch, listen } from '../../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../../testing/test-app';

/**
 * Adding numbers at once, over real HTTP: however many requests arrive together, on whichever route
 * adds a number, an account ends with at most its plan's limit, one default, and the rest refused in
 * pt-BR; a Cloud phone number id ends with one account. On PostgreSQL the requests really run side
 * by side (a pool of connections); the embedded database takes them in turn and must answer alike.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let base: string;
let phoneSeq = 0;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp({ WHATSAPP_DRIVER: 'simulator', GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0' });
  base = `http://127.0.0.1:${await listen(ctx)}`;
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

/** A Cloud phone number the fake Graph API knows, with its token. */
function cloudPhone() {
  const id = `1090000077${String(phoneSeq++).padStart(5, '0')}`;
  const token = `EAAG-corrida-${id}`;
  graph.addPhone(id, token, `55113000${String(phoneSeq).padStart(4, '0')}`);
  return { id, token };
}

const credentials = (phone: { id: string; token: string }) => ({
  accessToken: phone.token,
  phoneNumberId: phone.id,
  businessAccountId: '209000000000777',
  appId: '123456',
  appSecret: 'segredo-da-corrida',
});

async function liveNumbers(userId: string) {
  return ctx.database.db
    .select({ id: connections.id, isDefault: connections.isDefault })
    .from(connections)
    .where(and(eq(connections.userId, userId), isNull(connections.deletedAt)));
}

function tally(answers: ApiAnswer[]) {
  const byStatus = new Map<number, number>();
  for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  return byStatus;
}

const together = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

describe('adding numbers at once', () => {
  for (const burst of [20, 200]) {
    it(`keeps a Básico account to one number: ${burst} personal adds at once`, async () => {
      const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
      const answers = await together(burst, (i) =>
        apiFetch(base, cookie, 'POST', '/api/connections', { kind: 'personal', label: `Número ${i}` }),
      );
      const statuses = tally(answers);
      expect(statuses.get(201), JSON.stringify([...statuses])).toBe(1);
      expect(statuses.get(403)).toBe(burst - 1);
      for (const a of answers.filter((x) => x.status === 403)) {
        expect(a.body.message).toBe(connectionsMsg.limitReached(1));
      }
      const rows = await liveNumbers(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].isDefault).toBe(true);
    });
  }

  it('keeps a Premium account to its limit with one default and no 500: 20 adds at once', async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'premium' });
    const limit = connectionLimitFor('premium') as number;
    const answers = await together(20, (i) =>
      apiFetch(base, cookie, 'POST', '/api/connections', { kind: 'personal', label: `Número ${i}` }),
    );
    const statuses = tally(answers);
    expect(statuses.get(201), JSON.stringify([...statuses])).toBe(limit);
    expect(statuses.get(403)).toBe(20 - limit);
    const rows = await liveNumbers(user.id);
    expect(rows).toHaveLength(limit);
    expect(rows.filter((r) => r.isDefault)).toHaveLength(1);
  });

  it('adds one Cloud number on a Básico account: 20 Cloud adds at once with different ids', async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
    const answers = await together(20, (i) =>
      apiFetch(base, cookie, 'POST', '/api/connections', {
        kind: 'cloud',
        label: `Oficial ${i}`,
        ...credentials(cloudPhone()),
      }),
    );
    const statuses = tally(answers);
    expect(statuses.get(201), JSON.stringify([...statuses])).toBe(1);
    expect(statuses.get(403)).toBe(19);
    expect(await liveNumbers(user.id)).toHaveLength(1);
    const saved = await ctx.database.db
      .select()
      .from(whatsappBusinessAccounts)
      .where(eq(whatsappBusinessAccounts.userId, user.id));
    expect(saved).toHaveLength(1);
  });

  it("adds one number through the spec's connect route: 20 at once", async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
    const answers = await together(20, () => apiFetch(base, cookie, 'POST', '/api/whatsapp/connect', {}));
    for (const a of answers) expect(a.status, a.text).toBeLessThan(500);
    expect(await liveNumbers(user.id)).toHaveLength(1);
  });

  it("adds one number through the spec's Cloud configure route: 20 at once", async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
    const phone = cloudPhone();
    const answers = await together(20, () =>
      apiFetch(base, cookie, 'POST', '/api/whatsapp-business/configure', credentials(phone)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(await liveNumbers(user.id)).toHaveLength(1);
  });

  it("refuses the spec's connect over the limit when the account's one number is a Cloud number", async () => {
    const { user, cookie } = await newCustomer(ctx, { planType: 'basic' });
    const configured = await apiFetch(
      base,
      cookie,
      'POST',
      '/api/whatsapp-business/configure',
      credentials(cloudPhone()),
    );
    expect(configured.status, configured.text).toBe(200);
    const connect = await apiFetch(base, cookie, 'POST', '/api/whatsapp/connect', {});
    expect(connect.status).toBe(403);
    expect(connect.body.message).toBe(connectionsMsg.limitReached(1));
    expect(await liveNumbers(user.id)).toHaveLength(1);
  });

  it('gives a Cloud phone number id to one of two accounts registering it at the same moment', async () => {
    const phone = cloudPhone();
    const accounts = await together(6, () => newCustomer(ctx, { planType: 'professional' }));
    const answers = await Promise.all(
      accounts.map(({ cookie }, i) =>
        i % 2
          ? apiFetch(base, cookie, 'POST', '/api/whatsapp-business/configure', credentials(phone))
          : apiFetch(base, cookie, 'POST', '/api/connections', {
              kind: 'cloud',
              label: 'Oficial',
              ...credentials(phone),
            }),
      ),
    );
    const won = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(won, JSON.stringify(answers.map((a) => a.status))).toHaveLength(1);
    for (const a of answers.filter((x) => !won.includes(x))) {
      expect(a.status, a.text).toBe(409);
      expect(a.body.message).toBe(cloudApiMsg.phoneNumberInUse);
    }
    const owners = await ctx.database.db
      .select({ userId: whatsappBusinessAccounts.userId })
      .from(whatsappBusinessAccounts)
      .where(eq(whatsappBusinessAccounts.phoneNumberId, phone.id));
    expect(owners).toHaveLength(1);
    // The losers keep no number without credentials.
    for (const { user } of accounts.filter((a) => a.user.id !== owners[0].userId)) {
      expect(await liveNumbers(user.id)).toHaveLength(0);
    }
  });

  it('tells whether a phone number id is taken only to who holds its credentials', async () => {
    const phone = cloudPhone();
    const owner = await newCustomer(ctx, { planType: 'professional' });
    expect(
      (await apiFetch(base, owner.cookie, 'POST', '/api/whatsapp-business/configure', credentials(phone))).status,
    ).toBe(200);
    const stranger = await newCustomer(ctx, { planType: 'professional' });
    const guess = await apiFetch(base, stranger.cookie, 'POST', '/api/whatsapp-business/configure', {
      ...credentials(phone),
      accessToken: 'EAAG-um-palpite',
    });
    const unknown = await apiFetch(base, stranger.cookie, 'POST', '/api/whatsapp-business/configure', {
      ...credentials({ id: '109999999999999', token: 'x' }),
      accessToken: 'EAAG-um-palpite',
    });
    expect(guess.status).toBe(409);
    expect(guess.body.message).not.toBe(cloudApiMsg.phoneNumberInUse);
    expect(guess.body.code).toBe(unknown.body.code);
  });
});

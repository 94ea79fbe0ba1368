import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_REPLIES_MAX } from '../../contract/bot';
import { contactsMsg } from '../../contract/contacts';
import { uploadsMsg } from '../../contract/uploads';
import { rowsOf } from '../db/rows';
import { apiUpload, signIn } from '../testing/http-session';
import { type ApiAnswer, apiFetch, type HttpSession, listen } from '../testing/raw-http';
import { connectSimulator, createTestApp, createUser, TEST_PASSWORD, type TestContext } from '../testing/test-app';

/**
 * A plan's limits hold when many requests reach one account at once (on PostgreSQL each request
 * gets its own connection, so a count read before an insert could let several in): 20 requests
 * fired together at an account one short of its limit store at most what the limit allows, and
 * every other one gets the limit's message in Portuguese, never a 500.
 */
const QUOTA_MB = 5;
const AT_ONCE = 20;

let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await createTestApp({ WHATSAPP_DRIVER: 'simulator', UPLOADS_QUOTA_MB: String(QUOTA_MB) }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
  });
  base = `http://127.0.0.1:${await listen(ctx)}`;
});
afterAll(() => ctx.close());

async function account(): Promise<{ id: string; s: HttpSession }> {
  const user = await createUser(ctx, { planType: 'basic' });
  return { id: user.id, s: await signIn(base, { username: user.username, password: TEST_PASSWORD }) };
}

/** Stores `n` contacts for the account straight in the database. */
async function fill(userId: string, n: number): Promise<void> {
  await ctx.database.db.execute(sql`insert into contacts (user_id, name, phone)
    select ${userId}, 'C' || i, '+55119' || lpad(i::text, 8, '0') from generate_series(1, ${n}) as i`);
}

async function contactCount(userId: string): Promise<number> {
  const [r] = rowsOf<{ n: number }>(
    await ctx.database.db.execute(sql`select count(*)::int as n from contacts where user_id = ${userId}`),
  );
  return r.n;
}

/** A new number for each of the requests fired at once. */
const phone = (i: number) => `2199876${String(i).padStart(4, '0')}`;

function expectRefused(answers: ApiAnswer[], status: number, message: string, allowed: number): void {
  expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
  const refused = answers.filter((a) => a.status !== 200);
  expect(answers.length - refused.length).toBeLessThanOrEqual(allowed);
  for (const a of refused) {
    expect(a.status, a.text).toBe(status);
    expect(a.body.message).toBe(message);
  }
}

describe("the plan's contact limit under concurrent writes", () => {
  it('creates one contact of 20 sent at once to an account one short of its limit', async () => {
    const { id, s } = await account();
    await fill(id, 4999);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        apiFetch(base, s.cookie, 'POST', '/api/contacts', { name: `Novo ${i}`, phone: phone(i) }),
      ),
    );
    expectRefused(answers, 409, contactsMsg.planLimit(5000, 'Plano Básico'), 1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await contactCount(id)).toBe(5000);
  });

  it('imports one contact of 20 one-line files sent at once', async () => {
    const { id, s } = await account();
    await fill(id, 4999);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        apiUpload(s, '/api/contacts/import', { name: `c${i}.csv`, data: `Nome,Telefone\nNovo ${i},${phone(i)}\n` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.reduce((sum, a) => sum + a.body.imported, 0)).toBe(1);
    for (const a of answers.filter((x) => x.body.imported === 0))
      expect(a.body.message).toBe(contactsMsg.planLimit(5000, 'Plano Básico'));
    expect(await contactCount(id)).toBe(5000);
  });

  it('makes one contact of 20 new numbers writing at once', async () => {
    // Three accounts, one burst each: the chatbot takes the messages of different numbers side by
    // side, and each burst is one more chance for two of them to count the same total.
    for (let round = 0; round < 3; round++) {
      const { id, s } = await account();
      await connectSimulator(ctx, id, s.cookie);
      await fill(id, 4999);
      const answers = await Promise.all(
        Array.from({ length: AT_ONCE }, (_, i) =>
          apiFetch(base, s.cookie, 'POST', '/api/whatsapp/simulator/inbound', { from: `55${phone(i)}`, text: 'oi' }),
        ),
      );
      expect(answers.map((a) => a.status).filter((x) => x >= 500)).toEqual([]);
      await ctx.app.deps.chatbot.idle();
      const [{ n: received }] = rowsOf<{ n: number }>(
        await ctx.database.db.execute(
          sql`select count(*)::int as n from whatsapp_inbound_messages where user_id = ${id}`,
        ),
      );
      expect(received).toBe(AT_ONCE);
      expect(await contactCount(id)).toBe(5000);
    }
  });
});

describe('creates, imports and the chatbot share one count', () => {
  it('makes one contact of creates, one-line imports and new numbers writing, all at once', async () => {
    const { id, s } = await account();
    await connectSimulator(ctx, id, s.cookie);
    await fill(id, 4999);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => {
        if (i % 3 === 0)
          return apiFetch(base, s.cookie, 'POST', '/api/contacts', { name: `Novo ${i}`, phone: phone(i) });
        if (i % 3 === 1)
          return apiUpload(s, '/api/contacts/import', {
            name: `c${i}.csv`,
            data: `Nome,Telefone\nNovo ${i},${phone(i)}\n`,
          });
        return apiFetch(base, s.cookie, 'POST', '/api/whatsapp/simulator/inbound', {
          from: `55${phone(i)}`,
          text: 'oi',
        });
      }),
    );
    expect(answers.map((a) => a.status).filter((x) => x >= 500)).toEqual([]);
    await ctx.app.deps.chatbot.idle();
    expect(await contactCount(id)).toBe(5000);
  });
});

describe("the account's room for images under concurrent uploads", () => {
  /** A PNG by its first bytes, `bytes` long. */
  const png = (bytes: number) =>
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(bytes - 8, 7)]);

  it('stores one image of 20 sent at once when one more fits', async () => {
    const { id, s } = await account();
    const image = 200 * 1024;
    // The account's images leave room for one more and a half: the size counts, not the stored bytes.
    const used = QUOTA_MB * 1024 * 1024 - Math.floor(image * 1.5);
    await ctx.database.db.execute(sql`insert into media_uploads (user_id, file_name, mime_type, size, data)
      values (${id}, 'antiga.png', 'image/png', ${used}, decode('00', 'hex'))`);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        apiUpload(s, '/api/uploads', { name: `foto${i}.png`, data: png(image) }),
      ),
    );
    expectRefused(answers, 413, uploadsMsg.quotaExceeded(QUOTA_MB * 1024 * 1024, used + image), 1);
    const [stored] = rowsOf<{ n: number; total: string | number }>(
      await ctx.database.db.execute(
        sql`select count(*)::int as n, sum(size) as total from media_uploads where user_id = ${id}`,
      ),
    );
    expect(stored.n).toBe(2);
    expect(Number(stored.total)).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);
  });
});

describe("the account's limit of automatic replies under concurrent restores and saves", () => {
  const replies = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ trigger: `${prefix}${i}`, response: 'Olá!', type: 'text' }));

  it('keeps at most BOT_REPLIES_MAX rules when backups are restored while the bot settings are saved', async () => {
    // A backup of another account carrying 1,900 rules.
    const donor = await account();
    expect(
      (await apiFetch(base, donor.s.cookie, 'POST', '/api/bot-config', { autoReplies: replies('a', 1900) })).status,
    ).toBe(200);
    const backup = await fetch(`${base}/api/backup`, { headers: { cookie: donor.s.cookie } });
    expect(backup.status).toBe(200);
    const file = Buffer.from(await backup.arrayBuffer());

    const { id, s } = await account();
    expect((await apiFetch(base, s.cookie, 'POST', '/api/bot-config', { isEnabled: true })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        i % 2
          ? apiUpload(s, '/api/backup/restore', { name: 'backup.json', data: file })
          : // Saves of few rules and of the most there may be, in turn: a restore that counted the few
            // and added to them while the many replaced them would go over the limit.
            apiFetch(base, s.cookie, 'POST', '/api/bot-config', {
              autoReplies: replies(`b${i}-`, i % 4 ? BOT_REPLIES_MAX : 10),
            }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const [{ n }] = rowsOf<{ n: number }>(
      await ctx.database.db.execute(sql`select count(*)::int as n from auto_replies where user_id = ${id}`),
    );
    expect(n).toBeLessThanOrEqual(BOT_REPLIES_MAX);
  });
});

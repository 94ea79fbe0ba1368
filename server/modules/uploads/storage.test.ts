import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { STORAGE_LIMITS_MB } from '../../../contract/plans';
import { uploadsMsg } from '../../../contract/uploads';
import { rowsOf } from '../../db/rows';
import { autoReplies, campaigns, mediaUploads, savedMessages } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { multipart } from '../../testing/multipart';
import { createTestApp, newCustomerWithCalls, waitFor } from '../../testing/test-app';

/**
 * The account's room for files: its plan's, for every file it stores (in the database or the media
 * store), and freed when the campaign, saved message or bot rule that used a file is deleted.
 */
const ctx = appPerFile(() =>
  createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, { dispatcher: { autoStart: false } }),
);

const MB = 1024 * 1024;
const pdf = (bytes = 50_000) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(bytes), Buffer.from('\n%%EOF\n')]);

function upload(cookie: string, name: string, data: Buffer) {
  const body = multipart(name, data);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/uploads',
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

/** A stored file of `size` bytes the account already has (the bytes themselves do not matter). */
async function filler(userId: string, size: number, origin: 'upload' | 'inbound' = 'upload') {
  await ctx.database.db.execute(sql`insert into media_uploads (user_id, file_name, mime_type, size, kind, origin, state)
    values (${userId}, 'antigo.pdf', 'application/pdf', ${size}, 'document', ${origin}, 'ready')`);
}

const row = async (id: string) =>
  (await ctx.database.db.select({ key: mediaUploads.storageKey }).from(mediaUploads).where(eq(mediaUploads.id, id)))[0];

/** Whether the media store still has the file's bytes. */
const inStore = async (key: string) => {
  const body = await ctx.app.deps.media.store.get(key);
  if (!body) return false;
  for await (const _ of body) break;
  return true;
};

describe("the account's room for files, per plan", () => {
  it('says what is used and the plan’s room; files contacts sent are not counted', async () => {
    const { user, call } = await newCustomerWithCalls(ctx, { planType: 'professional' });
    const empty = await call('GET', '/api/uploads/usage');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ usedBytes: 0, limitBytes: STORAGE_LIMITS_MB.professional * MB });
    await filler(user.id, 3 * MB);
    await filler(user.id, 7 * MB, 'inbound');
    expect((await call('GET', '/api/uploads/usage')).json()).toEqual({
      usedBytes: 3 * MB,
      limitBytes: STORAGE_LIMITS_MB.professional * MB,
    });
    const other = await newCustomerWithCalls(ctx);
    expect((await other.call('GET', '/api/uploads/usage')).json()).toEqual({
      usedBytes: 0,
      limitBytes: STORAGE_LIMITS_MB.basic * MB,
    });
  });

  it('refuses a document over the plan’s room with 413, naming the limit and what is used; nothing kept', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx, { planType: 'demo' });
    const limit = STORAGE_LIMITS_MB.demo * MB;
    const used = limit - 10_000;
    await filler(user.id, used);
    const res = await upload(cookie, 'catalogo.pdf', pdf());
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toBe(uploadsMsg.quotaExceeded(limit, used));
    expect(res.json().message).toMatch(/100 MB/);
    expect((await call('GET', '/api/uploads/usage')).json()).toEqual({ usedBytes: used, limitBytes: limit });
  });

  it('stores one document of 12 sent at once when one more fits', async () => {
    const { user, cookie } = await newCustomerWithCalls(ctx, { planType: 'demo' });
    const file = pdf(100_000);
    await filler(user.id, STORAGE_LIMITS_MB.demo * MB - Math.floor(file.length * 1.5));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(cookie, `doc${i}.pdf`, file)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(11).fill(413)]);
    const [stored] = rowsOf<{ total: string | number }>(
      await ctx.database.db.execute(sql`select sum(size) as total from media_uploads where user_id = ${user.id}`),
    );
    expect(Number(stored.total)).toBeLessThanOrEqual(STORAGE_LIMITS_MB.demo * MB);
  });
});

describe('deleting what used a file frees it', () => {
  async function storedPdf(cookie: string) {
    const res = await upload(cookie, 'tabela.pdf', pdf());
    expect(res.statusCode, res.body).toBe(200);
    const id: string = res.json().id;
    const key = (await row(id))?.key;
    expect(key).toBeTruthy();
    return { id, key: key as string };
  }

  it('frees a campaign’s PDF, its row and its bytes, when nothing else uses it', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    const file = await storedPdf(cookie);
    const [c] = await ctx.database.db
      .insert(campaigns)
      .values({ userId: user.id, name: 'Tabela', message: 'Segue', mediaUrl: `upload:${file.id}` })
      .returning({ id: campaigns.id });
    expect((await call('GET', '/api/uploads/usage')).json().usedBytes).toBeGreaterThan(0);
    expect((await call('DELETE', `/api/campaigns/${c.id}`)).statusCode).toBeLessThan(300);
    expect(await row(file.id)).toBeUndefined();
    expect((await call('GET', '/api/uploads/usage')).json().usedBytes).toBe(0);
    await waitFor(
      () => inStore(file.key),
      (present) => !present,
      5000,
    );
  });

  it('keeps it while a saved message or a rule still uses it, and frees it with the last', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    const file = await storedPdf(cookie);
    const ref = `upload:${file.id}`;
    const db = ctx.database.db;
    const [c] = await db
      .insert(campaigns)
      .values({ userId: user.id, name: 'Tabela', message: 'Segue', mediaUrl: ref })
      .returning({ id: campaigns.id });
    const [m] = await db
      .insert(savedMessages)
      .values({ userId: user.id, title: 'Tabela', content: 'Segue', mediaUrl: ref })
      .returning({ id: savedMessages.id });
    const [r] = await db
      .insert(autoReplies)
      .values({ userId: user.id, trigger: 'tabela', response: 'Segue', mediaUrl: ref })
      .returning({ id: autoReplies.id });

    expect((await call('DELETE', `/api/campaigns/${c.id}`)).statusCode).toBeLessThan(300);
    expect(await row(file.id)).toBeDefined();
    expect((await call('DELETE', `/api/messages/${m.id}`)).statusCode).toBeLessThan(300);
    expect(await row(file.id)).toBeDefined();
    expect(await inStore(file.key)).toBe(true);
    expect((await call('DELETE', `/api/bot-config/auto-replies/${r.id}`)).statusCode).toBeLessThan(300);
    expect(await row(file.id)).toBeUndefined();
    await waitFor(
      () => inStore(file.key),
      (present) => !present,
      5000,
    );
  });

  it('frees a campaign’s file when an edit replaces it, and keeps it when the edit leaves it', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    const first = await storedPdf(cookie);
    const second = await storedPdf(cookie);
    const [c] = await ctx.database.db
      .insert(campaigns)
      .values({ userId: user.id, name: 'Tabela', message: 'Segue', mediaUrl: `upload:${first.id}` })
      .returning({ id: campaigns.id });
    const renamed = await call('PUT', `/api/campaigns/${c.id}`, { name: 'Tabela nova' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await row(first.id)).toBeDefined();
    const replaced = await call('PUT', `/api/campaigns/${c.id}`, { mediaUrl: `upload:${second.id}` });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await row(first.id)).toBeUndefined();
    expect(await row(second.id)).toBeDefined();
  });

  it('frees a rule’s file when the rule changes to another, and keeps the new one', async () => {
    const { cookie, call } = await newCustomerWithCalls(ctx);
    const first = await storedPdf(cookie);
    const second = await storedPdf(cookie);
    const rule = (id: string) => ({ trigger: 'tabela', response: '', type: 'document', mediaUrl: `upload:${id}` });
    const added = await call('POST', '/api/bot-config/auto-replies', rule(first.id));
    expect(added.statusCode, added.body).toBe(200);
    const ruleId: string = added.json().rule.id;
    const changed = await call('PUT', `/api/bot-config/auto-replies/${ruleId}`, rule(second.id));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await row(first.id)).toBeUndefined();
    expect(await row(second.id)).toBeDefined();
    await waitFor(
      () => inStore(first.key),
      (present) => !present,
      5000,
    );
    // Saved again unchanged: its file stays.
    expect((await call('PUT', `/api/bot-config/auto-replies/${ruleId}`, rule(second.id))).statusCode).toBe(200);
    expect(await row(second.id)).toBeDefined();
  });

  it('frees, on a whole save of the bot, the files of the rules it leaves out, and keeps those still used', async () => {
    const { cookie, call } = await newCustomerWithCalls(ctx);
    const kept = await storedPdf(cookie);
    const dropped = await storedPdf(cookie);
    const rule = (trigger: string, id: string) => ({
      trigger,
      response: '',
      type: 'document',
      mediaUrl: `upload:${id}`,
    });
    const saved = await call('POST', '/api/bot-config', {
      autoReplies: [rule('tabela', kept.id), rule('catalogo', dropped.id)],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await row(dropped.id)).toBeDefined();
    const again = await call('POST', '/api/bot-config', { autoReplies: [rule('tabela', kept.id)] });
    expect(again.statusCode, again.body).toBe(200);
    expect(await row(dropped.id)).toBeUndefined();
    expect(await row(kept.id)).toBeDefined();
    expect(await inStore(kept.key)).toBe(true);
    await waitFor(
      () => inStore(dropped.key),
      (present) => !present,
      5000,
    );
  });

  it('frees a saved message’s image kept in the database', async () => {
    const { user, cookie, call } = await newCustomerWithCalls(ctx);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2000)]);
    const res = await upload(cookie, 'foto.png', png);
    expect(res.statusCode, res.body).toBe(200);
    const [m] = await ctx.database.db
      .insert(savedMessages)
      .values({ userId: user.id, title: 'Foto', content: 'Oi', uploadId: res.json().id })
      .returning({ id: savedMessages.id });
    expect((await call('DELETE', `/api/messages/${m.id}`)).statusCode).toBeLessThan(300);
    expect(await row(res.json().id)).toBeUndefined();
  });

  it('leaves another account’s files alone, even when a deleted row names them', async () => {
    const a = await newCustomerWithCalls(ctx);
    const b = await newCustomerWithCalls(ctx);
    const bFile = await storedPdf(b.cookie);
    const [c] = await ctx.database.db
      .insert(campaigns)
      .values({ userId: a.user.id, name: 'Alheia', message: 'Oi', mediaUrl: `upload:${bFile.id}` })
      .returning({ id: campaigns.id });
    expect((await a.call('DELETE', `/api/campaigns/${c.id}`)).statusCode).toBeLessThan(300);
    expect(await row(bFile.id)).toBeDefined();
    expect(await inStore(bFile.key)).toBe(true);
  });

  it('prunes unused store-backed files a day old, with their bytes, and keeps those a rule uses', async () => {
    const { user, cookie } = await newCustomerWithCalls(ctx, { planType: 'demo' });
    const unused = await storedPdf(cookie);
    const used = await storedPdf(cookie);
    await ctx.database.db
      .insert(autoReplies)
      .values({ userId: user.id, trigger: 'preco', response: 'Segue', mediaUrl: `upload:${used.id}` });
    await ctx.database.db.execute(
      sql`update media_uploads set created_at = now() - interval '2 days' where user_id = ${user.id}`,
    );
    // Room only once the unused one goes.
    await filler(user.id, STORAGE_LIMITS_MB.demo * MB - 2 * pdf().length - 20_000);
    const res = await upload(cookie, 'nova.pdf', pdf());
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(unused.id)).toBeUndefined();
    expect(await row(used.id)).toBeDefined();
    await waitFor(
      () => inStore(unused.key),
      (present) => !present,
      5000,
    );
    expect(await inStore(used.key)).toBe(true);
  });
});

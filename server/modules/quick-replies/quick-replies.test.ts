import { describe, expect, it } from 'vitest';
import { QUICK_REPLY_LIMIT, quickRepliesMsg } from '../../../contract/quick-replies';
import { teamMsg } from '../../../contract/team';
import { quickReplies } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { newMember } from '../../testing/team';
import { type ApiMethod, apiCall, newCustomer, type TestContext } from '../../testing/test-app';

/**
 * Quick replies: the owner and managers keep them, agents use them; a shortcut is the account's
 * once (in any case, with or without its slash), even when two are saved at once; an account has
 * at most QUICK_REPLY_LIMIT; another account sees and changes none of them.
 */
const ctx = appPerFile() as TestContext;
const as = (cookie: string) => (method: ApiMethod, url: string, payload?: unknown) =>
  apiCall(ctx, method, url, { cookie, payload });

describe('quick replies', () => {
  it('are kept by managers, used by agents, searched by shortcut start or text', async () => {
    const owner = await newCustomer(ctx, { planType: 'professional' });
    const manager = as((await newMember(ctx, owner.user, 'manager')).cookie);
    const agent = as((await newMember(ctx, owner.user, 'agent')).cookie);
    const made = await manager('POST', '/api/quick-replies', {
      shortcut: '/Boas-Vindas',
      text: 'Olá {{nome}}, seja bem-vindo!',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().quickReply).toMatchObject({ shortcut: 'boas-vindas', text: 'Olá {{nome}}, seja bem-vindo!' });
    await manager('POST', '/api/quick-replies', { shortcut: 'pix', text: 'Nossa chave Pix é o CNPJ.' });

    const refused = await agent('POST', '/api/quick-replies', { shortcut: 'x', text: 'y' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(teamMsg.agentForbidden);
    const all = (await agent('GET', '/api/quick-replies')).json().quickReplies;
    expect(all.map((r: { shortcut: string }) => r.shortcut)).toEqual(['boas-vindas', 'pix']);
    const byShortcut = (await agent('GET', '/api/quick-replies?search=/bo')).json().quickReplies;
    expect(byShortcut.map((r: { shortcut: string }) => r.shortcut)).toEqual(['boas-vindas']);
    const byText = (await agent('GET', '/api/quick-replies?search=chave')).json().quickReplies;
    expect(byText.map((r: { shortcut: string }) => r.shortcut)).toEqual(['pix']);
    // A search term is text, not a pattern.
    expect((await agent('GET', '/api/quick-replies?search=%25')).json().quickReplies).toEqual([]);

    const id = made.json().quickReply.id;
    const edited = await manager('PUT', `/api/quick-replies/${id}`, { shortcut: 'oi', text: 'Oi!' });
    expect(edited.json().quickReply).toMatchObject({ id, shortcut: 'oi', text: 'Oi!' });
    expect((await manager('DELETE', `/api/quick-replies/${id}`)).statusCode).toBe(200);
    expect((await manager('DELETE', `/api/quick-replies/${id}`)).statusCode).toBe(404);
  });

  it('a shortcut is the account’s once, even saved twice at once; another account may use it', async () => {
    const owner = as((await newCustomer(ctx)).cookie);
    const body = { shortcut: 'horario', text: 'Atendemos das 9h às 18h.' };
    const both = await Promise.all([
      owner('POST', '/api/quick-replies', body),
      owner('POST', '/api/quick-replies', body),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const taken = both.find((r) => r.statusCode === 409);
    expect(taken?.json()).toMatchObject({
      message: quickRepliesMsg.shortcutTaken,
      fieldErrors: { shortcut: quickRepliesMsg.shortcutTaken },
    });
    expect((await owner('POST', '/api/quick-replies', { ...body, shortcut: 'HORARIO' })).statusCode).toBe(409);
    const other = as((await newCustomer(ctx)).cookie);
    expect((await other('POST', '/api/quick-replies', body)).statusCode).toBe(200);
  });

  it('refuses bad shortcuts and texts in pt-BR', async () => {
    const owner = as((await newCustomer(ctx)).cookie);
    const cases: [unknown, string][] = [
      [{ shortcut: 'com espaço', text: 'x' }, quickRepliesMsg.shortcutInvalid],
      [{ shortcut: '', text: 'x' }, quickRepliesMsg.shortcutRequired],
      [{ shortcut: 'a'.repeat(31), text: 'x' }, quickRepliesMsg.shortcutInvalid],
      [{ shortcut: 'ok', text: '   ' }, quickRepliesMsg.textRequired],
      [{ shortcut: 'ok', text: 'x'.repeat(4097) }, quickRepliesMsg.textTooLong],
    ];
    for (const [payload, message] of cases) {
      const res = await owner('POST', '/api/quick-replies', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it(`stops at ${QUICK_REPLY_LIMIT} per account`, async () => {
    const { user, cookie } = await newCustomer(ctx);
    await ctx.database.db
      .insert(quickReplies)
      .values(Array.from({ length: QUICK_REPLY_LIMIT }, (_, i) => ({ userId: user.id, shortcut: `r${i}`, text: 'x' })));
    const over = await as(cookie)('POST', '/api/quick-replies', { shortcut: 'mais', text: 'x' });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(quickRepliesMsg.limitReached);
  });

  it('carry a file of the account’s own: kept through an edit that leaves it out, taken away with null', async () => {
    const owner = await newCustomer(ctx, { planType: 'professional' });
    const other = await newCustomer(ctx, { planType: 'professional' });
    const by = as(owner.cookie);
    const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(64, 1)]);
    const upload = async (cookie: string) => {
      const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name: 'tabela.jpg', data: JPEG } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as string;
    };
    const mine = await upload(owner.cookie);
    const theirs = await upload(other.cookie);
    const made = await by('POST', '/api/quick-replies', {
      shortcut: 'tabela',
      text: 'Segue a tabela, {{nome}}.',
      mediaUrl: `upload:${mine}`,
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().quickReply).toMatchObject({
      mediaUrl: `upload:${mine}`,
      media: { id: mine, url: `/api/uploads/${mine}`, fileName: 'tabela.jpg', size: JPEG.length, kind: 'image' },
    });
    const id = made.json().quickReply.id;
    // Another account's file, a made-up one and a link are refused on the field, in Portuguese.
    for (const mediaUrl of [`upload:${theirs}`, `/api/uploads/${theirs}`, 'upload:nada', 'https://example.com/a.jpg']) {
      const refused = await by('PUT', `/api/quick-replies/${id}`, { shortcut: 'tabela', text: 'x', mediaUrl });
      expect(refused.statusCode, mediaUrl).toBe(400);
      expect(refused.json()).toMatchObject({
        message: quickRepliesMsg.mediaInvalid,
        fieldErrors: { mediaUrl: quickRepliesMsg.mediaInvalid },
      });
    }
    // An edit without mediaUrl keeps the file; null takes it away; the list says the same.
    const kept = await by('PUT', `/api/quick-replies/${id}`, { shortcut: 'tabela', text: 'Segue a tabela.' });
    expect(kept.json().quickReply).toMatchObject({ text: 'Segue a tabela.', mediaUrl: `upload:${mine}` });
    const listed = (await by('GET', '/api/quick-replies')).json().quickReplies;
    expect(listed[0].media).toMatchObject({ id: mine, fileName: 'tabela.jpg' });
    const removed = await by('PUT', `/api/quick-replies/${id}`, {
      shortcut: 'tabela',
      text: 'Sem arquivo.',
      mediaUrl: null,
    });
    expect(removed.json().quickReply).toMatchObject({ mediaUrl: null, media: null });
  });
});

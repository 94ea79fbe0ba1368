import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMsg } from '../../../contract/backup';
import { apiCall, createTestApp, newCustomerWithCalls, type TestContext } from '../../testing/test-app';

/** A backup carries the bot rules that send a file, a location or a contact card, and brings them back. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, undefined, { dispatcher: { autoStart: false } });
});
afterAll(() => ctx.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(5000), Buffer.from('\n%%EOF\n')]);
const LOCATION = { latitude: -22.9068, longitude: -43.1729, name: 'Loja Rio', address: 'Av. Atlântica, 100' };

async function account() {
  const c = await newCustomerWithCalls(ctx, { planType: 'premium' });
  const download = async () => {
    const res = await apiCall(ctx, 'GET', '/api/backup', { cookie: c.cookie });
    expect(res.statusCode).toBe(200);
    return Buffer.from(res.body);
  };
  const restore = async (file: Buffer) => {
    const res = await apiCall(ctx, 'POST', '/api/backup/restore', {
      cookie: c.cookie,
      file: { name: 'backup.json', data: file },
    });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
    return res.json();
  };
  const rules = async () =>
    (await c.call('GET', '/api/bot-config')).json().autoReplies as Array<Record<string, unknown>>;
  return { ...c, download, restore, rules };
}

describe('backup of bot rules with a file or a location', () => {
  it('restores a location rule and a document rule with their fields', async () => {
    const me = await account();
    const up = await apiCall(ctx, 'POST', '/api/uploads', {
      cookie: me.cookie,
      file: { name: 'Preços.pdf', data: PDF },
    });
    const id = /([0-9a-f-]{36})$/i.exec(up.json().url as string)?.[1] as string;
    const saved = await me.call('POST', '/api/bot-config', {
      autoReplies: [
        { trigger: 'onde', response: 'Estamos aqui', type: 'location', location: LOCATION },
        { trigger: 'precos', response: 'Tabela em anexo', type: 'document', mediaUrl: `upload:${id}` },
        { trigger: 'ana', response: '', type: 'contact', contactCard: { name: 'Ana', phone: '21998765432' } },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const file = await me.download();
    const inFile = JSON.parse(file.toString()).bot.autoReplies;
    expect(inFile[0]).toMatchObject({ type: 'location', location: LOCATION });
    expect(inFile[1]).toMatchObject({ type: 'document', mediaUrl: `upload:${id}` });

    // The rules are gone (and the file, which nothing used any more), then come back from the
    // file as they were, the document rule with the file the backup carries.
    expect((await me.call('POST', '/api/bot-config', { autoReplies: [] })).statusCode).toBe(200);
    const restored = await me.restore(file);
    expect(restored.autoReplies).toMatchObject({ added: 3 });
    expect(restored.warnings).toEqual([]);
    const mine = await me.rules();
    expect(mine).toMatchObject([
      { trigger: 'onde', type: 'location', location: LOCATION, response: 'Estamos aqui' },
      { trigger: 'precos', type: 'document', response: 'Tabela em anexo' },
      { trigger: 'ana', type: 'contact', contactCard: { name: 'Ana', phone: '21998765432' } },
    ]);
    const back = await me.call('GET', `/api/uploads/${String(mine[1].mediaUrl).slice('upload:'.length)}`);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PDF)).toBe(true);

    // Another account gets the rules, the document rule pointing at its own copy of the file.
    const other = await account();
    const theirs = await other.restore(file);
    expect(theirs.warnings).toEqual([]);
    const rules = await other.rules();
    expect(rules.map((r) => [r.trigger, r.type])).toEqual([
      ['onde', 'location'],
      ['precos', 'document'],
      ['ana', 'contact'],
    ]);
    expect(rules[1].mediaUrl).toMatch(/^upload:[0-9a-f-]{36}$/);
    expect(rules[1].mediaUrl).not.toBe(`upload:${id}`);

    // A file that names a file it does not carry brings back no rule pointing at someone else's.
    const withoutFiles = JSON.parse(file.toString());
    withoutFiles.media = [];
    const third = await account();
    const thirds = await third.restore(Buffer.from(JSON.stringify(withoutFiles)));
    expect(thirds.warnings).toContain(backupMsg.ruleFileNotRestored('precos', backupMsg.fileMissing));
    expect((await third.rules()).map((r) => r.trigger)).toEqual(['onde', 'ana']);
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMsg } from '../../../contract/backup';
import { QUEUE_LIMIT } from '../../../contract/queues';
import { quickRepliesMsg } from '../../../contract/quick-replies';
import { apiCall, createTestApp, newCustomerWithCalls, type TestContext } from '../../testing/test-app';

/**
 * A backup carries the team's queues (by name, without another account's numbers and people),
 * the bot rules' handoff to a queue (by the queue's name), and the quick replies with their files.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({}, undefined, { dispatcher: { autoStart: false } });
});
afterAll(() => ctx.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3000), Buffer.from('\n%%EOF\n')]);
const HOURS = { start: '08:00', end: '18:00', days: ['monday', 'tuesday', 'wednesday'] };

async function account() {
  const c = await newCustomerWithCalls(ctx, { planType: 'professional' });
  const download = async () => {
    const res = await apiCall(ctx, 'GET', '/api/backup', { cookie: c.cookie });
    expect(res.statusCode).toBe(200);
    return Buffer.from(res.body);
  };
  const restore = async (file: Buffer) =>
    apiCall(ctx, 'POST', '/api/backup/restore', { cookie: c.cookie, file: { name: 'backup.json', data: file } });
  const ok = async (file: Buffer) => {
    const res = await restore(file);
    expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
    return res.json();
  };
  const queues = async () => (await c.call('GET', '/api/queues')).json().queues as Array<Record<string, unknown>>;
  const quickReplies = async () =>
    (await c.call('GET', '/api/quick-replies')).json().quickReplies as Array<Record<string, unknown>>;
  const rules = async () =>
    (await c.call('GET', '/api/bot-config')).json().autoReplies as Array<Record<string, unknown>>;
  return { ...c, download, restore, ok, queues, quickReplies, rules };
}

async function madeQueue(me: Awaited<ReturnType<typeof account>>, body: Record<string, unknown>) {
  const res = await me.call('POST', '/api/queues', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().queue as { id: string };
}

describe('backup of the team’s queues and quick replies', () => {
  it('brings them back in another account: queues by name without people, rules pointing at them, replies with their file', async () => {
    const me = await account();
    const financeiro = await madeQueue(me, {
      name: 'Financeiro',
      memberIds: [me.user.id],
      hours: HOURS,
      outOfHoursMessage: 'Atendemos de segunda a quarta.',
      assignment: 'round_robin',
    });
    await madeQueue(me, { name: 'Vendas' });
    const saved = await me.call('POST', '/api/bot-config', {
      autoReplies: [
        { trigger: 'boleto', response: 'Já te passo ao financeiro.', queueId: financeiro.id },
        { trigger: 'oi', response: 'Olá!' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const up = await apiCall(ctx, 'POST', '/api/uploads', {
      cookie: me.cookie,
      file: { name: 'Tabela.pdf', data: PDF },
    });
    const fileId = /([0-9a-f-]{36})$/i.exec(up.json().url as string)?.[1] as string;
    for (const body of [
      { shortcut: 'tabela', text: 'Segue a tabela, {{nome}}.', mediaUrl: `upload:${fileId}` },
      { shortcut: 'pix', text: 'Nossa chave Pix é o CNPJ.' },
    ]) {
      const res = await me.call('POST', '/api/quick-replies', body);
      expect(res.statusCode, res.body).toBe(200);
    }

    const file = await me.download();
    const json = JSON.parse(file.toString());
    expect(json.queues).toMatchObject([
      {
        name: 'Financeiro',
        hours: HOURS,
        outOfHoursMessage: 'Atendemos de segunda a quarta.',
        assignment: 'round_robin',
      },
      { name: 'Vendas', hours: null, assignment: 'manual' },
    ]);
    // Nothing of the account's people or numbers goes in the file.
    expect(JSON.stringify(json.queues)).not.toContain(me.user.id);
    expect(json.bot.autoReplies.find((r: { trigger: string }) => r.trigger === 'boleto')).toMatchObject({
      queue: 'Financeiro',
    });
    expect(json.quickReplies).toMatchObject([
      { shortcut: 'pix', text: 'Nossa chave Pix é o CNPJ.' },
      { shortcut: 'tabela', mediaUrl: `upload:${fileId.toLowerCase()}` },
    ]);
    expect(json.media.map((m: { url: string }) => m.url)).toContain(`upload:${fileId.toLowerCase()}`);

    const other = await account();
    const result = await other.ok(file);
    expect(result.queues).toEqual({ added: 2, updated: 0, unchanged: 0, skipped: 0 });
    expect(result.quickReplies).toEqual({ added: 2, updated: 0, unchanged: 0, skipped: 0 });
    expect(result.message).toContain('2 filas adicionadas');
    expect(result.message).toContain('2 respostas rápidas adicionadas');
    expect(result.message).toContain(backupMsg.queuesNeedPeople);
    expect(result.warnings).toEqual([]);

    const theirQueues = await other.queues();
    expect(theirQueues).toMatchObject([
      { name: 'Financeiro', memberIds: [], connectionIds: [], hours: HOURS, assignment: 'round_robin' },
      { name: 'Vendas', memberIds: [], connectionIds: [] },
    ]);
    const theirFinanceiro = theirQueues[0].id;
    expect(theirFinanceiro).not.toBe(financeiro.id);
    const rules = await other.rules();
    expect(rules.find((r) => r.trigger === 'boleto')?.queueId).toBe(theirFinanceiro);
    expect(rules.find((r) => r.trigger === 'oi')?.queueId ?? null).toBeNull();

    const replies = await other.quickReplies();
    const tabela = replies.find((r) => r.shortcut === 'tabela') as { mediaUrl: string; media: { fileName: string } };
    expect(tabela.mediaUrl).toMatch(/^upload:[0-9a-f-]{36}$/);
    expect(tabela.mediaUrl).not.toBe(`upload:${fileId.toLowerCase()}`);
    expect(tabela.media.fileName).toBe('Tabela.pdf');
    const back = await other.call('GET', `/api/uploads/${tabela.mediaUrl.slice('upload:'.length)}`);
    expect(back.rawPayload.equals(PDF)).toBe(true);

    // Restoring again changes nothing; the account's own queue of a name keeps its own settings.
    const again = await other.ok(file);
    expect(again.queues).toEqual({ added: 0, updated: 0, unchanged: 2, skipped: 0 });
    expect(again.quickReplies).toEqual({ added: 0, updated: 0, unchanged: 2, skipped: 0 });
    expect(await other.queues()).toHaveLength(2);
  });

  it('a reply whose file the backup does not carry comes back with its text, and says so', async () => {
    const me = await account();
    const up = await apiCall(ctx, 'POST', '/api/uploads', { cookie: me.cookie, file: { name: 'Menu.pdf', data: PDF } });
    const fileId = /([0-9a-f-]{36})$/i.exec(up.json().url as string)?.[1] as string;
    await me.call('POST', '/api/quick-replies', {
      shortcut: 'menu',
      text: 'Nosso cardápio.',
      mediaUrl: `upload:${fileId}`,
    });
    const json = JSON.parse((await me.download()).toString());
    json.media = [];
    const other = await account();
    const result = await other.ok(Buffer.from(JSON.stringify(json)));
    expect(result.warnings).toContain(backupMsg.quickReplyFileNotRestored('menu', backupMsg.fileMissing));
    expect(await other.quickReplies()).toMatchObject([{ shortcut: 'menu', text: 'Nosso cardápio.', mediaUrl: null }]);
  });

  it('refuses a queue named twice, a shortcut twice and a reply’s link, naming where; counts queues over the limit', async () => {
    const me = await account();
    const base = JSON.parse((await me.download()).toString());
    const refused = async (patch: Record<string, unknown>) => {
      const res = await me.restore(Buffer.from(JSON.stringify({ ...base, ...patch })));
      expect(res.statusCode).toBe(400);
      return res.json().message as string;
    };
    expect(await refused({ queues: [{ name: 'Suporte' }, { name: 'suporte' }] })).toContain(backupMsg.duplicateQueue);
    expect(
      await refused({
        quickReplies: [
          { shortcut: '/oi', text: 'a' },
          { shortcut: 'OI', text: 'b' },
        ],
      }),
    ).toContain(backupMsg.duplicateShortcut);
    expect(
      await refused({ quickReplies: [{ shortcut: 'x', text: 'a', mediaUrl: 'http://169.254.169.254/latest' }] }),
    ).toContain(quickRepliesMsg.mediaInvalid);
    expect(await me.queues()).toEqual([]);

    const many = Array.from({ length: QUEUE_LIMIT + 3 }, (_, i) => ({ name: `Fila ${i + 1}` }));
    const result = await me.ok(Buffer.from(JSON.stringify({ ...base, queues: many })));
    expect(result.queues).toMatchObject({ added: QUEUE_LIMIT, skipped: 3 });
    expect(result.message).toContain(backupMsg.queuesOverLimit(3));
    expect(await me.queues()).toHaveLength(QUEUE_LIMIT);
  });
});

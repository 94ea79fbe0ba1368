import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botMsg } from '../../../contract/bot';
import { mediaMsg } from '../../../contract/media';
import { type ApiAnswer, apiFetch, listen } from '../../testing/raw-http';
import { connectSimulator, createTestApp, newCustomer, type TestContext } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

// One rule at a time (the manager's add, edit, pause and delete), over a listening server as the
// browser calls it: each write is kept at once and the bot follows it at once.

let ctx: TestContext;
let base: string;

beforeAll(async () => {
  ctx = await createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
    dispatcher: { autoStart: false },
  });
  base = `http://127.0.0.1:${await listen(ctx)}`;
});
afterAll(() => ctx.close());

let seq = 0;
/** A fresh number the simulator accepts (it refuses numbers ending in 0). */
const newNumber = () => `55219${String(6000000 + ++seq * 7).padStart(7, '0')}1`;

async function account() {
  const { user, cookie } = await newCustomer(ctx);
  const call = (method: string, path: string, body?: unknown) => apiFetch(base, cookie, method, path, body);
  const rules = async () => (await call('GET', '/api/bot-config')).body.autoReplies as Array<Record<string, unknown>>;
  return { user, cookie, call, rules };
}

/** A 4xx with a Portuguese message, never an English one. */
function expectRefused(res: ApiAnswer, status: number, message?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.success).toBe(false);
  if (message) expect(res.body.message).toBe(message);
  expect(res.body.message).not.toMatch(/\b(expected|received|invalid input|required)\b/i);
}

const rule = (trigger: string, response: string) => ({
  trigger,
  response,
  type: 'text',
  buttons: [],
  imageUrl: '',
  isActive: true,
});

describe('one auto reply at a time', () => {
  it('adds a rule in one call, after the others, and the bot answers it at once', async () => {
    const { user, cookie, call, rules } = await account();
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    expect((await call('POST', '/api/bot-config', { autoReplies: [{ keyword: 'oi', response: 'Olá!' }] })).status).toBe(
      200,
    );

    const added = await call('POST', '/api/bot-config/auto-replies', {
      trigger: 'entrega',
      response: 'Entregamos em 2 dias.',
      type: 'interactive',
      buttons: [{ id: 'btn-1', text: 'Rastrear', type: 'url', value: 'https://exemplo.com.br/rastreio' }],
      imageUrl: '',
      isActive: true,
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({
      success: true,
      message: 'Mensagem adicionada com sucesso.',
      rule: { trigger: 'entrega', keyword: 'entrega', type: 'interactive', isActive: true },
    });
    expect(added.body.config.autoReplies.map((r: { trigger: string }) => r.trigger)).toEqual(['oi', 'entrega']);
    expect((await rules()).map((r) => r.id)).toEqual([expect.any(String), added.body.rule.id]);

    const from = newNumber();
    const before = driver.outbox.length;
    driver.injectInbound(from, 'Qual o prazo de ENTREGA?');
    await ctx.app.deps.chatbot.idle();
    const sent = driver.outbox.slice(before).filter((m) => m.to === from);
    expect(JSON.stringify(sent.map((m) => m.message))).toContain('Entregamos em 2 dias.');
  });

  it('edits a rule in its place, and a pause silences it until it is activated again', async () => {
    const { user, cookie, call, rules } = await account();
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    await call('POST', '/api/bot-config', {
      autoReplies: [
        { keyword: 'pix', response: 'Aceitamos Pix.' },
        { keyword: 'horário', response: 'Das 9h às 18h.' },
      ],
    });
    const [pix, hours] = await rules();

    const edited = await call('PUT', `/api/bot-config/auto-replies/${pix.id}`, rule('pagamento', 'Pix ou cartão.'));
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.message).toBe(botMsg.ruleUpdated);
    expect(edited.body.rule).toMatchObject({ id: pix.id, trigger: 'pagamento', response: 'Pix ou cartão.' });
    expect((await rules()).map((r) => [r.id, r.trigger])).toEqual([
      [pix.id, 'pagamento'],
      [hours.id, 'horário'],
    ]);
    // Its own keyword, written again, is no repeat.
    const same = await call(
      'PUT',
      `/api/bot-config/auto-replies/${pix.id}`,
      rule('Pagamento', 'Pix, cartão ou boleto.'),
    );
    expect(same.status, same.text).toBe(200);

    const ask = async (text: string) => {
      const from = newNumber();
      const before = driver.outbox.length;
      driver.injectInbound(from, text);
      await ctx.app.deps.chatbot.idle();
      return JSON.stringify(driver.outbox.slice(before).filter((m) => m.to === from));
    };
    expect(await ask('pagamento')).toContain('Pix, cartão ou boleto.');

    const paused = await call('PUT', `/api/bot-config/auto-replies/${pix.id}`, {
      ...rule('Pagamento', 'Pix, cartão ou boleto.'),
      isActive: false,
    });
    expect(paused.body).toMatchObject({ message: botMsg.rulePaused, rule: { isActive: false } });
    expect(await ask('pagamento')).not.toContain('Pix, cartão ou boleto.');

    const activated = await call(
      'PUT',
      `/api/bot-config/auto-replies/${pix.id}`,
      rule('Pagamento', 'Pix, cartão ou boleto.'),
    );
    expect(activated.body).toMatchObject({ message: botMsg.ruleActivated, rule: { isActive: true } });
    expect(await ask('pagamento')).toContain('Pix, cartão ou boleto.');
  });

  it('deletes a rule in one call; the same id again is not found', async () => {
    const { call, rules } = await account();
    await call('POST', '/api/bot-config', {
      autoReplies: [
        { keyword: 'a', response: 'A' },
        { keyword: 'b', response: 'B' },
      ],
    });
    const [first, second] = await rules();
    const removed = await call('DELETE', `/api/bot-config/auto-replies/${first.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ success: true, message: 'Mensagem removida com sucesso.' });
    expect(removed.body.config.autoReplies.map((r: { id: string }) => r.id)).toEqual([second.id]);
    expectRefused(await call('DELETE', `/api/bot-config/auto-replies/${first.id}`), 404, botMsg.ruleNotFound);
  });

  it('refuses a repeated keyword, a bad rule and a bad id in Portuguese, and keeps what was stored', async () => {
    const { call, rules } = await account();
    await call('POST', '/api/bot-config', { autoReplies: [{ keyword: 'preço', response: 'Tabela' }] });
    const stored = await rules();
    const post = (body: unknown) => call('POST', '/api/bot-config/auto-replies', body);

    expectRefused(await post(rule('PRECO', 'Outra tabela')), 400, botMsg.keywordDuplicate('PRECO'));
    expectRefused(await post(rule('', 'Sem palavra')), 400, botMsg.keywordRequired);
    expectRefused(await post(rule('nova', '   ')), 400, botMsg.responseRequired);
    expectRefused(await post({ ...rule('foto', 'Veja'), type: 'image', imageUrl: '' }), 400, botMsg.imageUrlRequired);
    expectRefused(
      await post({ ...rule('foto', 'Veja'), type: 'image', imageUrl: 'http://127.0.0.1/foto.png' }),
      400,
      mediaMsg.imageUrlNotPublic,
    );
    expectRefused(
      await post({
        ...rule('menu', 'Escolha'),
        buttons: [{ id: 'b1', text: 'Site', type: 'url', value: 'https://exemplo.com.br' }],
      }),
      400,
      botMsg.buttonsOnlyInteractive,
    );
    expectRefused(await post([]), 400);
    expectRefused(
      await call('PUT', '/api/bot-config/auto-replies/nao-e-um-id', rule('x', 'y')),
      400,
      botMsg.ruleIdInvalid,
    );
    expectRefused(await call('DELETE', '/api/bot-config/auto-replies/123'), 400, botMsg.ruleIdInvalid);
    expectRefused(
      await call('PUT', '/api/bot-config/auto-replies/00000000-0000-4000-8000-000000000000', rule('x', 'y')),
      404,
      botMsg.ruleNotFound,
    );
    expect(await rules()).toEqual(stored);
  });

  it('takes two adds of the same keyword at once in turn: one is kept, the other refused', async () => {
    const { call, rules } = await account();
    const answers = await Promise.all(
      ['Entrega grátis.', 'Entrega paga.', 'Entrega amanhã.'].map((text) =>
        call('POST', '/api/bot-config/auto-replies', rule('frete', text)),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(refused.body.message).toBe(botMsg.keywordDuplicate('frete'));
    }
    expect((await rules()).map((r) => r.trigger)).toEqual(['frete']);
  });

  it("answers another account's rule id as not found, and leaves both accounts' rules as they were", async () => {
    const a = await account();
    const b = await account();
    await a.call('POST', '/api/bot-config', { autoReplies: [{ keyword: 'segredo', response: 'de A' }] });
    await b.call('POST', '/api/bot-config', { autoReplies: [{ keyword: 'outro', response: 'de B' }] });
    const [aRule] = await a.rules();
    const aBefore = await a.rules();
    const bBefore = await b.rules();

    expectRefused(
      await b.call('PUT', `/api/bot-config/auto-replies/${aRule.id}`, rule('segredo', 'de B')),
      404,
      botMsg.ruleNotFound,
    );
    expectRefused(
      await b.call('PUT', `/api/bot-config/auto-replies/${String(aRule.id).toUpperCase()}`, rule('tomado', 'de B')),
      404,
      botMsg.ruleNotFound,
    );
    expectRefused(await b.call('DELETE', `/api/bot-config/auto-replies/${aRule.id}`), 404, botMsg.ruleNotFound);
    expect(await a.rules()).toEqual(aBefore);
    expect(await b.rules()).toEqual(bBefore);

    // A keyword only another account uses is no repeat.
    const own = await b.call('POST', '/api/bot-config/auto-replies', rule('segredo', 'de B'));
    expect(own.status, own.text).toBe(200);
    expect(own.body.config.autoReplies.map((r: { trigger: string }) => r.trigger)).toEqual(['outro', 'segredo']);
    expect(await a.rules()).toEqual(aBefore);
  });

  it('is closed to an account that is not approved, and to no session', async () => {
    const { cookie } = await newCustomer(ctx, { accountType: 'pending', isActive: false });
    const pending = await apiFetch(base, cookie, 'POST', '/api/bot-config/auto-replies', rule('oi', 'Olá'));
    expect(pending.status).toBe(403);
    const anonymous = await apiFetch(base, '', 'POST', '/api/bot-config/auto-replies', rule('oi', 'Olá'));
    expect(anonymous.status).toBe(401);
  });
});

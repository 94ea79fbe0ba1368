import { describe, expect, it } from 'vitest';
import { type AutoReply, type BotConfig, botMsg } from '../../../contract/bot';
import {
  aiUnavailableText,
  botConfigBodyFromForm,
  botConfigFormDirty,
  checkBotConfigForm,
  emptyReplyRow,
  formFromConfig,
  mergeReplyRows,
  type ReplyRow,
  toggleDay,
} from './bot-config-form';

const interactive: AutoReply = {
  id: 'r1',
  keyword: 'oi',
  trigger: 'oi',
  response: 'Olá! Como podemos ajudar?',
  type: 'interactive',
  buttons: [{ id: 'btn-1', text: 'Site', type: 'url', value: 'https://exemplo.com.br' }],
  imageUrl: '',
  isActive: false,
};
const image: AutoReply = {
  id: 'r2',
  keyword: 'cardapio',
  trigger: 'cardapio',
  response: 'Nosso cardápio',
  type: 'image',
  buttons: [],
  imageUrl: 'https://exemplo.com.br/cardapio.png',
  isActive: true,
};

const config: BotConfig = {
  isEnabled: true,
  welcomeMessage: 'Bem-vindo!',
  autoReplies: [interactive, image],
  aiEnabled: false,
  aiModel: 'gpt-3.5-turbo',
  businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday'] },
  outOfHoursMessage: '',
  aiInstructions: '',
  handoffMinutes: 120,
  aiAvailable: false,
};

const row = (patch: Partial<ReplyRow>): ReplyRow => ({ ...emptyReplyRow(), ...patch });

describe('mergeReplyRows', () => {
  it("keeps the manager's type, buttons, image and active flag of rules that still exist", () => {
    const form = formFromConfig(config);
    const rows = form.replies.map((r) => (r.id === 'r1' ? { ...r, keyword: 'olá', response: 'Oi de novo' } : r));
    const { replies } = mergeReplyRows(rows, config.autoReplies);
    expect(replies).toEqual([
      {
        id: 'r1',
        trigger: 'olá',
        response: 'Oi de novo',
        type: 'interactive',
        buttons: interactive.buttons,
        imageUrl: '',
        isActive: false,
      },
      {
        id: 'r2',
        trigger: 'cardapio',
        response: 'Nosso cardápio',
        type: 'image',
        buttons: [],
        imageUrl: image.imageUrl,
        isActive: true,
      },
    ]);
  });

  it('adds new rows as active text rules, drops blank rows and removed rules', () => {
    const rows = [
      row({ id: 'r2', keyword: 'cardapio', response: 'Cardápio' }),
      row({ keyword: ' preço ', response: 'R$ 10' }),
      row({ keyword: '  ', response: '' }),
    ];
    const { replies, keys } = mergeReplyRows(rows, config.autoReplies);
    expect(replies.map((r) => r.trigger)).toEqual(['cardapio', ' preço ']);
    expect(replies[1]).toEqual({
      trigger: ' preço ',
      response: 'R$ 10',
      type: 'text',
      buttons: [],
      imageUrl: '',
      isActive: true,
    });
    expect(keys).toEqual([rows[0].key, rows[1].key]);
  });

  it('treats a row whose rule is gone on the server as new', () => {
    const { replies } = mergeReplyRows([row({ id: 'gone', keyword: 'x', response: 'y' })], config.autoReplies);
    expect(replies[0]).toMatchObject({ type: 'text', isActive: true });
    expect(replies[0]).not.toHaveProperty('id');
  });
});

describe('botConfigBodyFromForm', () => {
  it('sends the whole config, the model defaulted and the handoff as a number', () => {
    const form = { ...formFromConfig(config), aiModel: '  ', handoffMinutes: '30' };
    const { body } = botConfigBodyFromForm(form, config);
    expect(body).toMatchObject({
      isEnabled: true,
      welcomeMessage: 'Bem-vindo!',
      aiEnabled: false,
      aiModel: 'gpt-3.5-turbo',
      businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday'] },
      outOfHoursMessage: '',
      aiInstructions: '',
      handoffMinutes: 30,
    });
    expect(body).not.toHaveProperty('aiAvailable');
    expect(botConfigBodyFromForm({ ...form, handoffMinutes: '' }, config).body).not.toHaveProperty('handoffMinutes');
  });
});

describe('checkBotConfigForm', () => {
  it('accepts the stored config as it is', () => {
    expect(checkBotConfigForm(formFromConfig(config), config).toast).toBeNull();
  });

  it('puts the contract messages on the row and field they concern', () => {
    const half = row({ keyword: 'preço', response: '' });
    const form = { ...formFromConfig(config), replies: [half], businessStart: '18:00', businessEnd: '09:00' };
    const check = checkBotConfigForm(form, config);
    expect(check.toast).toBe(botMsg.responseRequired);
    expect(check.rowErrors).toEqual({ [half.key]: botMsg.responseRequired });
    expect(check.fieldErrors.businessHours).toBe(botMsg.businessOrder);
  });

  it('refuses a repeated keyword and an out-of-range handoff', () => {
    const a = row({ keyword: 'Preço', response: '1' });
    const b = row({ keyword: 'preco', response: '2' });
    const check = checkBotConfigForm({ ...formFromConfig(config), replies: [a, b], handoffMinutes: '2' }, config);
    expect(check.rowErrors).toEqual({ [b.key]: botMsg.keywordDuplicate('preco') });
    expect(check.fieldErrors.handoffMinutes).toBe(botMsg.handoffRange);
  });
});

describe('aiEnabled', () => {
  it('is sent, except to keep AI on where the server can no longer run it', () => {
    const on = { ...config, aiEnabled: true };
    expect(botConfigBodyFromForm(formFromConfig(config), config).body.aiEnabled).toBe(false);
    expect(botConfigBodyFromForm(formFromConfig(on), { ...on, aiAvailable: true }).body.aiEnabled).toBe(true);
    expect(botConfigBodyFromForm(formFromConfig(on), on).body).not.toHaveProperty('aiEnabled');
    expect(botConfigBodyFromForm({ ...formFromConfig(on), aiEnabled: false }, on).body.aiEnabled).toBe(false);
  });
});

describe('toggleDay', () => {
  it('switches a day and keeps week order', () => {
    expect(toggleDay(['friday', 'monday'], 'wednesday')).toEqual(['monday', 'wednesday', 'friday']);
    expect(toggleDay(['monday', 'wednesday'], 'monday')).toEqual(['wednesday']);
  });
});

describe('aiUnavailableText', () => {
  it('sends customers to support without naming a setting, and names it for administrators', () => {
    for (const accountType of ['active', 'demo', 'pending', 'regular'] as const) {
      const text = aiUnavailableText({ accountType, isActive: true });
      expect(text, accountType).toContain('fale com o suporte');
      expect(text, accountType).not.toMatch(/OPENAI|API_KEY/i);
    }
    expect(aiUnavailableText({ accountType: 'active', isActive: false })).not.toMatch(/OPENAI/i);
    expect(aiUnavailableText({ accountType: 'admin', isActive: true })).toContain('OPENAI_API_KEY');
  });
});

describe('botConfigFormDirty', () => {
  it('is clean as loaded, and after a blank row or a field typed back', () => {
    const form = formFromConfig(config);
    expect(botConfigFormDirty(form, config)).toBe(false);
    expect(botConfigFormDirty({ ...form, replies: [...form.replies, emptyReplyRow()] }, config)).toBe(false);
    expect(botConfigFormDirty({ ...form, welcomeMessage: `${config.welcomeMessage}` }, config)).toBe(false);
    // An emptied minutes field keeps the stored value.
    expect(botConfigFormDirty({ ...form, handoffMinutes: '' }, config)).toBe(false);
  });

  it('is dirty after any edit that saving would store', () => {
    const form = formFromConfig(config);
    expect(botConfigFormDirty({ ...form, isEnabled: !form.isEnabled }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, welcomeMessage: 'Oi!' }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, replies: form.replies.slice(1) }, config)).toBe(true);
    const row = { ...emptyReplyRow(), keyword: 'preço', response: 'R$ 10' };
    expect(botConfigFormDirty({ ...form, replies: [...form.replies, row] }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, businessDays: toggleDay(form.businessDays, 'sunday') }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, outOfHoursMessage: 'Fechados.' }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, handoffMinutes: '30' }, config)).toBe(true);
  });
});

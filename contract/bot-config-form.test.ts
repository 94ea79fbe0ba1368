import { describe, expect, it } from 'vitest';
import {
  BOT_AI_INSTRUCTIONS_MAX,
  BOT_CAPTION_MAX,
  BOT_REPLIES_MAX,
  BOT_TEXT_MAX,
  BOT_TRIGGER_MAX,
  botMsg,
} from './bot';
import {
  exampleBotConfig as config,
  exampleImageReply as image,
  exampleInteractiveReply as interactive,
} from './bot-config-examples';
import {
  type BotConfigFormDraft,
  type BotReplyRowDraft,
  botConfigBodyFromForm,
  botConfigForm,
  botConfigFormFromConfig,
  emptyBotReplyRow,
  mergeReplyRows,
} from './bot-config-form';
import { INVALID_CHARACTERS } from './text';

const row = (patch: Partial<BotReplyRowDraft>): BotReplyRowDraft => ({ ...emptyBotReplyRow(), ...patch });
const loaded = () => botConfigFormFromConfig(config);

/** The form's messages by path (one per path), as react-hook-form's zodResolver places them. */
const messages = (form: BotConfigFormDraft) => {
  const result = botConfigForm(config).safeParse(form);
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
};

describe('botConfigFormFromConfig', () => {
  it('opens on the stored config, rows tied to their rules and the model defaulted', () => {
    expect(botConfigFormFromConfig({ ...config, aiModel: '' })).toEqual({
      isEnabled: true,
      welcomeMessage: 'Bem-vindo!',
      replies: [
        { ruleId: 'r1', keyword: 'oi', response: 'Olá! Como podemos ajudar?' },
        { ruleId: 'r2', keyword: 'cardapio', response: 'Nosso cardápio' },
      ],
      aiEnabled: false,
      aiModel: 'gpt-3.5-turbo',
      businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday'] },
      outOfHoursMessage: '',
      aiInstructions: '',
      handoffMinutes: '120',
    });
  });
});

describe('mergeReplyRows', () => {
  it("keeps the manager's type, buttons, image and active flag of rules that still exist", () => {
    const rows = loaded().replies.map((r) =>
      r.ruleId === 'r1' ? { ...r, keyword: 'olá', response: 'Oi de novo' } : r,
    );
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

  it('keeps what the rows do not show: a document rule’s file and the queue a rule hands over to', () => {
    const stored = {
      ...image,
      id: 'r9',
      trigger: 'boleto',
      keyword: 'boleto',
      type: 'document' as const,
      imageUrl: '',
      buttons: [],
      mediaUrl: 'upload:00000000-0000-4000-8000-000000000001',
      queueId: '00000000-0000-4000-8000-000000000002',
    };
    const { replies } = mergeReplyRows([row({ ruleId: 'r9', keyword: 'boleto', response: 'Segue' })], [stored]);
    expect(replies[0]).toMatchObject({ mediaUrl: stored.mediaUrl, queueId: stored.queueId, type: 'document' });
  });

  it('adds new rows as active text rules, drops blank rows and removed rules', () => {
    const rows = [
      row({ keyword: '  ', response: '' }),
      row({ ruleId: 'r2', keyword: 'cardapio', response: 'Cardápio' }),
      row({ keyword: ' preço ', response: 'R$ 10' }),
    ];
    const merged = mergeReplyRows(rows, config.autoReplies);
    expect(merged.replies.map((r) => r.trigger)).toEqual(['cardapio', ' preço ']);
    expect(merged.replies[1]).toEqual({
      trigger: ' preço ',
      response: 'R$ 10',
      type: 'text',
      buttons: [],
      imageUrl: '',
      isActive: true,
    });
    expect(merged.rows).toEqual([1, 2]);
  });

  it('treats a row whose rule is gone on the server as new', () => {
    const { replies } = mergeReplyRows([row({ ruleId: 'gone', keyword: 'x', response: 'y' })], config.autoReplies);
    expect(replies[0]).toMatchObject({ type: 'text', isActive: true });
    expect(replies[0]).not.toHaveProperty('id');
  });
});

describe('botConfigBodyFromForm', () => {
  it('sends the whole config, the model defaulted and the handoff as a number', () => {
    const form = { ...loaded(), aiModel: '  ', handoffMinutes: '30' };
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

  it('sends aiEnabled, except to keep AI on where the server can no longer run it', () => {
    const on = { ...config, aiEnabled: true };
    expect(botConfigBodyFromForm(loaded(), config).body.aiEnabled).toBe(false);
    expect(botConfigBodyFromForm(botConfigFormFromConfig(on), { ...on, aiAvailable: true }).body.aiEnabled).toBe(true);
    expect(botConfigBodyFromForm(botConfigFormFromConfig(on), on).body).not.toHaveProperty('aiEnabled');
    expect(botConfigBodyFromForm({ ...botConfigFormFromConfig(on), aiEnabled: false }, on).body.aiEnabled).toBe(false);
  });
});

describe('botConfigForm', () => {
  it('accepts the stored config and gives the body to save', () => {
    const form = { ...loaded(), welcomeMessage: 'Oi!', replies: [...loaded().replies, emptyBotReplyRow()] };
    const result = botConfigForm(config).safeParse(form);
    expect(result.success).toBe(true);
    expect(result.data).toEqual(botConfigBodyFromForm(form, config).body);
  });

  it("puts a rule's message on its row, counting the blank rows that are not sent", () => {
    const form = {
      ...loaded(),
      replies: [
        row({ keyword: 'preço', response: 'R$ 10' }),
        emptyBotReplyRow(),
        row({ keyword: 'entrega', response: ' ' }),
        row({ keyword: '', response: 'Sem palavra-chave' }),
      ],
    };
    expect(messages(form)).toEqual({
      'replies.2': botMsg.responseRequired,
      'replies.3': botMsg.keywordRequired,
      root: botMsg.responseRequired,
    });
  });

  it('refuses a repeated keyword on the later row, accents and case aside', () => {
    const form = {
      ...loaded(),
      replies: [row({ keyword: 'Preço', response: '1' }), row({ keyword: 'preco', response: '2' })],
    };
    expect(messages(form)).toEqual({
      'replies.1': botMsg.keywordDuplicate('preco'),
      root: botMsg.keywordDuplicate('preco'),
    });
  });

  it('checks the length of keywords and responses, and of the caption of a stored image rule', () => {
    const long = (n: number) => 'x'.repeat(n + 1);
    const form = {
      ...loaded(),
      replies: [
        { ...loaded().replies[0], response: long(BOT_TEXT_MAX) },
        { ...loaded().replies[1], response: long(BOT_CAPTION_MAX) },
        row({ keyword: long(BOT_TRIGGER_MAX), response: 'ok' }),
        row({ keyword: 'legenda', response: long(BOT_CAPTION_MAX) }),
      ],
    };
    expect(messages(form)).toEqual({
      'replies.0': botMsg.responseTooLong,
      'replies.1': botMsg.captionTooLong,
      'replies.2': botMsg.keywordTooLong,
      root: botMsg.responseTooLong,
    });
  });

  it('shows one message per row, the first', () => {
    const form = { ...loaded(), replies: [row({ keyword: 'x'.repeat(BOT_TRIGGER_MAX + 1), response: ' ' })] };
    expect(messages(form)['replies.0']).toBe(botMsg.keywordTooLong);
  });

  it('refuses more rules than the limit, in the toast only', () => {
    const replies = Array.from({ length: BOT_REPLIES_MAX + 1 }, (_, i) => row({ keyword: `k${i}`, response: 'r' }));
    expect(messages({ ...loaded(), replies })).toEqual({ root: botMsg.tooManyReplies });
  });

  it('puts every business-hours message under the hours, the order and the time format', () => {
    const hours = (start: string, end: string) => ({
      ...loaded(),
      businessHours: { ...loaded().businessHours, start, end },
    });
    expect(messages(hours('18:00', '09:00'))).toEqual({
      businessHours: botMsg.businessOrder,
      root: botMsg.businessOrder,
    });
    expect(messages(hours('', '18:00'))).toEqual({ businessHours: botMsg.timeFormat, root: botMsg.timeFormat });
    expect(messages(hours('09:00', '25:00'))).toEqual({ businessHours: botMsg.timeFormat, root: botMsg.timeFormat });
  });

  it('checks the handoff minutes: 5 minutes to 7 days, whole minutes; empty keeps the stored value', () => {
    for (const handoffMinutes of ['2', '10081', '7.5']) {
      expect(messages({ ...loaded(), handoffMinutes }), handoffMinutes).toEqual({
        handoffMinutes: botMsg.handoffRange,
        root: botMsg.handoffRange,
      });
    }
    expect(messages({ ...loaded(), handoffMinutes: '' })).toEqual({});
    expect(messages({ ...loaded(), handoffMinutes: '5' })).toEqual({});
  });

  it('checks the AI model name; an empty one is the default', () => {
    expect(messages({ ...loaded(), aiModel: 'gpt 4o' })).toEqual({
      aiModel: botMsg.modelInvalid,
      root: botMsg.modelInvalid,
    });
    expect(messages({ ...loaded(), aiModel: ' ' })).toEqual({});
  });

  it('checks the length and characters of the texts, each under its field', () => {
    const cases: [Partial<BotConfigFormDraft>, string, string][] = [
      [{ welcomeMessage: 'x'.repeat(BOT_TEXT_MAX + 1) }, 'welcomeMessage', botMsg.welcomeTooLong],
      [{ welcomeMessage: 'Oi\u0000' }, 'welcomeMessage', INVALID_CHARACTERS],
      [{ outOfHoursMessage: 'x'.repeat(BOT_TEXT_MAX + 1) }, 'outOfHoursMessage', botMsg.outOfHoursTooLong],
      [{ aiInstructions: 'x'.repeat(BOT_AI_INSTRUCTIONS_MAX + 1) }, 'aiInstructions', botMsg.instructionsTooLong],
    ];
    for (const [patch, field, message] of cases) {
      expect(messages({ ...loaded(), ...patch }), field).toEqual({ [field]: message, root: message });
    }
  });

  it('tells the first problem of all in the toast', () => {
    const form = {
      ...loaded(),
      welcomeMessage: 'x'.repeat(BOT_TEXT_MAX + 1),
      replies: [row({ keyword: 'preço', response: '' })],
      handoffMinutes: '1',
    };
    expect(messages(form)).toEqual({
      welcomeMessage: botMsg.welcomeTooLong,
      'replies.0': botMsg.responseRequired,
      handoffMinutes: botMsg.handoffRange,
      root: botMsg.welcomeTooLong,
    });
  });
});

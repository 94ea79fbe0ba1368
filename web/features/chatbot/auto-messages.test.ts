import { describe, expect, it } from 'vitest';
import { type AutoReply, type BotConfig, botMsg, sampleAutoReplies } from '../../../contract/bot';
import {
  buttonActionLabel,
  checkNewButton,
  checkNewMessage,
  emptyNewMessage,
  type ManagedReply,
  managedFromConfig,
  managerPayload,
  moreRepliesText,
  removeReply,
  sameReplies,
  sampleRepliesToAdd,
  toggleReplyActive,
} from './auto-messages';

const stored: AutoReply = {
  id: 'r1',
  keyword: 'oi',
  trigger: 'oi',
  response: 'Olá!',
  type: 'interactive',
  buttons: [{ id: 'btn-1', text: 'Suporte', type: 'quick_reply', value: 'suporte' }],
  imageUrl: '',
  isActive: true,
};

const config: BotConfig = {
  isEnabled: false,
  welcomeMessage: 'Bem-vindo!',
  autoReplies: [stored],
  aiEnabled: true,
  aiModel: 'gpt-4o-mini',
  businessHours: { start: '08:00', end: '17:00', days: ['monday'] },
  outOfHoursMessage: 'Voltamos amanhã.',
  aiInstructions: 'Loja de roupas',
  handoffMinutes: 60,
  aiAvailable: true,
};

describe('managerPayload', () => {
  it('sends the current config with the local rules in the manager shape', () => {
    const local = managedFromConfig(config.autoReplies);
    const created = checkNewMessage(
      { ...emptyNewMessage, trigger: 'menu', type: 'image', response: 'Cardápio', imageUrl: 'https://x.com/a.png' },
      local,
    );
    if (!created.ok) throw new Error(created.error);
    const list = toggleReplyActive([...local, created.reply], local[0].key);
    expect(managerPayload(config, list)).toEqual({
      isEnabled: false,
      welcomeMessage: 'Bem-vindo!',
      aiEnabled: true,
      aiModel: 'gpt-4o-mini',
      businessHours: { start: '08:00', end: '17:00', days: ['monday'] },
      outOfHoursMessage: 'Voltamos amanhã.',
      aiInstructions: 'Loja de roupas',
      handoffMinutes: 60,
      autoReplies: [
        {
          id: 'r1',
          trigger: 'oi',
          response: 'Olá!',
          type: 'interactive',
          buttons: stored.buttons,
          imageUrl: '',
          isActive: false,
        },
        {
          trigger: 'menu',
          response: 'Cardápio',
          type: 'image',
          buttons: [],
          imageUrl: 'https://x.com/a.png',
          isActive: true,
        },
      ],
    });
  });

  it('drops buttons of a text rule and the image of a non-image rule', () => {
    const rule: ManagedReply = {
      ...managedFromConfig([stored])[0],
      type: 'text',
      imageUrl: 'https://x.com/a.png',
    };
    expect(managerPayload(config, [rule]).autoReplies?.[0]).toMatchObject({ buttons: [], imageUrl: '' });
  });

  it('leaves aiEnabled out when AI is on but no longer available on the server', () => {
    const payload = managerPayload({ ...config, aiAvailable: false }, []);
    expect(payload).not.toHaveProperty('aiEnabled');
    expect(payload.autoReplies).toEqual([]);
  });
});

describe('sameReplies', () => {
  it('notices a pause, a removal and an undo', () => {
    const local = managedFromConfig(config.autoReplies);
    const paused = toggleReplyActive(local, local[0].key);
    expect(sameReplies(local, managedFromConfig(config.autoReplies))).toBe(true);
    expect(sameReplies(local, paused)).toBe(false);
    expect(sameReplies(local, toggleReplyActive(paused, local[0].key))).toBe(true);
    expect(sameReplies(local, removeReply(local, local[0].key))).toBe(false);
  });
});

describe('checkNewMessage', () => {
  const list = managedFromConfig(config.autoReplies);

  it('asks for keyword and content first (SPEC §5)', () => {
    expect(checkNewMessage({ ...emptyNewMessage, trigger: 'menu' }, list)).toEqual({
      ok: false,
      error: botMsg.autoMessageRequired,
    });
    expect(checkNewMessage({ ...emptyNewMessage, response: 'Oi', trigger: ' ' }, list)).toEqual({
      ok: false,
      error: botMsg.autoMessageRequired,
    });
  });

  it('applies the contract rules: image link, repeated keyword', () => {
    const base = { ...emptyNewMessage, trigger: 'menu', response: 'Veja' };
    expect(checkNewMessage({ ...base, type: 'image' }, list)).toEqual({ ok: false, error: botMsg.imageUrlRequired });
    expect(checkNewMessage({ ...base, type: 'image', imageUrl: 'ftp://x' }, list)).toEqual({
      ok: false,
      error: botMsg.imageUrlInvalid,
    });
    expect(checkNewMessage({ ...base, trigger: 'OI!' }, list)).toEqual({
      ok: false,
      error: botMsg.keywordDuplicate('OI!'),
    });
  });

  it('creates an active rule, trimmed, without an id', () => {
    const result = checkNewMessage({ ...emptyNewMessage, trigger: ' menu ', response: ' Veja ' }, list);
    expect(result).toMatchObject({
      ok: true,
      reply: { id: null, trigger: 'menu', response: 'Veja', type: 'text', buttons: [], isActive: true },
    });
  });
});

describe('checkNewButton', () => {
  it('asks for text and value first (SPEC §5)', () => {
    expect(checkNewButton({ text: 'Site', type: 'url', value: ' ' }, [])).toEqual({
      ok: false,
      error: botMsg.buttonRequired,
    });
  });

  it('checks links and phone numbers with the contract', () => {
    expect(checkNewButton({ text: 'Site', type: 'url', value: 'exemplo.com' }, [])).toEqual({
      ok: false,
      error: botMsg.buttonUrlInvalid,
    });
    expect(checkNewButton({ text: 'Ligar', type: 'phone', value: '1199' }, [])).toEqual({
      ok: false,
      error: botMsg.buttonPhoneInvalid,
    });
    expect(checkNewButton({ text: 'Ligar', type: 'phone', value: '(11) 98765-4321' }, [])).toMatchObject({ ok: true });
    expect(checkNewButton({ text: 'Um texto longo demais aqui', type: 'quick_reply', value: 'x' }, [])).toEqual({
      ok: false,
      error: botMsg.buttonTextTooLong,
    });
  });

  it('allows three buttons, with ids not already taken', () => {
    const two = [
      { id: 'btn-1', text: 'A', type: 'quick_reply' as const, value: 'a' },
      { id: 'btn-3', text: 'C', type: 'quick_reply' as const, value: 'c' },
    ];
    const third = checkNewButton({ text: 'B', type: 'url', value: 'https://b.com' }, two);
    expect(third).toEqual({ ok: true, button: { id: 'btn-4', text: 'B', type: 'url', value: 'https://b.com' } });
    if (!third.ok) return;
    expect(checkNewButton({ text: 'D', type: 'quick_reply', value: 'd' }, [...two, third.button])).toEqual({
      ok: false,
      error: botMsg.tooManyButtons,
    });
  });
});

describe('labels', () => {
  it('describes each button action', () => {
    expect(buttonActionLabel({ type: 'url', value: 'https://x.com' })).toBe('Link → https://x.com');
    expect(buttonActionLabel({ type: 'phone', value: '5511999999999' })).toBe('Telefone → 5511999999999');
    expect(buttonActionLabel({ type: 'quick_reply', value: 'produtos' })).toBe('Resposta rápida → produtos');
  });

  it("counts the rules beyond the page's first three", () => {
    expect(moreRepliesText(0)).toBeNull();
    expect(moreRepliesText(3)).toBeNull();
    expect(moreRepliesText(4)).toBe('+1 resposta adicional');
    expect(moreRepliesText(10)).toBe('+7 respostas adicionais');
  });
});

describe('sampleRepliesToAdd', () => {
  it('adds the three samples with the support number, skipping keywords in use', () => {
    const samples = sampleAutoReplies({ phone: '+55 (11) 4000-1234', email: 'loja@exemplo.com.br' });
    const all = sampleRepliesToAdd(samples, []);
    expect(all.map((r) => r.trigger)).toEqual(['oi', 'produtos', 'suporte']);
    expect(all.every((r) => r.id === null && r.isActive && r.buttons.length === 3)).toBe(true);
    expect(all[2].response).toContain('loja@exemplo.com.br');
    expect(all[2].buttons[0]).toMatchObject({ type: 'phone', value: '551140001234' });
    expect(sampleRepliesToAdd(samples, managedFromConfig([stored])).map((r) => r.trigger)).toEqual([
      'produtos',
      'suporte',
    ]);
  });
});

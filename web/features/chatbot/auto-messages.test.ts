import { describe, expect, it } from 'vitest';
import { type AutoReply, autoReplyForm, type BotConfig, sampleAutoReplies } from '../../../contract/bot';
import {
  buttonActionLabel,
  emptyNewMessage,
  type ManagedReply,
  managedFromConfig,
  managerPayload,
  moreRepliesText,
  newManagedReply,
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
    const created = newManagedReply(
      autoReplyForm(local.map((r) => r.trigger)).parse({
        ...emptyNewMessage,
        trigger: 'menu',
        type: 'image',
        response: 'Cardápio',
        imageUrl: 'https://x.com/a.png',
      }),
    );
    const list = toggleReplyActive([...local, created], local[0].key);
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

describe('newManagedReply', () => {
  it('makes an accepted rule a new active rule without an id', () => {
    const rule = autoReplyForm([]).parse({ ...emptyNewMessage, trigger: ' menu ', response: ' Veja ' });
    expect(newManagedReply(rule)).toMatchObject({
      id: null,
      trigger: 'menu',
      response: 'Veja',
      type: 'text',
      buttons: [],
      isActive: true,
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

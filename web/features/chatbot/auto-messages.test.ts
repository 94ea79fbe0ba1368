import { describe, expect, it } from 'vitest';
import { type AutoReply, autoReplyForm, autoReplyRuleInput, type BotConfig, sampleAutoReplies } from '#contract/bot';
import {
  buttonActionLabel,
  draftFromReply,
  managerPayload,
  moreRepliesText,
  ruleInput,
  sampleRepliesToAdd,
  toggledRuleInput,
} from './auto-messages';

const stored: AutoReply = {
  id: 'r1',
  keyword: 'oi',
  trigger: 'oi',
  response: 'Olá!',
  type: 'interactive',
  buttons: [{ id: 'btn-1', text: 'Suporte', type: 'quick_reply', value: 'suporte' }],
  imageUrl: '',
  mediaUrl: '',
  location: null,
  contactCard: null,
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
  it('sends the current config with its rules (and their ids) and the samples after them', () => {
    const sample = {
      trigger: 'menu',
      response: 'Cardápio',
      type: 'image' as const,
      buttons: [],
      imageUrl: 'https://x.com/a.png',
      isActive: true,
    };
    expect(managerPayload(config, [sample])).toEqual({
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
          isActive: true,
        },
        sample,
      ],
    });
  });

  it('leaves aiEnabled out when AI is on but no longer available on the server', () => {
    const payload = managerPayload({ ...config, aiAvailable: false, autoReplies: [] }, []);
    expect(payload).not.toHaveProperty('aiEnabled');
    expect(payload.autoReplies).toEqual([]);
  });
});

describe('one rule at a time', () => {
  it('sends a stored rule as the rule routes take it, without buttons on text or an image off image rules', () => {
    expect(ruleInput(stored)).toEqual({
      trigger: 'oi',
      response: 'Olá!',
      type: 'interactive',
      buttons: stored.buttons,
      imageUrl: '',
      isActive: true,
    });
    expect(autoReplyRuleInput.safeParse(ruleInput(stored)).success).toBe(true);
    expect(ruleInput({ ...stored, type: 'text', imageUrl: 'https://x.com/a.png' })).toMatchObject({
      buttons: [],
      imageUrl: '',
    });
  });

  it('pauses and activates a rule, changing nothing else', () => {
    expect(toggledRuleInput(stored)).toEqual({ ...ruleInput(stored), isActive: false });
    expect(toggledRuleInput({ ...stored, isActive: false })).toEqual(ruleInput(stored));
  });

  it('opens the edit form with the rule as stored, which the form accepts back unchanged', () => {
    const draft = draftFromReply(stored);
    expect(draft).toEqual({
      trigger: 'oi',
      type: 'interactive',
      response: 'Olá!',
      imageUrl: '',
      buttons: stored.buttons,
    });
    // Its own keyword is no repeat when the others' are checked.
    expect(autoReplyForm([]).parse(draft)).toMatchObject({ trigger: 'oi', buttons: stored.buttons });
    expect(autoReplyForm(['OI']).safeParse(draft).success).toBe(false);
  });

  it('opens a rule that hands conversations to a queue with that queue chosen, and keeps it', () => {
    const queueId = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    const draft = draftFromReply({ ...stored, queueId });
    expect(draft.queueId).toBe(queueId);
    expect(autoReplyForm([]).parse(draft).queueId).toBe(queueId);
    expect(draftFromReply(stored)).not.toHaveProperty('queueId');
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
    expect(all.every((r) => r.isActive && r.buttons?.length === 3)).toBe(true);
    expect(all[2].response).toContain('loja@exemplo.com.br');
    expect(all[2].buttons?.[0]).toMatchObject({ type: 'phone', value: '551140001234' });
    expect(sampleRepliesToAdd(samples, [{ trigger: 'Oi' }]).map((r) => r.trigger)).toEqual(['produtos', 'suporte']);
  });
});

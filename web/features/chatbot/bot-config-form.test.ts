import { describe, expect, it } from 'vitest';
import { exampleBotConfig as config } from '#contract/bot-config-examples';
import { botConfigFormFromConfig, emptyBotReplyRow } from '#contract/bot-config-form';
import { aiUnavailableText, botConfigFormDirty, sendsAiEnabled, toggleDay } from './bot-config-form';

describe('sendsAiEnabled', () => {
  it('is what the automatic messages manager decides with: keep AI on only where the server runs it', () => {
    expect(sendsAiEnabled(true, { aiEnabled: true, aiAvailable: false })).toBe(false);
    expect(sendsAiEnabled(true, { aiEnabled: true, aiAvailable: true })).toBe(true);
    expect(sendsAiEnabled(false, { aiEnabled: true, aiAvailable: false })).toBe(true);
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
    const form = botConfigFormFromConfig(config);
    expect(botConfigFormDirty(form, config)).toBe(false);
    expect(botConfigFormDirty({ ...form, replies: [...form.replies, emptyBotReplyRow()] }, config)).toBe(false);
    expect(botConfigFormDirty({ ...form, welcomeMessage: `${config.welcomeMessage}` }, config)).toBe(false);
    // An emptied minutes field keeps the stored value.
    expect(botConfigFormDirty({ ...form, handoffMinutes: '' }, config)).toBe(false);
  });

  it('is dirty after any edit that saving would store', () => {
    const form = botConfigFormFromConfig(config);
    expect(botConfigFormDirty({ ...form, isEnabled: !form.isEnabled }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, welcomeMessage: 'Oi!' }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, replies: form.replies.slice(1) }, config)).toBe(true);
    const row = { ...emptyBotReplyRow(), keyword: 'preço', response: 'R$ 10' };
    expect(botConfigFormDirty({ ...form, replies: [...form.replies, row] }, config)).toBe(true);
    expect(
      botConfigFormDirty(
        { ...form, businessHours: { ...form.businessHours, days: toggleDay(form.businessHours.days, 'sunday') } },
        config,
      ),
    ).toBe(true);
    expect(botConfigFormDirty({ ...form, outOfHoursMessage: 'Fechados.' }, config)).toBe(true);
    expect(botConfigFormDirty({ ...form, handoffMinutes: '30' }, config)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { finishPhrase, type StartConfirmInput, startConfirmText } from './start-confirm';

// Local times: the phrases read the browser's clock.
const now = new Date(2025, 0, 15, 10, 0);
const later = (ms: number) => new Date(now.getTime() + ms);

const input: StartConfirmInput = {
  recipients: 57,
  phoneNumber: '5511987650000',
  channel: 'personal',
  forecast: { finishAt: later(142_500), waitsForDailyLimit: false, waitsForBusinessHours: false },
  dailyLimit: 1000,
  businessStart: '09:00',
  businessEnd: '18:00',
  now,
};

describe('finishPhrase', () => {
  it('minutes, hours today, tomorrow, a later day', () => {
    expect(finishPhrase(later(20_000), now)).toBe('término previsto em menos de 1 min');
    expect(finishPhrase(later(142_500), now)).toBe('término previsto em ~3 min');
    expect(finishPhrase(later(59 * 60_000), now)).toBe('término previsto em ~59 min');
    expect(finishPhrase(later(2 * 3_600_000), now)).toBe('término previsto em ~2 h (hoje às 12:00)');
    expect(finishPhrase(later(2 * 3_600_000 + 10 * 60_000), now)).toBe(
      'término previsto em ~2 h 10 min (hoje às 12:10)',
    );
    expect(finishPhrase(new Date(2025, 0, 16, 9, 40), now)).toBe('término previsto amanhã às 09:40');
    expect(finishPhrase(new Date(2025, 0, 20, 9, 3), now)).toBe('término previsto em 20/01/2025 09:03');
    expect(finishPhrase(null, now)).toMatch(/^sem previsão de término/);
  });
});

describe('startConfirmText', () => {
  it('how many, through which number, and when it should end', () => {
    expect(startConfirmText(input)).toEqual({
      summary: '57 destinatários pelo número +55 11 98765-0000, término previsto em ~3 min',
      notes: [],
    });
    expect(startConfirmText({ ...input, recipients: 1 }).summary).toMatch(/^1 destinatário pelo número/);
    expect(startConfirmText({ ...input, recipients: 12_345 }).summary).toMatch(/^12\.345 destinatários /);
  });

  it('names the channel when the number is not known', () => {
    expect(startConfirmText({ ...input, phoneNumber: null }).summary).toMatch(/^57 destinatários pelo número pessoal,/);
    expect(startConfirmText({ ...input, phoneNumber: null, channel: 'cloud' }).summary).toMatch(
      /pela API oficial do WhatsApp Business,/,
    );
  });

  it('names the chosen numbers and what they may still send today', () => {
    const two = startConfirmText({
      ...input,
      numbers: ['Vendas (+55 11 98765-0000)', 'Suporte (+55 21 99876-0001)'],
      capacityToday: 1400,
    });
    expect(two.summary).toBe(
      '57 destinatários pelos números Vendas (+55 11 98765-0000) e Suporte (+55 21 99876-0001), término previsto em ~3 min',
    );
    expect(two.notes).toEqual(['Capacidade hoje dos números escolhidos: 1.400 mensagens.']);
    expect(startConfirmText({ ...input, numbers: ['Vendas'], capacityToday: 1 }).summary).toMatch(
      /^57 destinatários pelo número Vendas,/,
    );
  });

  it('says why it takes longer: business hours, the daily limit', () => {
    const { notes } = startConfirmText({
      ...input,
      forecast: { finishAt: new Date(2025, 0, 17, 9, 3), waitsForBusinessHours: true, waitsForDailyLimit: true },
    });
    expect(notes).toEqual([
      'Os envios acontecem só no horário comercial (09:00 às 18:00).',
      'O limite diário de 1.000 mensagens divide o envio em mais de um dia.',
    ]);
  });
});

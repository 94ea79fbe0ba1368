import { describe, expect, it } from 'vitest';
import type { DailyFigures, HourFigures, WeekdayFigures } from '#contract/metrics';
import {
  botPerDaySummary,
  hasAny,
  messagesPerDaySummary,
  peakDay,
  readRateByHourSummary,
  readRateByWeekdaySummary,
  totals,
} from './chart-summaries';
import { hourRangeLabel, periodRangeLabel, shortDay, weekdayName } from './time-labels';

const day = (d: string, f: Partial<DailyFigures> = {}): DailyFigures => ({
  day: d,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  botReplies: 0,
  conversations: 0,
  inbound: 0,
  answered: 0,
  ...f,
});

const hours = (over: Record<number, Partial<HourFigures>>): HourFigures[] =>
  Array.from({ length: 24 }, (_, hour) => ({ hour, sent: 0, delivered: 0, read: 0, readRate: 0, ...over[hour] }));

describe('chart summaries (the aria-label of each chart)', () => {
  const days = [
    day('2026-03-01', { sent: 2, delivered: 2, read: 1, botReplies: 1, conversations: 1 }),
    day('2026-03-02', { sent: 1234, delivered: 1200, read: 900, conversations: 3 }),
    day('2026-03-03'),
  ];

  it('add up the period and find its peak', () => {
    expect(totals(days)).toMatchObject({ sent: 1236, delivered: 1202, read: 901, botReplies: 1, conversations: 4 });
    expect(peakDay(days, 'sent')?.day).toBe('2026-03-02');
    expect(peakDay([day('2026-03-01')], 'sent')).toBeNull();
    expect(hasAny(days, ['botReplies'])).toBe(true);
    expect(hasAny([day('2026-03-01', { inbound: 3 })], ['sent', 'botReplies'])).toBe(false);
  });

  it('say the totals and the busiest day with agreeing nouns', () => {
    expect(messagesPerDaySummary(days)).toBe(
      'Mensagens por dia: 1.236 enviadas, 1.202 entregues e 901 lidas no período. O dia com mais envios foi 02/03/2026, com 1.234 mensagens.',
    );
    expect(messagesPerDaySummary([day('2026-03-01', { sent: 1, delivered: 1, read: 1 })])).toBe(
      'Mensagens por dia: 1 enviada, 1 entregue e 1 lida no período. O dia com mais envios foi 01/03/2026, com 1 mensagem.',
    );
    expect(messagesPerDaySummary([day('2026-03-01')])).toBe('Mensagens por dia: nenhuma mensagem enviada no período.');
    expect(botPerDaySummary(days)).toBe(
      'Respostas do bot e conversas por dia: 1 resposta do bot e 4 conversas no período. O dia com mais conversas foi 02/03/2026, com 3 conversas.',
    );
  });

  it('name the best hour and weekday only with enough delivered messages', () => {
    expect(readRateByHourSummary(hours({}))).toBe(
      'Taxa de leitura por hora de envio, no horário de São Paulo: nenhuma mensagem entregue no período.',
    );
    expect(readRateByHourSummary(hours({ 9: { sent: 5, delivered: 5, read: 5, readRate: 100 } }))).toBe(
      'Taxa de leitura por hora de envio, no horário de São Paulo: 5 mensagens entregues no período, ainda poucas para indicar o melhor horário.',
    );
    const many = hours({
      9: { sent: 40, delivered: 40, read: 20, readRate: 50 },
      14: { sent: 30, delivered: 30, read: 27, readRate: 90 },
      20: { sent: 5, delivered: 5, read: 5, readRate: 100 },
    });
    expect(readRateByHourSummary(many)).toBe(
      'Taxa de leitura por hora de envio, no horário de São Paulo: o melhor horário foi 14h às 15h, com 90% de leitura em 30 mensagens entregues.',
    );
    const weekdays: WeekdayFigures[] = Array.from({ length: 7 }, (_, weekday) => ({
      weekday,
      sent: 25,
      delivered: 25,
      read: weekday === 1 ? 20 : 5,
      readRate: weekday === 1 ? 80 : 20,
    }));
    expect(readRateByWeekdaySummary(weekdays)).toBe(
      'Taxa de leitura por dia da semana de envio: o melhor dia foi segunda-feira, com 80% de leitura em 25 mensagens entregues.',
    );
  });

  it('label hours, weekdays and days in pt-BR', () => {
    expect(hourRangeLabel(23)).toBe('23h às 0h');
    expect(weekdayName(0)).toBe('domingo');
    expect(weekdayName(6)).toBe('sábado');
    expect(shortDay('2026-03-05')).toBe('05/03');
    expect(periodRangeLabel({ from: '2026-03-01', to: '2026-03-30' })).toBe('01/03/2026 a 30/03/2026');
    expect(periodRangeLabel({ from: '2026-03-01', to: '2026-03-01' })).toBe('01/03/2026');
  });
});

import { describe, expect, it } from 'vitest';
import type { CampaignPerformance, Report } from '../../../contract/metrics';
import { pdfText } from '../../testing/pdf-text';
import { renderReportPdf } from './report-pdf';

const campaign = (name: string, sent: number, delivered: number, read: number): CampaignPerformance => ({
  id: name,
  name,
  status: 'completed',
  createdAt: '2026-11-20T12:00:00.000Z',
  sent,
  delivered,
  read,
  failed: 0,
  deliveryRate: Math.round((delivered / sent) * 1000) / 10,
  openRate: Math.round((read / delivered) * 1000) / 10,
});

function report(): Report {
  const days = ['2026-11-20', '2026-11-21', '2026-11-22'].map((day, i) => ({
    day,
    sent: 400 * (i + 1),
    delivered: 380 * (i + 1),
    read: 200 * (i + 1),
    botReplies: 10 + i,
    conversations: 5,
    inbound: 20,
    answered: 18,
  }));
  const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, sent: 0, delivered: 0, read: 0, readRate: 0 }));
  const weekdays = Array.from({ length: 7 }, (_, weekday) => ({
    weekday,
    sent: 0,
    delivered: 0,
    read: 0,
    readRate: 0,
  }));
  const metrics = {
    messagesSent: 2400,
    activeContacts: 15_320,
    activeGroups: 12,
    openRate: 52.6,
    autoReplies: 33,
    activeChats: 7,
    responseRate: 90,
    delivered: 2280,
    read: 1200,
    deliveryRate: 95,
    inboundMessages: 60,
    answeredMessages: 54,
    trends: {
      messagesSent: null,
      activeContacts: null,
      activeGroups: null,
      openRate: null,
      deliveryRate: null,
      autoReplies: null,
      responseRate: null,
    },
    monthlyGrowth: null,
    period: { from: '2026-11-20', to: '2026-11-22' },
  };
  return {
    period: { from: '2026-11-20', to: '2026-11-22' },
    metrics,
    recentCampaigns: [campaign('Promoção de Natal 🎄', 1000, 950, 600), campaign('Black Friday', 1400, 1330, 600)],
    topCampaigns: [campaign('Promoção de Natal 🎄', 1000, 950, 600)],
    summary: {
      campaigns: 2,
      completedCampaigns: 2,
      contacts: 16_000,
      activeContacts: 15_320,
      groups: 14,
      activeGroups: 12,
      autoReplyRules: 3,
      botEnabled: true,
    },
    analysis: {
      messagesSent: 2400,
      delivered: 2280,
      read: 1200,
      failed: 20,
      deliveryRate: 95,
      openRate: 52.6,
      responseRate: 90,
      failureRate: 0.8,
      averageSentPerDay: 800,
      botReplies: 33,
      conversations: 15,
      bestHour: { hour: 10, readRate: 61.2, delivered: 500 },
      bestWeekday: { weekday: 2, readRate: 58, delivered: 900 },
      busiestDay: { day: '2026-11-22', sent: 1200 },
    },
    series: { days, byHour: hours, byWeekday: weekdays },
  };
}

describe('report PDF', () => {
  it('holds the period, the figures in pt-BR, the campaigns and the analysis', async () => {
    const pdf = await renderReportPdf(report(), {
      productName: 'Disparo',
      accountName: 'Padaria São João',
      generatedAt: new Date('2026-11-23T13:05:00Z'),
    });
    const { pages, text } = pdfText(pdf);
    expect(pages).toBeGreaterThanOrEqual(1);
    // Kerning splits words into pieces inside a line; the line's text is whole once joined.
    for (const expected of [
      'Relatório — Disparo',
      'Padaria São João',
      'Período: 20/11/2026 a 22/11/2026',
      'gerado em 23/11/2026 10:05',
      'Mensagens enviadas',
      '2,4K',
      '95%',
      '52,6%',
      '15,3K',
      'Promoção de Natal',
      'Black Friday',
      '1.330',
      'Melhor horário para enviar: 10h (taxa de leitura 61,2%).',
      'Melhor dia da semana: terça-feira',
      '22/11/2026 (1.200)',
      'Enviadas: 2.400',
      'Respostas do bot: 33',
    ]) {
      expect(text).toContain(expected);
    }
    // Characters the standard fonts cannot draw are left out, not printed as garbage.
    expect(text).not.toContain('🎄');
    expect(text).toMatch(/página 1 de \d/);
  });
});

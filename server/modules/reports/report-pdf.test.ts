import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../../contract/format';
import {
  addDays,
  type CampaignPerformance,
  type DailyFigures,
  deliveryRate,
  eachDay,
  openRate,
  type Report,
} from '../../../contract/metrics';
import { pdfText } from '../../testing/pdf-text';
import { renderReportPdf } from './report-pdf';

const campaign = (name: string, sent: number, delivered: number, read: number, failed = 0): CampaignPerformance => ({
  id: name,
  name,
  status: 'completed',
  createdAt: '2026-11-20T12:00:00.000Z',
  sent,
  delivered,
  read,
  failed,
  deliveryRate: deliveryRate({ sent, delivered, failed }),
  openRate: openRate({ delivered, read }),
});

const META = { productName: 'Disparo', accountName: 'Padaria São João', generatedAt: new Date('2026-11-23T13:05:00Z') };

function report(
  days: DailyFigures[] = ['2026-11-20', '2026-11-21', '2026-11-22'].map((day, i) => ({
    day,
    sent: 400 * (i + 1),
    delivered: 380 * (i + 1),
    read: 200 * (i + 1),
    failed: 0,
    botReplies: 10 + i,
    conversations: 5,
    inbound: 20,
    answered: 18,
  })),
): Report {
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
    failed: 0,
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
    period: { from: days[0].day, to: days[days.length - 1].day },
  };
  return {
    period: { from: days[0].day, to: days[days.length - 1].day },
    metrics,
    recentCampaigns: [campaign('Promoção de Natal 🎄', 1000, 950, 600), campaign('Black Friday', 1400, 1330, 600, 20)],
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
    const pdf = await renderReportPdf(report(), META);
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
      // Each campaign's failures, and its delivery rate over sent or failed: 1.330 ÷ 1.420.
      'Falhas',
      '93,7%',
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

/** One piece of text drawn on a page: where (PDF points from the bottom left), at what size, what. */
interface TextRun {
  page: number;
  x: number;
  y: number;
  size: number;
  text: string;
}

/** The text runs of a PDF made by PDFKit (`1 0 0 1 x y Tm`, `/F size Tf`, `[…] TJ`), page by page. */
function textRuns(pdf: Buffer): TextRun[] {
  const raw = pdf.toString('latin1');
  const runs: TextRun[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  let page = 0;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes(' Tm')) continue;
    page++;
    const ops = /1 0 0 1 ([-\d.]+) ([-\d.]+) Tm\s*\/F\d+ ([\d.]+) Tf\s*\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const hex = [...op[4].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      runs.push({
        page,
        x: Number(op[1]),
        y: Number(op[2]),
        size: Number(op[3]),
        text: Buffer.from(hex, 'hex').toString('latin1'),
      });
    }
  }
  return runs;
}

/** Widths as PDFKit measures them: Helvetica (the charts' axis font) at a size. */
const measurer = new PDFDocument();
const widthOf = (text: string, size: number) => measurer.font('Helvetica').fontSize(size).widthOfString(text);

/** A report over `n` days up to 30/11/2026: many messages, and at most 5 bot replies a day. */
function longReport(n: number): Report {
  const to = '2026-11-30';
  const days = eachDay(addDays(to, -(n - 1)), to).map((day, i) => ({
    day,
    sent: (i * 37) % 1234,
    delivered: (i * 37) % 1200,
    read: (i * 17) % 900,
    failed: i % 3,
    botReplies: i % 6,
    conversations: 2,
    inbound: 3,
    answered: 2,
  }));
  return report(days);
}

describe('report PDF charts', () => {
  const AXIS = 7;
  const left = 48;

  for (const n of [7, 30, 90]) {
    it(`labels the days of a ${n}-day period without two labels touching, the last day included`, async () => {
      const runs = textRuns(await renderReportPdf(longReport(n), META));
      const labels = runs.filter((r) => r.size === AXIS && /^\d\d\/\d\d$/.test(r.text));
      const rows = new Map<string, TextRun[]>();
      for (const r of labels) rows.set(`${r.page}:${r.y}`, [...(rows.get(`${r.page}:${r.y}`) ?? []), r]);
      // Two charts, each with its row of days.
      expect(rows.size).toBe(2);
      for (const row of rows.values()) {
        row.sort((a, b) => a.x - b.x);
        expect(row.at(-1)?.text).toBe('30/11');
        expect(row.length).toBeGreaterThanOrEqual(Math.min(n, 7));
        for (let i = 1; i < row.length; i++) {
          const gap = row[i].x - (row[i - 1].x + widthOf(row[i - 1].text, AXIS));
          expect(gap, `${row[i - 1].text} → ${row[i].text}`).toBeGreaterThanOrEqual(5);
        }
      }
      if (n <= 7) for (const row of rows.values()) expect(row).toHaveLength(n);
    });
  }

  it('counts in whole ticks that skip no value: 0 to 5 for at most 5 bot replies a day', async () => {
    const runs = textRuns(await renderReportPdf(longReport(30), META));
    // The vertical axis's labels end where the plot begins (right-aligned in 34 points from the margin).
    const ticks = runs.filter(
      (r) => r.size === AXIS && /^[\d.]+$/.test(r.text) && Math.abs(r.x + widthOf(r.text, AXIS) - (left + 34)) < 0.5,
    );
    const axes: string[][] = [];
    for (const t of ticks) {
      if (t.text === '0') axes.push([]);
      axes.at(-1)?.push(t.text);
    }
    const max = Math.max(...longReport(30).series.days.map((d) => d.sent));
    expect(max).toBeLessThanOrEqual(1250);
    expect(axes).toEqual([[0, 250, 500, 750, 1000, 1250].map(formatNumber), ['0', '1', '2', '3', '4', '5']]);
  });
});

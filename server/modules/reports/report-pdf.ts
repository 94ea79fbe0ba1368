import type PDFKitModule from 'pdfkit';
import { formatCount, formatDay, formatNumber, formatPercent } from '../../../contract/format';
import { type CampaignPerformance, deliveryTone, type Report } from '../../../contract/metrics';
import { saoPauloMinute } from '../../../contract/sao-paulo-time';
import { lazyModule } from '../../lib/lazy-module';
import { countTicks, labelledSlots } from './chart-axes';

type Doc = PDFKit.PDFDocument;
/** pdfkit (~7 MB resident) loads with the first report. */
const loadPdfKit = lazyModule<typeof PDFKitModule>('pdfkit');

const GREEN = '#128C7E';
const ACCENT = '#25D366';
const GREY = '#6b7280';
const LIGHT = '#e5e7eb';
const TEXT = '#111827';
/** SPEC §9's delivery-rate colours; a rate over nothing tried is plain text (`deliveryTone`). */
const TONE: Record<'green' | 'yellow' | 'red' | 'neutral', string> = {
  green: '#15803d',
  yellow: '#a16207',
  red: '#b91c1c',
  neutral: TEXT,
};
const SERIES = { sent: '#128C7E', delivered: '#25D366', read: '#2563eb', bot: '#7c3aed' };
const WEEKDAYS = ['domingo', 'segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira', 'sábado'];
const STATUS: Record<string, string> = {
  draft: 'Rascunho',
  scheduled: 'Agendada',
  sending: 'Enviando',
  in_progress: 'Em andamento',
  paused: 'Pausada',
  cancelled: 'Cancelada',
  completed: 'Concluída',
  failed: 'Falhou',
};

export interface ReportPdfMeta {
  productName: string;
  accountName: string;
  generatedAt: Date;
}

/**
 * Text the standard PDF fonts can draw (WinAnsi): anything else (emoji, other scripts) would come
 * out as garbage, so it is left out rather than printed wrong.
 */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
function printable(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(ch)) out += ch;
    else if (code === 0x0a || code === 0x09) out += ' ';
  }
  return out;
}

/**
 * The 'Relatórios' page as a PDF (A4, pt-BR): the period's figures, sends and bot replies per day
 * drawn as vector charts, the newest and the best campaigns, the account's summary and the detailed
 * analysis. Made on the server with PDFKit and the standard fonts: no browser, no font files.
 */
export function renderReportPdf(report: Report, meta: ReportPdfMeta): Promise<Buffer> {
  const PDFDocument = loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    margins: { top: 48, bottom: 48, left: 48, right: 48 },
    info: {
      Title: printable(`Relatório ${meta.productName} — ${meta.accountName}`),
      Author: printable(meta.productName),
      CreationDate: meta.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  header(doc, report, meta);
  metricsGrid(doc, report);
  section(doc, 'Mensagens por dia');
  dailyChart(
    doc,
    report.series.days.map((d) => d.day),
    [
      { label: 'Enviadas', color: SERIES.sent, values: report.series.days.map((d) => d.sent) },
      { label: 'Entregues', color: SERIES.delivered, values: report.series.days.map((d) => d.delivered) },
      { label: 'Lidas', color: SERIES.read, values: report.series.days.map((d) => d.read) },
    ],
  );
  section(doc, 'Respostas do bot por dia');
  dailyChart(
    doc,
    report.series.days.map((d) => d.day),
    [{ label: 'Respostas do bot', color: SERIES.bot, values: report.series.days.map((d) => d.botReplies) }],
    'bars',
  );
  section(doc, 'Desempenho das campanhas (5 mais recentes)');
  campaignTable(doc, report.recentCampaigns, 'Nenhuma campanha criada no período.');
  section(doc, 'Melhores campanhas');
  campaignTable(doc, report.topCampaigns, 'Nenhuma campanha com mensagens entregues no período.');
  section(doc, 'Resumo do sistema');
  summary(doc, report);
  section(doc, 'Análise detalhada');
  analysis(doc, report);
  footer(doc, meta);
  doc.end();
  return done;
}

const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const left = (doc: Doc) => doc.page.margins.left;

/** Starts a new page when less than `height` points are left on this one. */
function room(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function header(doc: Doc, report: Report, meta: ReportPdfMeta): void {
  doc.rect(0, 0, doc.page.width, 6).fill(ACCENT);
  doc
    .fillColor(GREEN)
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(printable(`Relatório — ${meta.productName}`), left(doc), 40);
  doc.moveDown(0.2);
  doc.fillColor(TEXT).font('Helvetica').fontSize(11).text(printable(meta.accountName));
  doc
    .fillColor(GREY)
    .fontSize(9)
    .text(
      `Período: ${formatDay(report.period.from)} a ${formatDay(report.period.to)} · gerado em ${saoPauloMinute(meta.generatedAt)} (horário de Brasília)`,
    );
  doc.moveDown(1);
}

function section(doc: Doc, title: string): void {
  room(doc, 60);
  doc.moveDown(0.6);
  doc.fillColor(GREEN).font('Helvetica-Bold').fontSize(13).text(title, left(doc));
  const y = doc.y + 2;
  doc
    .moveTo(left(doc), y)
    .lineTo(left(doc) + contentWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(LIGHT)
    .stroke();
  doc.y = y + 8;
}

function metricsGrid(doc: Doc, report: Report): void {
  const m = report.metrics;
  const tiles: Array<{ label: string; value: string; tone?: string }> = [
    { label: 'Mensagens enviadas', value: formatCount(m.messagesSent) },
    {
      label: 'Taxa de entrega',
      value: formatPercent(m.deliveryRate),
      tone: TONE[deliveryTone({ sent: m.messagesSent, delivered: m.delivered, failed: m.failed })],
    },
    { label: 'Taxa de abertura', value: formatPercent(m.openRate) },
    { label: 'Taxa de resposta', value: formatPercent(m.responseRate) },
    { label: 'Contatos ativos', value: formatCount(m.activeContacts) },
    { label: 'Grupos ativos', value: formatCount(m.activeGroups) },
    { label: 'Respostas automáticas', value: formatCount(m.autoReplies) },
    { label: 'Conversas ativas (24 h)', value: formatCount(m.activeChats) },
  ];
  const columns = 4;
  const gap = 8;
  const width = (contentWidth(doc) - gap * (columns - 1)) / columns;
  const height = 52;
  const top = doc.y;
  tiles.forEach((tile, i) => {
    const x = left(doc) + (i % columns) * (width + gap);
    const y = top + Math.floor(i / columns) * (height + gap);
    doc.roundedRect(x, y, width, height, 6).lineWidth(0.8).strokeColor(LIGHT).stroke();
    doc
      .fillColor(GREY)
      .font('Helvetica')
      .fontSize(8)
      .text(tile.label, x + 8, y + 8, { width: width - 16 });
    doc
      .fillColor(tile.tone ?? TEXT)
      .font('Helvetica-Bold')
      .fontSize(16)
      .text(tile.value, x + 8, y + 24, { width: width - 16 });
  });
  doc.x = left(doc);
  doc.y = top + 2 * height + gap + 6;
}

/** The chart's day labels: 'dd/mm'. */
const dayLabel = (day: string) => formatDay(day).slice(0, 5);
const AXIS_FONT_SIZE = 7;

/**
 * Lines (or bars) over the period's days, with axes, grid and legend, as vector paths. The vertical
 * axis counts in whole, evenly spaced ticks (`countTicks`); the days labelled are those whose labels,
 * measured in the axis font, fit apart from each other (`labelledSlots`).
 */
function dailyChart(
  doc: Doc,
  days: string[],
  series: Array<{ label: string; color: string; values: number[] }>,
  kind: 'lines' | 'bars' = 'lines',
): void {
  const height = 150;
  room(doc, height + 40);
  const x0 = left(doc) + 40;
  const width = contentWidth(doc) - 40;
  const y0 = doc.y;
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const ticks = countTicks(max);
  const top = ticks[ticks.length - 1];
  // Grid and the vertical axis's labels.
  doc.font('Helvetica').fontSize(AXIS_FONT_SIZE);
  for (const tick of ticks) {
    const y = y0 + height - (height * tick) / top;
    doc
      .moveTo(x0, y)
      .lineTo(x0 + width, y)
      .lineWidth(0.4)
      .strokeColor(LIGHT)
      .stroke();
    doc.fillColor(GREY).text(formatNumber(tick), left(doc), y - 4, { width: 34, align: 'right', lineBreak: false });
  }
  const n = Math.max(1, days.length);
  const step = width / n;
  const xOf = (i: number) => x0 + step * i + step / 2;
  const yOf = (v: number) => y0 + height - (height * v) / top;
  for (const s of series) {
    if (kind === 'bars') {
      const barWidth = Math.max(1, step * 0.7);
      s.values.forEach((v, i) => {
        if (v > 0) doc.rect(xOf(i) - barWidth / 2, yOf(v), barWidth, y0 + height - yOf(v)).fill(s.color);
      });
    } else if (s.values.length === 1) {
      doc.circle(xOf(0), yOf(s.values[0]), 2).fill(s.color);
    } else {
      s.values.forEach((v, i) => {
        if (i === 0) doc.moveTo(xOf(i), yOf(v));
        else doc.lineTo(xOf(i), yOf(v));
      });
      doc.lineWidth(1.4).strokeColor(s.color).stroke();
    }
  }
  // Day labels: as many as fit, measured in the font they are drawn in.
  doc.font('Helvetica').fillColor(GREY).fontSize(AXIS_FONT_SIZE);
  const labels = days.map(dayLabel);
  const labelWidth = Math.max(0, ...labels.map((l) => doc.widthOfString(l)));
  for (const i of labelledSlots(days.length, step, labelWidth)) {
    const w = doc.widthOfString(labels[i]);
    doc.text(labels[i], xOf(i) - w / 2, y0 + height + 4, { lineBreak: false });
  }
  // Legend.
  let lx = x0;
  const ly = y0 + height + 18;
  for (const s of series) {
    doc.rect(lx, ly + 1, 8, 8).fill(s.color);
    const total = s.values.reduce((a, b) => a + b, 0);
    const label = `${s.label}: ${formatNumber(total)}`;
    doc
      .fillColor(TEXT)
      .fontSize(8)
      .text(label, lx + 12, ly, { lineBreak: false });
    lx += 12 + doc.widthOfString(label) + 16;
  }
  doc.x = left(doc);
  doc.y = ly + 18;
}

function campaignTable(doc: Doc, rows: CampaignPerformance[], empty: string): void {
  if (!rows.length) {
    doc.fillColor(GREY).font('Helvetica').fontSize(9).text(empty, left(doc));
    return;
  }
  const columns = [
    { title: 'Campanha', width: 116, align: 'left' as const },
    { title: 'Status', width: 64, align: 'left' as const },
    { title: 'Criada em', width: 50, align: 'left' as const },
    { title: 'Enviadas', width: 46, align: 'right' as const },
    { title: 'Entregues', width: 50, align: 'right' as const },
    { title: 'Lidas', width: 38, align: 'right' as const },
    { title: 'Falhas', width: 38, align: 'right' as const },
    { title: 'Entrega', width: 48, align: 'right' as const },
    { title: 'Abertura', width: 49, align: 'right' as const },
  ];
  const line = (cells: Array<{ text: string; color?: string; bold?: boolean }>, y: number) => {
    let x = left(doc);
    cells.forEach((cell, i) => {
      const c = columns[i];
      doc
        .font(cell.bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(8)
        .fillColor(cell.color ?? TEXT)
        .text(cell.text, x, y, { width: c.width - 4, height: 10, align: c.align, lineBreak: false, ellipsis: true });
      x += c.width;
    });
  };
  room(doc, 18 * (rows.length + 1));
  let y = doc.y;
  line(
    columns.map((c) => ({ text: c.title, color: GREY, bold: true })),
    y,
  );
  y += 14;
  for (const r of rows) {
    doc
      .moveTo(left(doc), y - 3)
      .lineTo(left(doc) + contentWidth(doc), y - 3)
      .lineWidth(0.3)
      .strokeColor(LIGHT)
      .stroke();
    line(
      [
        { text: printable(r.name) },
        { text: STATUS[r.status] ?? r.status },
        { text: formatDay(r.createdAt.slice(0, 10)) },
        { text: formatNumber(r.sent) },
        { text: formatNumber(r.delivered) },
        { text: formatNumber(r.read) },
        { text: formatNumber(r.failed) },
        { text: formatPercent(r.deliveryRate), color: TONE[deliveryTone(r)] },
        { text: formatPercent(r.openRate) },
      ],
      y,
    );
    y += 16;
  }
  doc.x = left(doc);
  doc.y = y + 4;
}

function pairs(doc: Doc, items: Array<[string, string]>): void {
  const half = contentWidth(doc) / 2;
  room(doc, Math.ceil(items.length / 2) * 16 + 8);
  const top = doc.y;
  items.forEach(([label, value], i) => {
    const x = left(doc) + (i % 2) * half;
    const y = top + Math.floor(i / 2) * 16;
    doc
      .fillColor(GREY)
      .font('Helvetica')
      .fontSize(9)
      .text(label, x, y, { width: half - 90, lineBreak: false });
    doc
      .fillColor(TEXT)
      .font('Helvetica-Bold')
      .text(value, x + half - 90, y, { width: 80, align: 'right', lineBreak: false });
  });
  doc.x = left(doc);
  doc.y = top + Math.ceil(items.length / 2) * 16 + 4;
}

function summary(doc: Doc, report: Report): void {
  const s = report.summary;
  pairs(doc, [
    ['Campanhas no período', formatNumber(s.campaigns)],
    ['Campanhas concluídas', formatNumber(s.completedCampaigns)],
    ['Contatos cadastrados', formatNumber(s.contacts)],
    ['Contatos ativos', formatNumber(s.activeContacts)],
    ['Grupos cadastrados', formatNumber(s.groups)],
    ['Grupos ativos', formatNumber(s.activeGroups)],
    ['Regras de resposta automática', formatNumber(s.autoReplyRules)],
    ['Chatbot', s.botEnabled ? 'Ativo' : 'Inativo'],
  ]);
}

function analysis(doc: Doc, report: Report): void {
  const a = report.analysis;
  pairs(doc, [
    ['Mensagens enviadas', formatNumber(a.messagesSent)],
    ['Entregues', formatNumber(a.delivered)],
    ['Lidas', formatNumber(a.read)],
    ['Falhas', formatNumber(a.failed)],
    ['Taxa de entrega', formatPercent(a.deliveryRate)],
    ['Taxa de abertura', formatPercent(a.openRate)],
    ['Taxa de falha', formatPercent(a.failureRate)],
    ['Taxa de resposta', formatPercent(a.responseRate)],
    ['Média de envios por dia', a.averageSentPerDay.toLocaleString('pt-BR', { maximumFractionDigits: 1 })],
    ['Respostas do bot', formatNumber(a.botReplies)],
    ['Conversas', formatNumber(a.conversations)],
    ['Dia com mais envios', a.busiestDay ? `${formatDay(a.busiestDay.day)} (${formatNumber(a.busiestDay.sent)})` : '—'],
  ]);
  const hints: string[] = [];
  if (a.bestHour)
    hints.push(
      `Melhor horário para enviar: ${String(a.bestHour.hour).padStart(2, '0')}h (taxa de leitura ${formatPercent(a.bestHour.readRate)}).`,
    );
  if (a.bestWeekday)
    hints.push(
      `Melhor dia da semana: ${WEEKDAYS[a.bestWeekday.weekday]} (taxa de leitura ${formatPercent(a.bestWeekday.readRate)}).`,
    );
  if (!hints.length) hints.push('Ainda não há mensagens entregues suficientes para indicar o melhor horário de envio.');
  doc.moveDown(0.4);
  doc.fillColor(TEXT).font('Helvetica').fontSize(9);
  for (const hint of hints) doc.text(hint, left(doc), doc.y, { width: contentWidth(doc) });
}

function footer(doc: Doc, meta: ReportPdfMeta): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .fillColor(GREY)
      .font('Helvetica')
      .fontSize(7)
      .text(printable(`${meta.productName} · página ${i + 1} de ${range.count}`), left(doc), doc.page.height - 30, {
        width: contentWidth(doc),
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}

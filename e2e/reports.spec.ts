import AxeBuilder from '@axe-core/playwright';
import type { Download, Page } from '@playwright/test';
import { formatCount, formatDay, formatNumber, formatPercent } from '../contract/format';
import {
  type Analytics,
  addDays,
  type MetricsResponse,
  type Report,
  saoPauloDay,
  type TodayMetrics,
} from '../contract/metrics';
import { pdfText } from '../server/testing/pdf-text';
import { formatChange } from '../web/lib/metrics/trend';
import { expect, expectOk, postJson, putJson, shot, signInCustomer, sql, test } from './fixtures';

// Numbers ending in 0 have no WhatsApp in the simulator: that one's message fails.
const CONTACTS = [
  { name: 'Ana Relatório', phone: '(21) 99876-5431' },
  { name: 'Bruno Relatório', phone: '(11) 91234-5677' },
  { name: 'Caio Sem WhatsApp', phone: '(31) 98888-7770' },
];
const CAMPAIGN = 'Ofertas de Outono';

async function getJson<T>(page: Page, url: string): Promise<T> {
  return (await expectOk(page.request.get(url), url)).json() as Promise<T>;
}

/**
 * Contacts, a campaign sent through the simulator (2 read, 1 failed) and a message the bot answers;
 * one of the two messages is then dated 10 days back, so the trend badges have an earlier week to
 * compare with (what a week of real use would have left).
 */
async function seedAccount(page: Page) {
  for (const contact of CONTACTS) await expectOk(postJson(page.request, '/api/contacts', contact), contact.name);
  await expectOk(
    putJson(page.request, '/api/settings/whatsapp', {
      autoReconnect: true,
      messageDelay: 1,
      dailyLimit: 1000,
      respectBusinessHours: false,
      businessStart: '09:00',
      businessEnd: '18:00',
    }),
    'WhatsApp settings',
  );
  await expectOk(
    postJson(page.request, '/api/bot-config', { autoReplies: [{ keyword: 'horário', response: 'Abrimos às 9h.' }] }),
    'bot config',
  );
  await expectOk(postJson(page.request, '/api/whatsapp/connect', {}), 'WhatsApp connect');
  await expect
    .poll(async () => (await getJson<{ phoneNumber: string | null }>(page, '/api/whatsapp-session')).phoneNumber, {
      timeout: 15_000,
    })
    .toBeTruthy();
  const created = await (
    await expectOk(
      postJson(page.request, '/api/campaigns', { name: CAMPAIGN, message: 'Oi {{primeiro_nome}}!', targetType: 'all' }),
      'campaign',
    )
  ).json();
  const id: string = created.campaign?.id ?? created.id;
  await expectOk(postJson(page.request, `/api/campaigns/${id}/send`, {}), 'send');
  await expect
    .poll(
      async () => {
        const c = await getJson<{ status: string; progress?: { read: number } }>(page, `/api/campaigns/${id}`);
        return [c.status, c.progress?.read];
      },
      { timeout: 40_000 },
    )
    .toEqual(['completed', 2]);
  await expectOk(
    postJson(page.request, '/api/whatsapp/simulator/inbound', { from: '5521998765431', text: 'Qual o horário?' }),
    'inbound',
  );
  await expect
    .poll(async () => (await getJson<MetricsResponse>(page, '/api/metrics')).autoReplies, { timeout: 10_000 })
    .toBeGreaterThan(0);
  const moved = await sql(
    `update campaign_recipients set sent_at = sent_at - interval '10 days'
      where id = (select id from campaign_recipients where campaign_id = $1 and status = 'read' limit 1)`,
    [id],
  );
  expect(moved.rowCount).toBe(1);
}

async function downloadBytes(download: Download): Promise<Buffer> {
  return Buffer.concat(await (await download.createReadStream()).toArray());
}

async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()?.width ?? 0,
  );
}

async function expectNoSeriousAxeViolation(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test("the dashboard, the header, Analytics and Relatórios show the account's own figures", async ({ page }) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'relatorios', name: 'Rita Relatórios' });
  await seedAccount(page);
  const metrics = await getJson<MetricsResponse>(page, '/api/metrics');
  const todayFigures = await getJson<TodayMetrics>(page, '/api/metrics/today');
  expect(metrics.messagesSent).toBe(2);
  // One message this week, one the week before: a trend of 0 % (a badge), and no earlier month yet.
  expect(metrics.trends.messagesSent).toBe(0);
  expect(metrics.monthlyGrowth).toBeNull();
  expect(todayFigures.sentToday).toBe(1);

  // Overview: the four cards, their trend badges and the monthly growth come from /api/metrics.
  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Métricas' });
  for (const [key, format] of [
    ['messagesSent', formatCount],
    ['activeContacts', formatCount],
    ['activeGroups', formatCount],
    ['openRate', formatPercent],
  ] as const) {
    const card = cards.getByTestId(`metric-${key}`);
    await expect(card.getByTestId('metric-value')).toHaveText(format(metrics[key]));
    // Nothing earlier to compare with: no badge rather than a made-up one.
    const trend = metrics.trends[key];
    if (trend === null) await expect(card.getByTestId('metric-trend')).toHaveCount(0);
    else await expect(card.getByTestId('metric-trend')).toContainText(formatChange(trend));
  }
  await expect(page.getByTestId('metric-messagesSent').getByTestId('metric-trend')).toHaveText('0%estável');
  await expect(page.getByTestId('monthly-growth')).toContainText('Crescimento mensal');
  await expect(page.getByTestId('monthly-growth-value')).toHaveCount(metrics.monthlyGrowth === null ? 0 : 1);
  await expect(page.getByText(/\+12%|\+8%|\+15%|\+25%/)).toHaveCount(0);
  await expect(page.getByTestId('bot-auto-replies')).toContainText(formatCount(metrics.autoReplies));
  await expect(page.getByTestId('bot-response-rate')).toContainText(formatPercent(metrics.responseRate));

  // Header: today's figures from /api/metrics/today, not the old sample '1.247' and '98,2%'.
  const header = page.getByRole('banner');
  await expect(header.getByTestId('header-sent-today')).toHaveText(formatCount(todayFigures.sentToday));
  await expect(header.getByTestId('header-delivery-rate-today')).toHaveText(
    formatPercent(todayFigures.deliveryRateToday),
  );
  await expect(header).not.toContainText('1.247');
  await expect(header).not.toContainText('98,2%');

  // 'Gerar Relatório' downloads the last 30 days as a PDF.
  const quickPdf = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Gerar Relatório' }).click();
  const quickFile = await quickPdf;
  expect(quickFile.suggestedFilename()).toMatch(/^relatorio-.*\.pdf$/);
  expect((await downloadBytes(quickFile)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.screenshot(shot('reports-overview-1366'));

  // Analytics: charts drawn, each with a summary and a table holding the numbers.
  const today = saoPauloDay(new Date());
  const analytics = await getJson<Analytics>(page, `/api/metrics/analytics?from=${addDays(today, -29)}&to=${today}`);
  const todayRow = analytics.days.find((d) => d.day === today);
  expect(todayRow?.sent).toBe(1);
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/tab=analytics/);
  const messagesChart = page.getByTestId('chart-messages-per-day');
  await expect(messagesChart.getByRole('img', { name: /^Mensagens por dia/ })).toHaveAttribute(
    'aria-label',
    /^Mensagens por dia: 2 enviadas, 2 entregues e 2 lidas no período\./,
  );
  await expect(messagesChart.locator('svg.recharts-surface')).toBeVisible();
  await expect(page.locator('[data-testid^="chart-"] svg.recharts-surface')).toHaveCount(4);
  await expect(page.getByTestId('analytics-sent').getByTestId('stat-value')).toHaveText('2');
  const table = messagesChart.getByTestId('chart-table');
  await expect(table).toBeHidden();
  await messagesChart.getByRole('button', { name: 'Ver tabela' }).click();
  await expect(table).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(analytics.days.length + 1);
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: formatDay(today) }) });
  await expect(row.getByRole('cell')).toHaveText([
    formatNumber(todayRow?.sent ?? -1),
    formatNumber(todayRow?.delivered ?? -1),
    formatNumber(todayRow?.read ?? -1),
  ]);
  // The bot chart and the send-time charts hold the same numbers as the API.
  const botChart = page.getByTestId('chart-bot-per-day');
  await botChart.getByRole('button', { name: 'Ver tabela' }).click();
  const botRow = botChart.getByRole('row').filter({ has: page.getByRole('rowheader', { name: formatDay(today) }) });
  await expect(botRow.getByRole('cell')).toHaveText([
    formatNumber(todayRow?.botReplies ?? -1),
    formatNumber(todayRow?.conversations ?? -1),
  ]);
  const hourChart = page.getByTestId('chart-read-rate-by-hour');
  await hourChart.getByRole('button', { name: 'Ver tabela' }).click();
  await expect(hourChart.getByTestId('chart-table').getByRole('row')).toHaveCount(25);
  const sentHour = analytics.byHour.find((h) => h.sent > 0);
  expect(sentHour).toBeDefined();
  await expect(
    hourChart
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: `${sentHour?.hour}h às`, exact: false }) })
      .first(),
  ).toContainText(formatPercent(sentHour?.readRate ?? -1));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot(shot('reports-analytics-1366'));
  await expectNoSeriousAxeViolation(page);

  // The period selector asks again for the last 7 days.
  const weekRequest = page.waitForRequest((r) =>
    r.url().includes(`/api/metrics/analytics?from=${addDays(today, -6)}&to=${today}`),
  );
  await page.getByLabel('Período', { exact: true }).selectOption({ label: 'Últimos 7 dias' });
  await weekRequest;
  await expect(page).toHaveURL(/tab=analytics.*periodo=7|periodo=7.*tab=analytics/);
  await expect(page.getByTestId('analytics-period')).toContainText(formatDay(addDays(today, -6)));

  // Relatórios: the report of the last 30 days, as the API gives it.
  const report = await getJson<Report>(page, '/api/metrics/report');
  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: 'Relatório do período' })).toBeVisible();
  await expect(page.getByTestId('report-messagesSent').getByTestId('stat-value')).toHaveText(
    formatCount(report.metrics.messagesSent),
  );
  const deliveryRate = page.getByTestId('report-deliveryRate').getByTestId('stat-value');
  await expect(deliveryRate).toHaveText(formatPercent(report.metrics.deliveryRate));
  // 2 delivered of the 3 tried (2 sent, 1 failed): 66,7 %, red (SPEC §9; the rate is over sent or failed).
  expect(report.metrics.deliveryRate).toBe(66.7);
  await expect(deliveryRate).toHaveClass(/text-red-700/);
  await expect(page.getByTestId('report-campaign')).toHaveCount(report.recentCampaigns.length);
  await expect(page.getByTestId('report-campaign').first()).toContainText(CAMPAIGN);
  await expect(page.getByTestId('report-campaign').first()).toContainText(/ · (agora|\d+m atrás)/);
  await expect(page.getByTestId('report-top-campaign').first()).toContainText(CAMPAIGN);
  await expect(page.getByTestId('summary-contacts')).toHaveText(
    `${formatCount(report.summary.contacts)} (${report.summary.activeContacts} ativos)`,
  );
  await expect(page.getByTestId('analysis-failed')).toHaveText(formatCount(report.analysis.failed));
  await expect(page.getByTestId('report-period')).toContainText('Últimos 30 dias');
  await page.screenshot(shot('reports-page-1366'));
  await expectNoSeriousAxeViolation(page);

  // Período: a preset goes in the URL and the figures are asked again.
  const preset = page.waitForResponse((r) =>
    r.url().includes(`/api/metrics/report?from=${addDays(today, -6)}&to=${today}`),
  );
  await page.getByLabel('Período', { exact: true }).selectOption({ label: 'Últimos 7 dias' });
  expect((await preset).ok()).toBe(true);
  await expect(page).toHaveURL(/\/reports\?periodo=7$/);
  await expect(page.getByTestId('report-period')).toContainText('Últimos 7 dias');

  // A custom range: checked before it is applied, then kept in the URL.
  await page.getByLabel('Período', { exact: true }).selectOption({ label: 'Personalizado' });
  await page.getByLabel('Data inicial').fill(today);
  await page.getByLabel('Data final').fill(addDays(today, -1));
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByText('A data inicial deve ser igual ou anterior à data final.')).toBeVisible();
  await expect(page.getByLabel('Data final')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/periodo=7$/);
  await page.getByLabel('Data inicial').fill(addDays(today, -400));
  await page.getByLabel('Data final').fill(today);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(page.getByText('O período pode ter no máximo 366 dias.')).toBeVisible();
  const from = addDays(today, -2);
  const custom = page.waitForResponse((r) => r.url().includes(`/api/metrics/report?from=${from}&to=${today}`));
  await page.getByLabel('Data inicial').fill(from);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  expect((await custom).ok()).toBe(true);
  await expect(page).toHaveURL(new RegExp(`/reports\\?from=${from}&to=${today}$`));
  await expect(page.getByTestId('report-period')).toHaveText(
    `${formatDay(from)} a ${formatDay(today)} · horário de São Paulo`,
  );
  const recent = await getJson<Report>(page, `/api/metrics/report?from=${from}&to=${today}`);
  expect(recent.metrics.messagesSent).toBe(1);
  await expect(page.getByTestId('report-messagesSent').getByTestId('stat-value')).toHaveText('1');
  // A reload keeps the period.
  await page.reload();
  await expect(page.getByLabel('Data inicial')).toHaveValue(from);

  // 'Exportar PDF': the same report, as a real PDF.
  const pdfResponse = page.waitForResponse((r) => r.url().includes('/api/reports/pdf?'));
  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar PDF' }).click();
  const response = await pdfResponse;
  expect(response.url()).toContain(`from=${from}&to=${today}`);
  expect(response.headers()['content-type']).toContain('application/pdf');
  const file = await pdfDownload;
  expect(file.suggestedFilename()).toBe(`relatorio-${from}-a-${today}.pdf`);
  const bytes = await downloadBytes(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const { text } = pdfText(bytes);
  expect(text).toContain(CAMPAIGN);
  expect(text).toContain(`Período: ${formatDay(from)} a ${formatDay(today)}`);
  expect(text).toContain('Mensagens enviadas');
  expect(text).toContain(formatPercent(recent.metrics.deliveryRate));

  // Phones: nothing cut off, no sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/reports');
  await expect(page.getByTestId('report-messagesSent').getByTestId('stat-value')).toHaveText('2');
  await page.screenshot(shot('reports-page-390'));
  await expectNoHorizontalScroll(page);
  await page.goto('/dashboard');
  await expect(page.getByTestId('metric-messagesSent').getByTestId('metric-value')).toHaveText('2');
  await page.screenshot(shot('reports-overview-390'));
  await expectNoHorizontalScroll(page);
  await page.goto('/dashboard?tab=analytics');
  await expect(page.locator('[data-testid^="chart-"] svg.recharts-surface')).toHaveCount(4);
  await page.getByTestId('chart-messages-per-day').getByRole('button', { name: 'Ver tabela' }).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot(shot('reports-analytics-390'));
  await expectNoHorizontalScroll(page);
});

test('a new account sees zeros and designed empty states, never sample figures', async ({ page }) => {
  await signInCustomer(page, { prefix: 'vazio', name: 'Vera Vazia' });
  const header = page.getByRole('banner');
  await expect(header.getByTestId('header-sent-today')).toHaveText('0');
  await expect(header.getByTestId('header-delivery-rate-today')).toHaveText('0%');
  await expect(page.getByTestId('metric-messagesSent').getByTestId('metric-value')).toHaveText('0');
  await expect(page.getByTestId('metric-trend')).toHaveCount(0);
  await expect(page.getByTestId('monthly-growth')).toContainText('ainda não há envios');

  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByText('Ainda não há dados neste período')).toBeVisible();
  await expect(page.locator('svg.recharts-surface')).toHaveCount(0);

  await page.goto('/reports?periodo=90');
  await expect(page.getByTestId('report-period')).toContainText('Últimos 90 dias');
  await expect(page.getByText('Nenhuma campanha criada neste período')).toBeVisible();
  await expect(page.getByText('Nenhuma mensagem enviada neste período.')).toBeVisible();
  await expect(page.getByTestId('report-deliveryRate').getByTestId('stat-value')).toHaveText('0%');
  await expect(page.getByTestId('report-deliveryRate').getByTestId('stat-value')).not.toHaveClass(/text-red-700/);
  await page.screenshot(shot('reports-empty-1366'));
  await expectNoSeriousAxeViolation(page);
});

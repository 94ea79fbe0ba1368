import { describe, expect, it } from 'vitest';
import { formatDay } from '../../../contract/format';
import { addDays, saoPauloDay } from '../../../contract/metrics';
import { appPerFile } from '../../testing/app-per-file';
import { pdfText } from '../../testing/pdf-text';
import { apiCall, newCustomer } from '../../testing/test-app';

const ctx = appPerFile();

describe('GET /api/reports/pdf', () => {
  it("downloads the account's own report for the period as a PDF", async () => {
    const { cookie } = await newCustomer(ctx, { name: 'Rita Relatório', company: 'Doceria Açúcar' });
    for (const [name, phone] of [
      ['Ana', '+5511987650001'],
      ['Bia', '+5511987650002'],
      ['Caio', '+5511987650003'],
    ]) {
      expect(
        (await apiCall(ctx, 'POST', '/api/contacts', { cookie, payload: { name, phone, tags: [] } })).statusCode,
      ).toBe(200);
    }
    // Another account's contacts never show in this one's report.
    const other = await newCustomer(ctx);
    await apiCall(ctx, 'POST', '/api/contacts', {
      cookie: other.cookie,
      payload: { name: 'Zé', phone: '+5511987659999', tags: [] },
    });

    const to = saoPauloDay(new Date());
    const from = addDays(to, -6);
    const res = await apiCall(ctx, 'GET', `/api/reports/pdf?from=${from}&to=${to}`, { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`relatorio-${from}-a-${to}.pdf`);
    const { pages, text } = pdfText(res.rawPayload);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(text).toContain('Doceria Açúcar');
    expect(text).toContain(`Período: ${formatDay(from)} a ${formatDay(to)}`);
    // The figures are the account's: 3 contacts, all active, none sent.
    const metrics = (await apiCall(ctx, 'GET', `/api/metrics?from=${from}&to=${to}`, { cookie })).json();
    expect(metrics.activeContacts).toBe(3);
    expect(text).toMatch(/Contatos ativos\n3\n/);
    expect(text).toMatch(/Contatos cadastrados\n3\n/);
    expect(text).toContain('Nenhuma campanha criada no período.');
  });

  it('refuses a bad period in Portuguese and a caller without a session', async () => {
    const { cookie } = await newCustomer(ctx);
    const bad = await apiCall(ctx, 'GET', '/api/reports/pdf?from=2026-13-01', { cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/[Dd]ata|per[ií]odo/);
    expect((await apiCall(ctx, 'GET', '/api/reports/pdf')).statusCode).toBe(401);
  });
});

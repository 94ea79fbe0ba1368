import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { campaignMsg } from '../../../contract/campaigns';
import { campaignRecipients, contacts, groups } from '../../db/schema';
import { simulatorAppPerFile } from '../../testing/app-per-file';
import { apiCall, connectSimulator, newCustomer, setAccountSettings, waitFor } from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';
import { contactsChanged } from '../contacts';

const ctx = simulatorAppPerFile();

async function customer() {
  const { user, cookie } = await newCustomer(ctx);
  await setAccountSettings(ctx, user.id, { respectBusinessHours: false });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    apiCall(ctx, method, url, { cookie, payload });
  return { user, cookie, call };
}

describe('campaigns API', () => {
  it('creates a draft from the spec’s payload and lists it with zero counters', async () => {
    const { call } = await customer();
    const res = await call('POST', '/api/campaigns', {
      name: 'Black Friday',
      message: 'Olá! Aproveite.',
      targetType: 'all',
      targetGroups: [],
      status: 'draft',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Black Friday',
      message: 'Olá! Aproveite.',
      status: 'draft',
      targetType: 'all',
      targetGroups: [],
      messagesSent: 0,
      messagesDelivered: 0,
    });
    const list = (await call('GET', '/api/campaigns')).json();
    expect(list).toHaveLength(1);
    expect(list[0].id).toBe(res.json().id);
  });

  it('refuses what it cannot send, in Portuguese, naming the problem', async () => {
    const { call } = await customer();
    const empty = await call('POST', '/api/campaigns', { name: ' ', message: 'x', targetType: 'all', status: 'draft' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(campaignMsg.required);
    const noMessage = await call('POST', '/api/campaigns', { name: 'x', targetType: 'all' });
    expect(noMessage.json().message).toBe(campaignMsg.required);

    const variable = await call('POST', '/api/campaigns', { name: 'x', message: 'Oi {{cidade}}' });
    expect(variable.statusCode).toBe(400);
    expect(variable.json().message).toBe(campaignMsg.unknownVariable('cidade'));

    const group = await call('POST', '/api/campaigns', {
      name: 'x',
      message: 'Oi',
      targetType: 'groups',
      targetGroups: ['Inexistente'],
    });
    expect(group.statusCode).toBe(400);
    expect(group.json().message).toBe(campaignMsg.unknownGroups(['Inexistente']));

    const past = await call('POST', '/api/campaigns', {
      name: 'x',
      message: 'Oi',
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.json().message).toBe(campaignMsg.scheduledInPast);

    const image = await call('POST', '/api/campaigns', { name: 'x', message: 'Oi', imageUrl: 'javascript:alert(1)' });
    expect(image.statusCode).toBe(400);
    expect(image.json().message).toMatch(/Link da imagem inválido/);

    const noRecipients = await call('POST', '/api/campaigns', { name: 'x', message: 'Oi' });
    const send = await call('POST', `/api/campaigns/${noRecipients.json().id}/send`);
    expect(send.statusCode).toBe(400);
    expect(send.json().message).toBe(campaignMsg.noRecipients);
    expect((await call('GET', `/api/campaigns/${noRecipients.json().id}`)).json().status).toBe('draft');
  });

  it('resolves group names within the account, case-insensitively, several at once', async () => {
    const { user, call } = await customer();
    await ctx.database.db.insert(groups).values([
      { userId: user.id, name: 'Clientes VIP', whatsappGroupId: '1@g.us' },
      { userId: user.id, name: 'Equipe', whatsappGroupId: '2@g.us' },
    ]);
    const one = await call('POST', '/api/campaigns', {
      name: 'x',
      message: 'Oi',
      targetType: 'groups',
      targetGroups: 'clientes vip',
      status: 'draft',
    });
    expect(one.json().targetGroups).toEqual(['Clientes VIP']);
    const two = await call('POST', '/api/campaigns', {
      name: 'x',
      message: 'Oi',
      targetType: 'groups',
      targetGroups: ['Equipe', 'Clientes VIP'],
    });
    expect(two.json().targetGroups).toEqual(['Equipe', 'Clientes VIP']);
  });

  it('edits a draft, duplicates it, and previews it as three real contacts get it', async () => {
    const { user, call } = await customer();
    await ctx.database.db.insert(contacts).values([
      { userId: user.id, name: 'Ana Souza', phone: '+5521998765431' },
      { userId: user.id, name: 'Bruno Lima', phone: '+5521998765433' },
      { userId: user.id, name: 'Carla Dias', phone: '+5521998765435' },
      { userId: user.id, name: 'Davi Reis', phone: '+5521998765437' },
    ]);
    const created = (await call('POST', '/api/campaigns', { name: 'Rascunho', message: 'Oi' })).json();
    const edited = await call('PUT', `/api/campaigns/${created.id}`, {
      message: 'Oi {{primeiro_nome}}',
      targetType: 'contacts',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Rascunho', message: 'Oi {{primeiro_nome}}', targetType: 'contacts' });

    const copy = await call('POST', `/api/campaigns/${created.id}/duplicate`);
    expect(copy.json()).toMatchObject({ success: true, message: campaignMsg.duplicated });
    expect(copy.json().campaign).toMatchObject({
      name: 'Rascunho (cópia)',
      status: 'draft',
      message: 'Oi {{primeiro_nome}}',
    });

    const preview = await call('POST', '/api/campaigns/preview', { message: '{Oi|Olá} {{primeiro_nome}}' });
    const previews = preview.json().previews as Array<{ name: string; text: string }>;
    expect(previews).toHaveLength(3);
    expect(previews[0].name).toBe('Ana Souza');
    expect(previews[0].text).toMatch(/^(Oi|Olá) Ana$/);
    const bad = await call('POST', '/api/campaigns/preview', { message: '{{cidade}}' });
    expect(bad.statusCode).toBe(400);
  });

  it('counts the audience’s contacts without a name in the preview, and sends them the fallback (never the phone)', async () => {
    const { user, cookie, call } = await customer();
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    await ctx.database.db.insert(contacts).values([
      { userId: user.id, name: 'Ana Souza', phone: '+5521998765431', tags: ['vip'] },
      { userId: user.id, name: '', phone: '+5511987650097', tags: ['vip'] },
      { userId: user.id, name: '', phone: '+5511987650099', tags: [] },
      // Not sent to, so not counted: opted out, inactive.
      { userId: user.id, name: '', phone: '+5511987650091', optedOut: true },
      { userId: user.id, name: '', phone: '+5511987650093', isActive: false },
    ]);
    const preview = (body: Record<string, unknown>) => call('POST', '/api/campaigns/preview', body);

    const all = (await preview({ message: 'E aí {{primeiro_nome|cliente}}!' })).json();
    expect(all.fallbackCount).toBe(2);
    expect(all.fallbackExamples).toEqual(['+55 11 98765-0097', '+55 11 98765-0099']);
    const nameless = all.previews.find((p: { phone: string }) => p.phone === '+55 11 98765-0097');
    expect(nameless).toEqual({ name: '', phone: '+55 11 98765-0097', text: 'E aí cliente!' });
    expect(all.previews.find((p: { name: string }) => p.name === 'Ana Souza').text).toBe('E aí Ana!');

    // Neither counted, by the planner's own rule: a number known to have no WhatsApp, one too short.
    await ctx.database.db.insert(contacts).values([
      { userId: user.id, name: '', phone: '+5511987650095', isWhatsappActive: false, tags: ['vip'] },
      { userId: user.id, name: '', phone: '+551198765', tags: ['vip'] },
    ]);
    contactsChanged(ctx.app.deps.state, user.id);
    const tagged = (await preview({ message: 'Oi {{nome}}', targetType: 'contacts', targetTags: ['vip'] })).json();
    expect([tagged.fallbackCount, tagged.fallbackExamples]).toEqual([1, ['+55 11 98765-0097']]);
    const groupsOnly = (await preview({ message: 'Oi {{nome}}', targetType: 'groups' })).json();
    expect(groupsOnly.fallbackCount).toBe(0);
    // A message that does not write the name has nothing to say about it.
    const noName = (await preview({ message: 'Oi {{telefone}}' })).json();
    expect([noName.fallbackCount, noName.fallbackExamples]).toEqual([0, []]);

    const created = (
      await call('POST', '/api/campaigns', {
        name: 'Sem nome',
        message: 'E aí {{primeiro_nome|cliente}}! {{nome}}.',
        targetType: 'contacts',
        targetTags: ['vip'],
      })
    ).json();
    await call('POST', `/api/campaigns/${created.id}/send`);
    await waitFor(
      async () => driver.outbox.length,
      (n) => n === 2,
      8000,
    );
    const texts = Object.fromEntries(
      driver.outbox.map((m) => [m.to, m.message.kind === 'text' ? m.message.text : m.message.kind]),
    );
    expect(texts).toEqual({ '5521998765431': 'E aí Ana! Ana Souza.', '5511987650097': 'E aí cliente! .' });
  });

  it('sends a test message to the account’s own number, or to a number given', async () => {
    const { user, cookie, call } = await customer();
    const created = (await call('POST', '/api/campaigns', { name: 'T', message: 'Oi {{primeiro_nome}}' })).json();
    const offline = await call('POST', `/api/campaigns/${created.id}/test`, {});
    expect(offline.statusCode).toBe(409);
    expect(offline.json().message).toBe(campaignMsg.notConnected);

    // The simulator refuses numbers ending in 0, its own included: a number that does is removed
    // and another one paired (each number's simulated phone comes from its id).
    let driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    while (driver.phoneNumber.endsWith('0')) {
      const number = ctx.app.deps.registry.primaryOf(user.id);
      expect((await call('DELETE', `/api/connections/${number}`)).statusCode).toBe(200);
      driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    }
    await waitFor(
      async () => driver.status().phoneNumber,
      (n) => n !== null,
    );
    const own = await call('POST', `/api/campaigns/${created.id}/test`);
    expect(own.statusCode, own.body).toBe(200);
    const given = await call('POST', `/api/campaigns/${created.id}/test`, { phone: '(21) 99876-5431' });
    expect(given.json().message).toBe(campaignMsg.testSent('+55 21 99876-5431'));
    expect(driver.outbox.map((m) => m.to)).toEqual([driver.phoneNumber.replace(/\D/g, ''), '5521998765431']);
    const first = user.name.split(' ')[0];
    expect(driver.outbox[0].message).toEqual({ kind: 'text', text: `Oi ${first}` });
    // A number WhatsApp refuses: a 409 that says why, never a 500.
    const refused = await call('POST', `/api/campaigns/${created.id}/test`, { phone: '+55 21 99876-5430' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('O WhatsApp não concluiu a operação: Número sem WhatsApp');
    // A test is not a send: the campaign is still a draft.
    expect((await call('GET', `/api/campaigns/${created.id}`)).json().status).toBe('draft');
  });

  it('reports per recipient, paged and by status, and exports it with formulas neutralised', async () => {
    const { user, cookie, call } = await customer();
    await connectSimulator(ctx, user.id, cookie);
    await ctx.database.db.insert(contacts).values([
      { userId: user.id, name: '=HYPERLINK("http://x")', phone: '+5521998765431' },
      { userId: user.id, name: 'Bia', phone: '+5521998765433' },
      { userId: user.id, name: 'Sem Zap', phone: '+5521998765430' },
    ]);
    const created = (
      await call('POST', '/api/campaigns', { name: 'Relatório Março', message: 'Oi', targetType: 'contacts' })
    ).json();
    await call('POST', `/api/campaigns/${created.id}/send`);
    await waitFor(
      async () => (await call('GET', `/api/campaigns/${created.id}`)).json(),
      (c) => c.status === 'completed' && c.progress.read === 2,
      8000,
    );
    const page = (await call('GET', `/api/campaigns/${created.id}/recipients?limit=2&page=1`)).json();
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
    const failed = (await call('GET', `/api/campaigns/${created.id}/recipients?status=failed`)).json();
    expect(failed.items).toEqual([
      expect.objectContaining({
        name: 'Sem Zap',
        recipient: '+5521998765430',
        status: 'failed',
        error: 'Número sem WhatsApp',
      }),
    ]);
    const read = (await call('GET', `/api/campaigns/${created.id}/recipients?status=read`)).json();
    expect(read.items[0].sentAt && read.items[0].deliveredAt && read.items[0].readAt).toBeTruthy();

    const csv = await call('GET', `/api/campaigns/${created.id}/recipients/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain("filename*=UTF-8''relatorio-Relat%C3%B3rio%20Mar%C3%A7o");
    expect(csv.body).toContain('Destinatário;Nome;Tipo;Status');
    expect(csv.body).toContain(`'=HYPERLINK`);
    expect(csv.body).toContain('+5521998765430;Sem Zap;Contato;Falhou');

    const xlsx = await apiCall(ctx, 'GET', `/api/campaigns/${created.id}/recipients/export?format=xlsx`, { cookie });
    const sheet = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(sheet.Sheets[sheet.SheetNames[0]], { header: 1 });
    expect(rows).toHaveLength(4);
    expect(rows.flat()).toContain('=HYPERLINK("http://x")');
  });

  it('exports the report’s times in São Paulo time with its offset, as the screen shows them, in CSV and XLSX', async () => {
    const { user, cookie, call } = await customer();
    const created = (
      await call('POST', '/api/campaigns', { name: 'Horários', message: 'Oi', targetType: 'all' })
    ).json();
    const at = (iso: string) => new Date(iso);
    await ctx.database.db.insert(campaignRecipients).values([
      {
        campaignId: created.id,
        userId: user.id,
        recipient: '+5521998765431',
        name: 'Ana',
        status: 'read',
        createdAt: at('2026-11-25T19:20:00.000Z'),
        sentAt: at('2026-11-25T19:22:14.459Z'),
        deliveredAt: at('2026-11-26T02:30:00.000Z'),
        readAt: at('2026-11-26T03:05:09.000Z'),
      },
      {
        // Before 2019 São Paulo had summer time: the offset comes from the time-zone database.
        campaignId: created.id,
        userId: user.id,
        recipient: '+5521998765432',
        name: 'Bia',
        status: 'failed',
        createdAt: at('2018-01-25T19:22:14.000Z'),
        failedAt: at('2018-01-25T19:23:00.000Z'),
      },
    ]);
    const ana = [
      '2026-11-25 16:20:00 -03:00',
      '2026-11-25 16:22:14 -03:00',
      '2026-11-25 23:30:00 -03:00',
      '2026-11-26 00:05:09 -03:00',
      '',
    ];
    const bia = ['2018-01-25 17:22:14 -02:00', '', '', '', '2018-01-25 17:23:00 -02:00'];

    const csv = await call('GET', `/api/campaigns/${created.id}/recipients/export?format=csv`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.map((l) => l.split(';').slice(4, 9))).toEqual([
      ['Na fila em', 'Enviada em', 'Entregue em', 'Lida em', 'Falhou em'],
      ana,
      bia,
    ]);
    expect(csv.body).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);

    const xlsx = await apiCall(ctx, 'GET', `/api/campaigns/${created.id}/recipients/export?format=xlsx`, { cookie });
    const sheet = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(sheet.Sheets[sheet.SheetNames[0]], { header: 1, defval: '' });
    expect(rows.slice(1).map((r) => r.slice(4, 9))).toEqual([ana, bia]);
  });

  it('uses a saved message as content, its HTML as WhatsApp formatting, and sends an uploaded image with the text as caption', async () => {
    const { user, cookie, call } = await customer();
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    await ctx.database.db.insert(contacts).values({ userId: user.id, name: 'Ana Souza', phone: '+5521998765431' });
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
    const uploaded = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name: 'foto.png', data: png } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const saved = await call('POST', '/api/messages', {
      title: 'Oferta',
      type: 'contacts',
      enableMessage: true,
      hasImage: true,
      imageUrl: '',
      imageFile: 'foto.png',
      uploadId: uploaded.json().id,
      content: '<b>Oferta</b> para {{primeiro_nome}}<script>alert(1)</script>',
      contentType: 'html',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const created = await call('POST', '/api/campaigns', {
      name: 'Salva',
      message: '',
      targetType: 'contacts',
      savedMessageId: saved.json().savedMessage.id,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      message: '*Oferta* para {{primeiro_nome}}',
      imageUrl: `upload:${uploaded.json().id}`,
    });
    await call('POST', `/api/campaigns/${created.json().id}/send`);
    await waitFor(
      async () => driver.outbox.length,
      (n) => n === 1,
      8000,
    );
    const [sent] = driver.outbox;
    expect(sent.message.kind).toBe('image');
    if (sent.message.kind === 'image') {
      expect(sent.message.caption).toBe('*Oferta* para Ana');
      expect(sent.message.image.data?.equals(png)).toBe(true);
      expect(sent.message.image.mimeType).toBe('image/png');
    }

    // Another account's upload or saved message is refused.
    const other = await customer();
    const stolen = await other.call('POST', '/api/campaigns', {
      name: 'x',
      message: 'Oi',
      imageUrl: `/api/uploads/${uploaded.json().id}`,
    });
    expect(stolen.statusCode).toBe(400);
    const stolenMessage = await other.call('POST', '/api/campaigns', {
      name: 'x',
      savedMessageId: saved.json().savedMessage.id,
    });
    expect(stolenMessage.statusCode).toBe(400);
  });
});

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { campaignMsg } from '../../contract/campaigns';
import type { ConnectionView } from '../../contract/connections';
import { sendContentMsg } from '../../contract/message-content';
import { campaignRecipients, contacts } from '../db/schema';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { multipart } from '../testing/multipart';
import { sendingSettings } from '../testing/sending-settings';
import {
  type ApiMethod,
  apiCall,
  createTestApp,
  createUser,
  loginAs,
  type TestContext,
  waitFor,
} from '../testing/test-app';

/**
 * A campaign that sends a file (`mediaUrl`): one of the account's uploads goes to every recipient
 * as its kind, the personalised text as its caption, uploaded to Meta once per number; what the
 * file is decides what the text may be.
 */
let ctx: TestContext;
let graph: FakeGraphApi;
let seq = 0;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp(
    {
      WHATSAPP_DRIVER: 'simulator',
      GRAPH_API_URL: graph.url,
      GRAPH_API_VERSION: 'v26.0',
      WHATSAPP_CLOUD_THROUGHPUT: '160',
    },
    undefined,
    {
      simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
      dispatcher: { tickMs: 20, timeScale: 0.002 },
    },
  );
});
afterAll(async () => {
  await ctx.close();
  await graph.stop();
});

const req = (method: ApiMethod, url: string, cookie: string, payload?: object) =>
  apiCall(ctx, method, url, { payload, cookie });

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(50_000), Buffer.from('\n%%EOF\n')]);
const MP3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), randomBytes(5000)]);

async function customer() {
  const user = await createUser(ctx, { planType: 'premium' });
  const cookie = await loginAs(ctx, user);
  return { user, cookie };
}

async function upload(cookie: string, name: string, data: Buffer) {
  const body = multipart(name, data);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/uploads',
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = /([0-9a-f-]{36})$/i.exec(res.json().url as string)?.[1] as string;
  expect(id).toBeTruthy();
  return { id, fileName: res.json().fileName as string };
}

async function cloudNumber(cookie: string, label: string) {
  const n = ++seq;
  const phoneNumberId = `70${n}0000000${n}`;
  const accessToken = `EAAG-media-${n}`;
  graph.addPhone(phoneNumberId, accessToken, `55114200${String(n).padStart(4, '0')}`, label);
  const res = await req('POST', '/api/connections', cookie, { kind: 'cloud', label, accessToken, phoneNumberId });
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json().connection as ConnectionView), phoneNumberId };
}

const draft = (cookie: string, body: object) =>
  req('POST', '/api/campaigns', cookie, { name: `Arquivo ${++seq}`, targetType: 'all', ...body });

describe('a campaign with a file', () => {
  it('sends a PDF to 200 contacts over two Cloud numbers: one upload per number, each caption personalised', async () => {
    const { user, cookie } = await customer();
    const a = await cloudNumber(cookie, 'Vendas');
    const b = await cloudNumber(cookie, 'Pós-venda');
    const phones = Array.from({ length: 200 }, (_, i) => `5521${String(70_000_000 + i).padStart(8, '0')}1`);
    await ctx.database.db
      .insert(contacts)
      .values(phones.map((p, i) => ({ userId: user.id, name: `Cliente ${i}`, phone: `+${p}` })));
    const pdf = await upload(cookie, 'Catálogo 2026.pdf', PDF);

    const settings = await req('PUT', '/api/settings/whatsapp', cookie, {
      ...sendingSettings('cloud'),
      channel: undefined,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const created = await draft(cookie, {
      message: 'Olá {{nome}}, segue o catálogo',
      mediaUrl: `upload:${pdf.id}`,
      connectionIds: [a.id, b.id],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      mediaUrl: `upload:${pdf.id}`,
      imageUrl: null,
      media: { kind: 'document', mimeType: 'application/pdf', fileName: 'Catálogo 2026.pdf', size: PDF.length },
    });
    const id = created.json().id as string;
    const sent = await req('POST', `/api/campaigns/${id}/send`, cookie);
    expect(sent.statusCode, sent.body).toBe(200);
    const done = await waitFor(
      async () => (await req('GET', `/api/campaigns/${id}`, cookie)).json(),
      (c) => c.status === 'completed',
      30_000,
    );
    expect(done.progress).toMatchObject({ total: 200, queued: 0, sending: 0, failed: 0 });

    // The file went to Meta once per number, never once per recipient.
    expect(graph.media.filter((m) => m.phoneNumberId === a.phoneNumberId)).toHaveLength(1);
    expect(graph.media.filter((m) => m.phoneNumberId === b.phoneNumberId)).toHaveLength(1);

    const mine = graph.sent.filter((m) => phones.includes(m.to as string));
    expect(mine).toHaveLength(200);
    expect(new Set(mine.map((m) => m.to)).size).toBe(200);
    for (const m of mine) {
      expect(m.type).toBe('document');
      const doc = m.document as { filename: string; caption: string; id?: string };
      expect(doc.filename).toBe(pdf.fileName);
      const i = phones.indexOf(m.to as string);
      expect(doc.caption).toBe(`Olá Cliente ${i}, segue o catálogo`);
    }

    // The contact's thread on the number that sent it shows the file under the text.
    const first = mine[0];
    const rows = await ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));
    const row = rows.find((r) => r.recipient.replace('+', '') === first.to);
    expect(row?.connectionId).toBeTruthy();
    const thread = await req('GET', `/api/conversations/${first.to}?connectionId=${row?.connectionId}`, cookie);
    expect(thread.statusCode, thread.body).toBe(200);
    const shown = (thread.json().messages as Array<Record<string, unknown>>).find((m) => m.source === 'campaign');
    expect(shown).toMatchObject({
      text: `Olá Cliente ${phones.indexOf(first.to as string)}, segue o catálogo`,
      imageUrl: null,
      media: { kind: 'document', fileName: 'Catálogo 2026.pdf', url: `/api/uploads/${pdf.id}` },
    });
  });

  it('refuses another account’s upload and imageUrl with mediaUrl, takes an audio with text; imageUrl alone still works', async () => {
    const me = await customer();
    const other = await customer();
    const theirs = await upload(other.cookie, 'deles.pdf', PDF);
    const foreign = await draft(me.cookie, { message: 'Oi', mediaUrl: `upload:${theirs.id}` });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(campaignMsg.fileNotFound);
    const byUrl = await draft(me.cookie, { message: 'Oi', mediaUrl: `/api/uploads/${theirs.id}` });
    expect(byUrl.statusCode).toBe(400);
    expect(byUrl.json().message).toBe(campaignMsg.fileNotFound);

    const mp3 = await upload(me.cookie, 'jingle.mp3', MP3);
    // An audio takes no caption: its text is accepted and goes as a message after it.
    const withText = await draft(me.cookie, { message: 'Ouça {{nome}}', mediaUrl: `upload:${mp3.id}` });
    expect(withText.statusCode, withText.body).toBe(200);
    const alone = await draft(me.cookie, { message: '', mediaUrl: `/api/uploads/${mp3.id}` });
    expect(alone.statusCode, alone.body).toBe(200);
    expect(alone.json()).toMatchObject({ message: '', mediaUrl: `upload:${mp3.id}`, media: { kind: 'audio' } });
    const edit = await req('PUT', `/api/campaigns/${alone.json().id}`, me.cookie, { message: 'Agora com texto' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ message: 'Agora com texto', media: { kind: 'audio' } });

    const mine = await upload(me.cookie, 'meu.pdf', PDF);
    const both = await draft(me.cookie, {
      message: 'Oi',
      imageUrl: 'https://example.com/foto.jpg',
      mediaUrl: `upload:${mine.id}`,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(campaignMsg.imageOrMedia);

    const image = await draft(me.cookie, { message: 'Oi', imageUrl: 'https://example.com/foto.jpg' });
    expect(image.statusCode, image.body).toBe(200);
    expect(image.json()).toMatchObject({ imageUrl: 'https://example.com/foto.jpg', mediaUrl: null, media: null });
    // A link as mediaUrl is an image link, checked as imageUrl links are.
    const link = await draft(me.cookie, { message: 'Oi', mediaUrl: 'https://example.com/foto.jpg' });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ mediaUrl: 'https://example.com/foto.jpg', media: null });
    const empty = await draft(me.cookie, { message: '' });
    expect(empty.statusCode).toBe(400);
  });

  it('sends an audio and then its text, then the location and the contact card, counting each recipient once', async () => {
    const { user, cookie } = await customer();
    const a = await cloudNumber(cookie, 'Loja');
    const phones = ['5521977700011', '5521977700021'];
    await ctx.database.db
      .insert(contacts)
      .values(phones.map((p, i) => ({ userId: user.id, name: `Ana ${i}`, phone: `+${p}` })));
    const mp3 = await upload(cookie, 'jingle.mp3', MP3);
    const settings = await req('PUT', '/api/settings/whatsapp', cookie, {
      ...sendingSettings('cloud'),
      channel: undefined,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const created = await draft(cookie, {
      message: 'Ouça {{nome}}',
      mediaUrl: `upload:${mp3.id}`,
      location: { latitude: -22.9068, longitude: '-43.1729', name: ' Loja Centro ', address: 'Rua A, 1' },
      contactCard: { name: 'Atendimento', phone: '(21) 99876-5432' },
      connectionIds: [a.id],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({
      location: { latitude: -22.9068, longitude: -43.1729, name: 'Loja Centro', address: 'Rua A, 1' },
      contactCard: { name: 'Atendimento', phone: '21998765432' },
    });
    const id = created.json().id as string;
    const shown = (await req('GET', `/api/campaigns/${id}`, cookie)).json();
    expect(shown.location).toMatchObject({ name: 'Loja Centro' });
    const sent = await req('POST', `/api/campaigns/${id}/send`, cookie);
    expect(sent.statusCode, sent.body).toBe(200);
    const done = await waitFor(
      async () => (await req('GET', `/api/campaigns/${id}`, cookie)).json(),
      (c) => c.status === 'completed',
      30_000,
    );
    expect(done.progress).toMatchObject({ total: 2, queued: 0, sending: 0, failed: 0 });
    expect(done.messagesSent).toBe(2);
    for (const [i, phone] of phones.entries()) {
      const mine = graph.sent.filter((m) => m.to === phone);
      expect(mine.map((m) => m.type)).toEqual(['audio', 'text', 'location', 'contacts']);
      expect((mine[0].audio as { caption?: string }).caption).toBeUndefined();
      expect((mine[1].text as { body: string }).body).toBe(`Ouça Ana ${i}`);
      expect(mine[2].location).toMatchObject({ latitude: -22.9068, longitude: -43.1729, name: 'Loja Centro' });
    }
    const rows = await ctx.database.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, id));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.status).not.toBe('failed');
  });

  it('takes a campaign of only a location or a contact card, keeps them on edit and copy, removes them with null', async () => {
    const { cookie } = await customer();
    const onlyPlace = await draft(cookie, { message: '', location: { latitude: 1.5, longitude: 2.5 } });
    expect(onlyPlace.statusCode, onlyPlace.body).toBe(200);
    expect(onlyPlace.json()).toMatchObject({
      message: '',
      location: { latitude: 1.5, longitude: 2.5 },
      contactCard: null,
    });
    const onlyCard = await draft(cookie, { contactCard: { name: 'Suporte', phone: '+55 11 4000-1234' } });
    expect(onlyCard.statusCode, onlyCard.body).toBe(200);
    expect(onlyCard.json()).toMatchObject({ location: null, contactCard: { name: 'Suporte', phone: '551140001234' } });

    const bad = await draft(cookie, { message: 'Oi', location: { latitude: 91, longitude: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(sendContentMsg.latitudeInvalid);
    const badCard = await draft(cookie, { message: 'Oi', contactCard: { name: 'X', phone: '12' } });
    expect(badCard.statusCode).toBe(400);
    expect(badCard.json().message).toBe(sendContentMsg.contactPhoneInvalid);

    const id = onlyPlace.json().id as string;
    const edited = await req('PUT', `/api/campaigns/${id}`, cookie, { name: 'Renomeada' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().location).toMatchObject({ latitude: 1.5 });
    const copy = await req('POST', `/api/campaigns/${id}/duplicate`, cookie);
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().campaign).toMatchObject({ location: { latitude: 1.5, longitude: 2.5 }, contactCard: null });
    // Nothing left to send: refused.
    const emptied = await req('PUT', `/api/campaigns/${id}`, cookie, { location: null });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().message).toBe(campaignMsg.required);
    const withText = await req('PUT', `/api/campaigns/${id}`, cookie, { message: 'Oi', location: null });
    expect(withText.statusCode, withText.body).toBe(200);
    expect(withText.json()).toMatchObject({ message: 'Oi', location: null });
  });

  it('stores a PDF link as one of the account’s files; an image link stays a link', async () => {
    const { user, cookie } = await customer();
    const pdf = await upload(cookie, 'catalogo.pdf', PDF);
    const spy = vi.spyOn(ctx.app.deps.media, 'fromLink').mockImplementation(async (_userId, link) => ({
      id: pdf.id,
      url: `/api/uploads/${pdf.id}`,
      fileName: link.split('/').pop() as string,
      mimeType: 'application/pdf',
      size: PDF.length,
      kind: 'document',
    }));
    try {
      const created = await draft(cookie, { message: 'Segue', mediaUrl: 'https://example.com/docs/catalogo.pdf' });
      expect(created.statusCode, created.body).toBe(200);
      expect(spy).toHaveBeenCalledWith(user.id, 'https://example.com/docs/catalogo.pdf');
      expect(created.json()).toMatchObject({
        mediaUrl: `upload:${pdf.id}`,
        media: { kind: 'document', mimeType: 'application/pdf', size: PDF.length },
      });
      const edited = await req('PUT', `/api/campaigns/${created.json().id}`, cookie, {
        mediaUrl: 'https://example.com/arquivo',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().mediaUrl).toBe(`upload:${pdf.id}`);
      expect(spy).toHaveBeenCalledTimes(2);
      const image = await draft(cookie, { message: 'Oi', mediaUrl: 'https://example.com/foto.png' });
      expect(image.statusCode, image.body).toBe(200);
      expect(image.json()).toMatchObject({ mediaUrl: 'https://example.com/foto.png', media: null });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});

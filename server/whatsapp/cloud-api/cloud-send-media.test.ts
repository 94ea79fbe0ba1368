import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import type { OutgoingMedia, OutgoingMessage } from '../driver';
import { CloudApiDriver } from './cloud-driver';
import { GraphClient } from './graph-client';
import { MEDIA_ID_TTL_MS } from './media-ids';

const graph = new FakeGraphApi();
beforeAll(async () => {
  await graph.start();
});
afterAll(async () => {
  await graph.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;

/** A fresh number on the fake Graph API and its driver; `failMedia` makes the next n uploads fail with a 500. */
function cloudNumber() {
  const phoneNumberId = `1099${++seq}`;
  const token = `token-${seq}`;
  graph.addPhone(phoneNumberId, token, `5511955550${seq}`);
  const control = { failMedia: 0, mediaCalls: 0 };
  const client = new GraphClient({
    baseUrl: graph.url,
    version: 'v21.0',
    accessToken: token,
    fetch: async (input, init) => {
      if (String(input).endsWith('/media')) {
        control.mediaCalls++;
        if (control.failMedia > 0) {
          control.failMedia--;
          return new Response(JSON.stringify({ error: { message: 'Service unavailable', code: 2 } }), { status: 503 });
        }
      }
      return fetch(input, init);
    },
  });
  const fetchImage = async (url: string) => ({ data: Buffer.from(`image at ${url}`), mimeType: 'image/jpeg' });
  const driver = new CloudApiDriver(client, phoneNumberId, null, null, fetchImage);
  const uploads = () => graph.media.filter((m) => m.phoneNumberId === phoneNumberId);
  const uploadBodies = () =>
    graph.requests
      .filter((r) => r.path.endsWith(`/${phoneNumberId}/media`) && r.method === 'POST')
      .map((r) => r.rawBody.toString('latin1'));
  const sentBy = (n: number) => graph.sent.slice(-n);
  return { phoneNumberId, driver, control, uploads, uploadBodies, sentBy };
}

/** A file of the account's store: a fresh stream of `content` at each open, counted; `delayMs` before it opens. */
function stored(kind: OutgoingMedia['kind'], mimeType: string, fileName: string, content: string, delayMs = 0) {
  const opens = { count: 0 };
  const media: OutgoingMedia = {
    kind,
    mimeType,
    fileName,
    file: `file-${fileName}`,
    size: content.length,
    open: async () => {
      opens.count++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return (async function* () {
        yield Buffer.from(content.slice(0, 3));
        yield Buffer.from(content.slice(3));
      })();
    },
  };
  return { media, opens };
}

const strip = (m: Record<string, unknown>) => {
  const { messaging_product: _p, recipient_type: _r, to: _t, ...rest } = m;
  return rest;
};

describe('Cloud API files, locations and contact cards', () => {
  it('sends each kind with Meta’s payload, the file uploaded as multipart with its name and type', async () => {
    const n = cloudNumber();
    const to = '5511911112222';
    const sends: OutgoingMessage[] = [
      { kind: 'media', media: stored('image', 'image/png', 'foto.png', 'PNGBYTES').media, caption: 'Foto' },
      { kind: 'media', media: stored('video', 'video/mp4', 'video.mp4', 'MP4BYTES').media, caption: 'Vídeo' },
      {
        kind: 'media',
        media: stored('document', 'application/pdf', 'Tabela de preços.pdf', '%PDF-1.7 bytes').media,
        caption: 'Preços',
      },
      // Audio and stickers carry no caption on WhatsApp.
      {
        kind: 'media',
        media: { ...stored('audio', 'audio/ogg', 'voz.ogg', 'OggS bytes').media, voice: true },
        caption: 'ignorada',
      },
      { kind: 'media', media: stored('sticker', 'image/webp', 'fig.webp', 'RIFF webp').media },
      {
        kind: 'location',
        location: { latitude: -23.5613, longitude: -46.6565, name: 'Loja Paulista', address: 'Av. Paulista, 1000' },
      },
      { kind: 'location', location: { latitude: 1.5, longitude: 2.5 } },
      { kind: 'contact', contactCard: { name: 'Ana Vendas', phone: '+55 11 93333-4444' } },
      { kind: 'contact', contactCard: { name: 'Sem número', phone: null } },
    ];
    for (const m of sends) {
      const { providerMessageId } = await n.driver.send(to, m);
      expect(providerMessageId).toMatch(/^wamid\./);
    }
    expect(n.uploads()).toHaveLength(5);
    const sent = n.sentBy(sends.length);
    for (const m of sent) expect(m).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual', to });
    const mediaId = (i: number) => (sent[i][sent[i].type as string] as { id: string }).id;
    for (let i = 0; i < 5; i++) expect(mediaId(i)).toMatch(/^media-\d+$/);
    expect(new Set([0, 1, 2, 3, 4].map(mediaId)).size).toBe(5);
    expect(sent.map(strip)).toEqual([
      { type: 'image', image: { id: mediaId(0), caption: 'Foto' } },
      { type: 'video', video: { id: mediaId(1), caption: 'Vídeo' } },
      { type: 'document', document: { id: mediaId(2), caption: 'Preços', filename: 'Tabela de preços.pdf' } },
      { type: 'audio', audio: { id: mediaId(3) } },
      { type: 'sticker', sticker: { id: mediaId(4) } },
      {
        type: 'location',
        location: { latitude: -23.5613, longitude: -46.6565, name: 'Loja Paulista', address: 'Av. Paulista, 1000' },
      },
      { type: 'location', location: { latitude: 1.5, longitude: 2.5 } },
      {
        type: 'contacts',
        contacts: [
          {
            name: { formatted_name: 'Ana Vendas', first_name: 'Ana Vendas' },
            phones: [{ phone: '+5511933334444', wa_id: '5511933334444', type: 'CELL' }],
          },
        ],
      },
      { type: 'contacts', contacts: [{ name: { formatted_name: 'Sem número', first_name: 'Sem número' } }] },
    ]);
    expect(n.uploads().map((u) => u.type)).toEqual([
      'image/png',
      'video/mp4',
      'application/pdf',
      'audio/ogg',
      'image/webp',
    ]);
    const pdf = Buffer.from(n.uploadBodies()[2], 'latin1').toString('utf8');
    expect(pdf).toContain('filename="Tabela de preços.pdf"');
    expect(pdf).toContain('%PDF-1.7 bytes');
  });

  it('uploads a campaign’s one file once for 200 recipients, and once more only on another number', async () => {
    const n = cloudNumber();
    const { media, opens } = stored('document', 'application/pdf', 'catalogo.pdf', '%PDF catálogo');
    const recipients = Array.from({ length: 200 }, (_, i) => `55119${String(10_000_000 + i)}`);
    await Promise.all(
      recipients.slice(0, 100).map((to) => n.driver.send(to, { kind: 'media', media, caption: 'Catálogo' })),
    );
    for (const to of recipients.slice(100)) await n.driver.send(to, { kind: 'media', media, caption: 'Catálogo' });
    expect(n.uploads()).toHaveLength(1);
    expect(n.control.mediaCalls).toBe(1);
    expect(opens.count).toBe(1);
    const sent = n.sentBy(200);
    expect(new Set(sent.map((m) => (m.document as { id: string }).id)).size).toBe(1);
    expect(new Set(sent.map((m) => m.to))).toEqual(new Set(recipients));

    // Media ids belong to the number that uploaded: another number uploads its own.
    const other = cloudNumber();
    await other.driver.send(recipients[0], { kind: 'media', media });
    expect(other.uploads()).toHaveLength(1);
    expect(n.uploads()).toHaveLength(1);
  });

  it('shares one upload between concurrent sends, and keys a file without an id by its SHA-256', async () => {
    const n = cloudNumber();
    const { media, opens } = stored('video', 'video/mp4', 'promo.mp4', 'MP4 promo bytes', 50);
    const [a, b] = await Promise.all([
      n.driver.send('5511911110001', { kind: 'media', media }),
      n.driver.send('5511911110002', { kind: 'media', media }),
    ]);
    expect(a.providerMessageId).not.toBe(b.providerMessageId);
    expect(n.uploads()).toHaveLength(1);
    expect(opens.count).toBe(1);

    const byHash = {
      ...stored('image', 'image/jpeg', 'x.jpg', 'JPEG bytes').media,
      file: undefined,
      sha256: 'ab'.repeat(32),
    };
    await n.driver.send('5511911110001', { kind: 'media', media: byHash });
    await n.driver.send('5511911110002', { kind: 'media', media: byHash });
    expect(n.uploads()).toHaveLength(2);
    // Neither id nor hash: nothing to know it by, so each send uploads.
    const anonymous = { ...byHash, sha256: undefined };
    await n.driver.send('5511911110001', { kind: 'media', media: anonymous });
    await n.driver.send('5511911110002', { kind: 'media', media: anonymous });
    expect(n.uploads()).toHaveLength(4);
  });

  it('forgets a failed upload, so the next send uploads again', async () => {
    const n = cloudNumber();
    const { media } = stored('document', 'application/pdf', 'contrato.pdf', '%PDF contrato', 30);
    n.control.failMedia = 1;
    const failed = await Promise.allSettled([
      n.driver.send('5511911110001', { kind: 'media', media }),
      n.driver.send('5511911110002', { kind: 'media', media }),
    ]);
    // Both waited on the same upload, and both fail as it did (to be tried later).
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failed.map((r) => (r as PromiseRejectedResult).reason.kind)).toEqual(['transient', 'transient']);
    expect(n.control.mediaCalls).toBe(1);
    expect(n.uploads()).toHaveLength(0);

    await n.driver.send('5511911110001', { kind: 'media', media });
    await n.driver.send('5511911110002', { kind: 'media', media });
    expect(n.control.mediaCalls).toBe(2);
    expect(n.uploads()).toHaveLength(1);
  });

  it('uploads a file again once Meta may have dropped it (29 days)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-03-01T12:00:00Z');
    vi.setSystemTime(start);
    const n = cloudNumber();
    const { media } = stored('audio', 'audio/mpeg', 'jingle.mp3', 'ID3 jingle');
    await n.driver.send('5511911110001', { kind: 'media', media });
    vi.setSystemTime(start.getTime() + MEDIA_ID_TTL_MS - 60_000);
    await n.driver.send('5511911110002', { kind: 'media', media });
    expect(n.uploads()).toHaveLength(1);
    vi.setSystemTime(start.getTime() + MEDIA_ID_TTL_MS);
    await n.driver.send('5511911110003', { kind: 'media', media });
    expect(n.uploads()).toHaveLength(2);
  });

  it('fetches a linked image itself, and refuses a link of another kind without sending', async () => {
    const n = cloudNumber();
    await n.driver.send('5511911110001', {
      kind: 'media',
      media: { kind: 'image', mimeType: 'image/jpeg', fileName: 'x.jpg', url: 'https://example.com/x.jpg' },
      caption: 'Link',
    });
    expect(n.uploads()).toHaveLength(1);
    expect(n.uploadBodies()[0]).toContain('image at https://example.com/x.jpg');
    const before = graph.sent.length;
    await expect(
      n.driver.send('5511911110001', {
        kind: 'media',
        media: { kind: 'document', mimeType: 'application/pdf', fileName: 'x.pdf', url: 'https://example.com/x.pdf' },
      }),
    ).rejects.toMatchObject({ kind: 'permanent', message: expect.stringMatching(/^Arquivo indisponível/) });
    expect(graph.sent.length).toBe(before);
    expect(n.uploads()).toHaveLength(1);
  });
});

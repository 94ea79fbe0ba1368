import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botMsg } from '../../../contract/bot';
import { sendContentMsg } from '../../../contract/message-content';
import {
  apiCall,
  connectSimulator,
  createTestApp,
  newCustomerWithCalls,
  type TestContext,
} from '../../testing/test-app';
import type { SimulatorDriver } from '../../whatsapp/simulator/simulator-driver';

/**
 * Bot rules that send a document, an audio, a video (one of the account's files), a location or a
 * contact card: saved, checked in Portuguese, and answered through the simulator.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
    dispatcher: { autoStart: false },
  });
});
afterAll(() => ctx.close());

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000), Buffer.from('\n%%EOF\n')]);
const MP3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), randomBytes(5000)]);

function box(type: string, ...content: Buffer[]): Buffer {
  const data = Buffer.concat(content);
  const h = Buffer.alloc(8);
  h.writeUInt32BE(8 + data.length);
  h.write(type, 4, 'latin1');
  return Buffer.concat([h, data]);
}
function trak(handler: string, entry: Buffer): Buffer {
  const hdlr = box('hdlr', Buffer.alloc(8), Buffer.from(handler, 'latin1'), Buffer.alloc(13));
  const stsd = box('stsd', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), entry);
  return box('trak', box('tkhd', Buffer.alloc(84)), box('mdia', hdlr, box('minf', box('stbl', stsd))));
}
/** A small MP4: H.264 video and AAC audio. */
function mp4(): Buffer {
  const avc = box('avc1', Buffer.alloc(78), box('avcC', Buffer.alloc(8)));
  const esds = box(
    'esds',
    Buffer.alloc(4),
    Buffer.from([0x03, 0x19, 0, 1, 0, 0x04, 0x11, 0x40, 0x15]),
    Buffer.alloc(16),
  );
  const aac = box('mp4a', Buffer.alloc(28), esds);
  const ftyp = box(
    'ftyp',
    ...['isom', '\0\0\0\0', 'isom', 'iso2', 'avc1', 'mp41'].map((s) => Buffer.from(s, 'latin1')),
  );
  const moov = box('moov', box('mvhd', Buffer.alloc(100)), trak('vide', avc), trak('soun', aac));
  return Buffer.concat([ftyp, moov, box('mdat', Buffer.alloc(256))]);
}

let seq = 0;
/** A fresh number the simulator accepts (it refuses numbers ending in 0). */
const newNumber = () => `55219${String(7100000 + ++seq * 7).padStart(7, '0')}1`;

async function account() {
  const customer = await newCustomerWithCalls(ctx, { planType: 'premium' });
  const upload = async (name: string, data: Buffer) => {
    const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie: customer.cookie, file: { name, data } });
    expect(res.statusCode, res.body).toBe(200);
    const id = /([0-9a-f-]{36})$/i.exec(res.json().url as string)?.[1] as string;
    return { id, kind: res.json().kind as string };
  };
  return { ...customer, upload };
}

const fileRule = (trigger: string, type: string, mediaUrl: string, response = '') => ({
  trigger,
  response,
  type,
  buttons: [],
  imageUrl: '',
  mediaUrl,
  isActive: true,
});

describe('bot rules with a file, a location or a contact card', () => {
  it('saves each new type and answers it through the simulator', async () => {
    const { user, cookie, call, upload } = await account();
    const driver = (await connectSimulator(ctx, user.id, cookie)) as SimulatorDriver;
    const pdf = await upload('Catálogo.pdf', PDF);
    const mp3 = await upload('recado.mp3', MP3);
    const video = await upload('produto.mp4', mp4());
    expect([pdf.kind, mp3.kind, video.kind]).toEqual(['document', 'audio', 'video']);

    const saved = await call('POST', '/api/bot-config', {
      autoReplies: [
        fileRule('catalogo', 'document', `upload:${pdf.id}`, 'Segue o catálogo'),
        fileRule('recado', 'audio', `upload:${mp3.id}`, 'Ouça o recado acima'),
        fileRule('video', 'video', `upload:${video.id}`, 'Veja o produto'),
        {
          trigger: 'endereco',
          response: '',
          type: 'location',
          location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Rua A, 1' },
        },
        {
          trigger: 'vendas',
          response: 'Fale com a Ana',
          type: 'contact',
          contactCard: { name: 'Ana Vendas', phone: '(21) 99876-5432' },
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const rules = saved.json().config.autoReplies;
    expect(rules[0]).toMatchObject({
      type: 'document',
      mediaUrl: `upload:${pdf.id}`,
      location: null,
      contactCard: null,
    });
    expect(rules[3]).toMatchObject({
      type: 'location',
      mediaUrl: '',
      location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Rua A, 1' },
    });
    expect(rules[4]).toMatchObject({ type: 'contact', contactCard: { name: 'Ana Vendas', phone: '21998765432' } });

    const ask = async (text: string) => {
      const from = newNumber();
      const before = driver.outbox.length;
      driver.injectInbound(from, text);
      await ctx.app.deps.chatbot.idle();
      return driver.outbox.slice(before).filter((m) => m.to === from);
    };

    const doc = await ask('quero o catalogo');
    expect(doc).toHaveLength(1);
    expect(doc[0].message).toMatchObject({
      kind: 'media',
      media: { kind: 'document', mimeType: 'application/pdf', fileName: 'Catálogo.pdf', file: pdf.id },
      caption: 'Segue o catálogo',
    });
    // The bytes were read from the account's file where it was sent.
    expect(doc[0].read?.bytes).toBe(PDF.length);

    const audio = await ask('recado');
    expect(audio.map((m) => m.message)).toMatchObject([
      { kind: 'media', media: { kind: 'audio', file: mp3.id } },
      { kind: 'text', text: 'Ouça o recado acima' },
    ]);
    expect(audio[0].message).not.toHaveProperty('caption');

    const vid = await ask('video');
    expect(vid.map((m) => m.message)).toMatchObject([
      { kind: 'media', media: { kind: 'video', file: video.id }, caption: 'Veja o produto' },
    ]);

    const place = await ask('endereço');
    expect(place.map((m) => m.message)).toEqual([
      {
        kind: 'location',
        location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Rua A, 1' },
      },
    ]);

    const card = await ask('vendas');
    expect(card.map((m) => m.message)).toEqual([
      { kind: 'contact', contactCard: { name: 'Ana Vendas', phone: '21998765432' } },
      { kind: 'text', text: 'Fale com a Ana' },
    ]);

    // One rule at a time takes them too, and a pause keeps the file.
    const added = await call(
      'POST',
      '/api/bot-config/auto-replies',
      fileRule('manual', 'document', `upload:${pdf.id}`),
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().rule).toMatchObject({ type: 'document', mediaUrl: `upload:${pdf.id}`, response: '' });
    const paused = await call('PUT', `/api/bot-config/auto-replies/${added.json().rule.id}`, {
      ...fileRule('manual', 'document', `upload:${pdf.id}`),
      isActive: false,
    });
    expect(paused.json()).toMatchObject({ message: botMsg.rulePaused, rule: { mediaUrl: `upload:${pdf.id}` } });
  });

  it('keeps a linked file as one of the account’s files', async () => {
    const { call, upload } = await account();
    const pdf = await upload('tabela.pdf', PDF);
    const media = ctx.app.deps.media;
    const original = media.fromLink;
    const links: string[] = [];
    media.fromLink = async (_userId, link) => {
      links.push(link);
      return { id: pdf.id } as Awaited<ReturnType<typeof original>>;
    };
    try {
      const added = await call(
        'POST',
        '/api/bot-config/auto-replies',
        fileRule('tabela', 'document', 'https://arquivos.example.com/tabela.pdf', 'Tabela de preços'),
      );
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().rule.mediaUrl).toBe(`upload:${pdf.id}`);
      expect(links).toEqual(['https://arquivos.example.com/tabela.pdf']);
    } finally {
      media.fromLink = original;
    }
  });

  it('refuses in Portuguese a file of another kind, another account’s file, and missing content', async () => {
    const me = await account();
    const other = await account();
    const mp3 = await me.upload('recado.mp3', MP3);
    const theirs = await other.upload('deles.pdf', PDF);

    const wrongKind = await me.call(
      'POST',
      '/api/bot-config/auto-replies',
      fileRule('a', 'document', `upload:${mp3.id}`),
    );
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().message).toBe(botMsg.mediaWrongKind('um documento', 'um áudio'));

    const foreign = await me.call('POST', '/api/bot-config', {
      autoReplies: [fileRule('b', 'document', `upload:${theirs.id}`)],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(botMsg.mediaNotFound);
    const unknown = await me.call(
      'POST',
      '/api/bot-config/auto-replies',
      fileRule('c', 'document', 'upload:00000000-0000-4000-8000-000000000000'),
    );
    expect(unknown.json().message).toBe(foreign.json().message);

    const noFile = await me.call('POST', '/api/bot-config/auto-replies', fileRule('d', 'video', ''));
    expect(noFile.json().message).toBe(botMsg.mediaRequired);
    const httpLink = await me.call(
      'POST',
      '/api/bot-config/auto-replies',
      fileRule('e', 'video', 'http://x.example.com/v.mp4'),
    );
    expect(httpLink.json().message).toBe(botMsg.mediaInvalid);
    const noPlace = await me.call('POST', '/api/bot-config/auto-replies', {
      trigger: 'f',
      response: '',
      type: 'location',
    });
    expect(noPlace.json().message).toBe(botMsg.locationRequired);
    const badLatitude = await me.call('POST', '/api/bot-config/auto-replies', {
      trigger: 'g',
      response: '',
      type: 'location',
      location: { latitude: 123, longitude: 0 },
    });
    expect(badLatitude.json().message).toBe(sendContentMsg.latitudeInvalid);
    const badPhone = await me.call('POST', '/api/bot-config/auto-replies', {
      trigger: 'h',
      response: '',
      type: 'contact',
      contactCard: { name: 'Ana', phone: '123' },
    });
    expect(badPhone.json().message).toBe(sendContentMsg.contactPhoneInvalid);
    // A text rule still needs its text.
    const noText = await me.call('POST', '/api/bot-config/auto-replies', { trigger: 'i', response: '', type: 'text' });
    expect(noText.json().message).toBe(botMsg.responseRequired);
    expect((await me.call('GET', '/api/bot-config')).json().autoReplies).toEqual([]);
  });
});

import { Readable } from 'node:stream';
import {
  BufferJSON,
  type GroupMetadata,
  initAuthCreds,
  makeEventBuffer,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { WhatsappSession } from '../../../contract/whatsapp';
import { connections, whatsappAuthKeys } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { insertConnection } from '../../testing/connections';
import { createUser, waitFor } from '../../testing/test-app';
import type { InboundMessage, OutgoingMedia, OutgoingMessage, Receipt } from '../driver';
import { ConnectionManager } from '../manager';
import { ConnectionRegistry } from '../registry';
import { type BaileysAuthRuntime, useDatabaseAuthState } from './auth-state';
import { BaileysDriver, type BaileysSocketLike } from './baileys-driver';

const runtime: BaileysAuthRuntime = {
  BufferJSON,
  initAuthCreds,
  appStateSyncKeyFromObject: (v) => proto.Message.AppStateSyncKeyData.fromObject(v as object),
};

const silent = {
  level: 'silent',
  child: () => silent,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** A stand-in for a Baileys socket, built on Baileys' own event emitter. */
class FakeSocket implements BaileysSocketLike {
  ev = makeEventBuffer(silent as never);
  user?: { id: string; lid?: string };
  sent: Array<{ jid: string; content: unknown }> = [];
  ended = false;
  loggedOut = false;
  pairingRequests: string[] = [];
  lids = new Map<string, string>();
  seq = 0;
  signalRepository = { lidMapping: { getPNForLID: async (lid: string) => this.lids.get(lid) ?? null } };

  async sendMessage(jid: string, content: unknown) {
    this.sent.push({ jid, content });
    return { key: { id: `3EB0${++this.seq}`, remoteJid: jid, fromMe: true } } as WAMessage;
  }
  async onWhatsApp(...numbers: string[]) {
    return numbers.map((n) => ({ jid: `${n}@s.whatsapp.net`, exists: !n.endsWith('0') }));
  }
  async groupFetchAllParticipating(): Promise<Record<string, GroupMetadata>> {
    return {
      '1203@g.us': {
        id: '1203@g.us',
        subject: 'Clientes',
        participants: [],
        size: 12,
        owner: undefined,
      } as GroupMetadata,
    };
  }
  async groupMetadata(jid: string): Promise<GroupMetadata> {
    return {
      id: jid,
      subject: 'Clientes',
      owner: undefined,
      participants: [
        { id: '5511911110001@s.whatsapp.net', admin: 'superadmin', notify: 'Ana' },
        { id: '88001@lid', phoneNumber: '5511911110002@s.whatsapp.net', admin: null },
        { id: '88002@lid', admin: null },
        { id: '88003@lid', admin: 'admin' },
      ],
    } as GroupMetadata;
  }
  async requestPairingCode(phone: string) {
    this.pairingRequests.push(phone);
    return 'ABCD1234';
  }
  async logout() {
    this.loggedOut = true;
  }
  end() {
    this.ended = true;
  }
}

const closeWith = (statusCode: number) => ({
  connection: 'close' as const,
  lastDisconnect: {
    error: Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } }),
    date: new Date(),
  },
});

const ctx = appPerFile();

async function harness(opts: { autoReconnect?: boolean } = {}) {
  const user = await createUser(ctx);
  const number = await insertConnection(ctx.database.db, user.id, 'personal');
  const owner = { userId: user.id, connectionId: number.id };
  const sockets: FakeSocket[] = [];
  const states: WhatsappSession[] = [];
  const inbound: InboundMessage[] = [];
  const receipts: Receipt[] = [];
  const driver = new BaileysDriver({
    userId: user.id,
    autoReconnect: opts.autoReconnect ?? true,
    log: ctx.app.log,
    backoffMs: 5,
    fetchImage: async (url) => ({ data: Buffer.from(`bytes of ${url}`), mimeType: 'image/jpeg' }),
    auth: () => useDatabaseAuthState(ctx.database.db, ctx.app.deps.config.ENCRYPTION_KEY, owner, runtime),
    makeSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
  });
  driver.on('connection', (s) => states.push(s));
  driver.on('inbound', (m) => inbound.push(m));
  driver.on('receipt', (r) => receipts.push(r));
  const sock = () => sockets[sockets.length - 1];
  const authRows = () =>
    ctx.database.db.select().from(whatsappAuthKeys).where(eq(whatsappAuthKeys.connectionId, number.id));
  return { user, owner, driver, sockets, sock, states, inbound, receipts, authRows };
}

async function online(h: Awaited<ReturnType<typeof harness>>) {
  await h.driver.connect();
  h.sock().user = { id: '5511987654321:7@s.whatsapp.net' };
  h.sock().ev.emit('connection.update', { connection: 'open' });
  expect(h.driver.status().phoneNumber).toBe('+55 11 98765-4321');
}

describe('Baileys driver against a fake socket', () => {
  it('shows each QR, connects, and reports the number when it appears later', async () => {
    const h = await harness();
    await h.driver.connect();
    expect(h.driver.status().state).toBe('connecting');
    h.sock().ev.emit('connection.update', { qr: '2@first-qr' });
    expect(h.driver.status()).toEqual({ phoneNumber: null, isConnected: false, state: 'qr', qr: '2@first-qr' });
    h.sock().ev.emit('connection.update', { qr: '2@second-qr' });
    expect(h.driver.status().qr).toBe('2@second-qr');

    h.sock().ev.emit('connection.update', { connection: 'open' });
    expect(h.driver.status()).toEqual({ phoneNumber: null, isConnected: true, state: 'connected', qr: null });

    h.sock().user = { id: '5511987654321:12@s.whatsapp.net', lid: '99887766@lid' };
    h.sock().ev.emit('creds.update', { me: { id: '5511987654321:12@s.whatsapp.net' } });
    expect(h.driver.status().phoneNumber).toBe('+55 11 98765-4321');
    expect(h.states.map((s) => s.state)).toEqual(['connecting', 'qr', 'qr', 'connected', 'connected']);
  });

  it('keeps the credentials encrypted in the database, so a restart needs no new QR', async () => {
    const h = await harness();
    await h.driver.connect();
    h.sock().ev.emit('creds.update', {});
    // The save is not awaited by the socket's event: wait for the row rather than a fixed time.
    const rows = await waitFor(h.authRows, (r) => r.length > 0);
    expect(rows.map((r) => r.key)).toEqual(['creds']);
    expect(rows[0].value).not.toContain('noiseKey');

    const again = await useDatabaseAuthState(ctx.database.db, ctx.app.deps.config.ENCRYPTION_KEY, h.owner, runtime);
    expect(again.restored).toBe(true);
    const { creds } = again.state;
    expect(Buffer.isBuffer(creds.noiseKey.private)).toBe(true);

    await again.state.keys.set({ 'pre-key': { '1': { public: Buffer.from([1, 2]), private: Buffer.from([3, 4]) } } });
    const got = await again.state.keys.get('pre-key', ['1', '2']);
    expect(Buffer.from(got['1'].public)).toEqual(Buffer.from([1, 2]));
    expect(got['2']).toBeUndefined();
    await again.state.keys.set({ 'pre-key': { '1': null } });
    expect(await again.state.keys.get('pre-key', ['1'])).toEqual({});
  });

  it('reconnects with backoff after a transient close, and again on restart-required', async () => {
    const h = await harness();
    await online(h);
    h.sock().ev.emit('connection.update', closeWith(428));
    expect(h.driver.status()).toMatchObject({ isConnected: false, state: 'connecting' });
    await waitFor(() => h.sockets.length === 2, Boolean);
    h.sock().user = { id: '5511987654321@s.whatsapp.net' };
    h.sock().ev.emit('connection.update', { connection: 'open' });
    expect(h.driver.status()).toMatchObject({ isConnected: true, phoneNumber: '+55 11 98765-4321' });

    h.sock().ev.emit('connection.update', closeWith(515));
    expect(h.sockets).toHaveLength(3);
    expect(h.states.some((s) => s.state === 'disconnected')).toBe(false);
  });

  it('stays offline after a transient close when auto-reconnect is off', async () => {
    const h = await harness({ autoReconnect: false });
    await online(h);
    h.sock().ev.emit('connection.update', closeWith(428));
    expect(h.driver.status().state).toBe('disconnected');
    await new Promise((r) => setTimeout(r, 30));
    expect(h.sockets).toHaveLength(1);
  });

  it('treats an expired QR as no outage: back to Offline, no reconnect loop', async () => {
    const h = await harness();
    await h.driver.connect();
    h.sock().ev.emit('connection.update', { qr: '2@qr' });
    h.sock().ev.emit('connection.update', closeWith(408));
    expect(h.driver.status()).toEqual({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
    await new Promise((r) => setTimeout(r, 30));
    expect(h.sockets).toHaveLength(1);
  });

  it('clears the auth state when logged out from the phone', async () => {
    const h = await harness();
    await online(h);
    h.sock().ev.emit('creds.update', {});
    expect((await waitFor(h.authRows, (r) => r.length > 0)).length).toBe(1);
    h.sock().ev.emit('connection.update', closeWith(401));
    expect(h.driver.status().state).toBe('disconnected');
    expect(await waitFor(h.authRows, (r) => r.length === 0)).toEqual([]);
    expect(h.sockets).toHaveLength(1);
  });

  it('disconnect with logout unlinks the device and forgets the state; without it only the socket closes', async () => {
    const h = await harness();
    await online(h);
    h.sock().ev.emit('creds.update', {});
    await waitFor(h.authRows, (r) => r.length > 0);
    const first = h.sock();
    await h.driver.disconnect({ logout: false });
    expect(first.ended).toBe(true);
    expect(first.loggedOut).toBe(false);
    expect((await h.authRows()).length).toBe(1);

    await online(h);
    await h.driver.disconnect({ logout: true });
    expect(h.sock().loggedOut).toBe(true);
    expect(await h.authRows()).toEqual([]);
    expect(h.driver.status().state).toBe('disconnected');
  });

  it('asks for a pairing code instead of a QR', async () => {
    const h = await harness();
    const pending = h.driver.connect({ phoneNumber: '+55 (11) 98765-4321' });
    await waitFor(() => h.sockets.length === 1, Boolean);
    h.sock().ev.emit('connection.update', { qr: '2@qr' });
    expect(await pending).toEqual({ pairingCode: 'ABCD-1234' });
    expect(h.sock().pairingRequests).toEqual(['5511987654321']);
    expect(h.driver.status().qr).toBeNull();
  });

  it('sends text, images and buttons as a numbered menu, and maps a numeric reply back to the button', async () => {
    const h = await harness();
    await expect(h.driver.send('5511911112222', { kind: 'text', text: 'oi' })).rejects.toMatchObject({
      kind: 'transient',
    });
    await online(h);
    const { providerMessageId } = await h.driver.send('+55 11 91111-2222', { kind: 'text', text: 'Olá!' });
    expect(providerMessageId).toMatch(/^3EB0/);
    expect(h.sock().sent[0]).toEqual({
      jid: '5511911112222@s.whatsapp.net',
      content: { text: 'Olá!', linkPreview: null },
    });

    await h.driver.send('5511911112222', {
      kind: 'image',
      image: { url: 'https://example.com/a.jpg' },
      caption: 'Promo',
    });
    // The server downloads the image under its outbound rules; Baileys never gets a URL to fetch itself.
    expect(h.sock().sent[1].content).toEqual({
      image: Buffer.from('bytes of https://example.com/a.jpg'),
      caption: 'Promo',
    });

    await h.driver.send('5511911112222', {
      kind: 'interactive',
      text: 'Como posso ajudar?',
      buttons: [
        { id: 'b1', text: 'Preços', type: 'quick_reply', value: 'precos' },
        { id: 'b2', text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
      ],
    });
    expect(h.sock().sent[2].content).toEqual({
      text: 'Como posso ajudar?\n\n1. Preços\n2. Falar com atendente\n\nResponda com o número da opção.',
      linkPreview: null,
    });
    await expect(
      h.driver.send('5511911112222', { kind: 'template', name: 'x', language: 'pt_BR' }),
    ).rejects.toMatchObject({ kind: 'permanent' });

    h.sock().ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { id: 'IN1', remoteJid: '5511911112222@s.whatsapp.net', fromMe: false },
          message: { conversation: '2' },
          messageTimestamp: 1763800000,
          pushName: 'Bia',
        },
      ],
    });
    await waitFor(() => h.inbound.length === 1, Boolean);
    expect(h.inbound[0]).toMatchObject({
      from: '5511911112222',
      text: 'atendente',
      buttonId: 'b2',
      providerMessageId: 'IN1',
      pushName: 'Bia',
    });
  });

  it('sends files streamed from the store, locations and contact cards as Baileys content', async () => {
    const h = await harness();
    await online(h);
    const opened: string[] = [];
    const bytesOf = (name: string) => async () => {
      opened.push(name);
      return (async function* () {
        yield Buffer.from(`${name} part 1 `);
        yield Buffer.from(`${name} part 2`);
      })();
    };
    const media = (
      kind: OutgoingMedia['kind'],
      mimeType: string,
      fileName: string,
      more: Partial<OutgoingMedia> = {},
    ) => ({ kind, mimeType, fileName, file: `file-${fileName}`, open: bytesOf(fileName), ...more }) as OutgoingMedia;
    const to = '5511911112222';
    const sends: OutgoingMessage[] = [
      { kind: 'media', media: media('image', 'image/png', 'a.png'), caption: 'Foto' },
      { kind: 'media', media: media('video', 'video/mp4', 'v.mp4'), caption: 'Vídeo' },
      { kind: 'media', media: media('document', 'application/pdf', 'Tabela.pdf'), caption: 'Preços' },
      { kind: 'media', media: media('audio', 'audio/ogg', 'voz.ogg', { voice: true, durationSeconds: 7 }) },
      { kind: 'media', media: media('audio', 'audio/mpeg', 'musica.mp3', { voice: true }) },
      { kind: 'media', media: media('audio', 'audio/ogg', 'arquivo.ogg') },
      { kind: 'media', media: media('sticker', 'image/webp', 's.webp') },
    ];
    for (const m of sends) await h.driver.send(to, m);
    const contents = h.sock().sent.map((s) => s.content as Record<string, unknown>);
    const streamed = async (upload: unknown) => {
      const { stream } = upload as { stream: Readable };
      expect(stream).toBeInstanceOf(Readable);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(Buffer.from(c));
      return Buffer.concat(chunks).toString();
    };
    const { image, ...imageRest } = contents[0];
    expect(imageRest).toEqual({ mimetype: 'image/png', caption: 'Foto' });
    expect(await streamed(image)).toBe('a.png part 1 a.png part 2');
    const { video, ...videoRest } = contents[1];
    expect(videoRest).toEqual({ mimetype: 'video/mp4', caption: 'Vídeo' });
    expect(await streamed(video)).toBe('v.mp4 part 1 v.mp4 part 2');
    const { document, ...documentRest } = contents[2];
    expect(documentRest).toEqual({ mimetype: 'application/pdf', fileName: 'Tabela.pdf', caption: 'Preços' });
    expect(await streamed(document)).toBe('Tabela.pdf part 1 Tabela.pdf part 2');
    // Only OGG/Opus goes as a voice note; an MP3 marked as voice goes as an audio file.
    const { audio: voice, ...voiceRest } = contents[3];
    expect(voiceRest).toEqual({ mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 7 });
    expect(await streamed(voice)).toBe('voz.ogg part 1 voz.ogg part 2');
    expect({ ...contents[4], audio: undefined }).toEqual({ mimetype: 'audio/mpeg', ptt: false });
    expect({ ...contents[5], audio: undefined }).toEqual({ mimetype: 'audio/ogg', ptt: false });
    expect(Object.keys(contents[6])).toEqual(['sticker']);
    expect(await streamed(contents[6].sticker)).toBe('s.webp part 1 s.webp part 2');
    expect(opened).toEqual(['a.png', 'v.mp4', 'Tabela.pdf', 'voz.ogg', 'musica.mp3', 'arquivo.ogg', 's.webp']);

    // A linked image is downloaded by the server; a link of another kind is not fetched here.
    await h.driver.send(to, {
      kind: 'media',
      media: { kind: 'image', mimeType: 'image/jpeg', fileName: 'x.jpg', url: 'https://example.com/x.jpg' },
      caption: 'Link',
    });
    expect(h.sock().sent.at(-1)?.content).toEqual({
      image: Buffer.from('bytes of https://example.com/x.jpg'),
      mimetype: 'image/jpeg',
      caption: 'Link',
    });
    const count = h.sock().sent.length;
    await expect(
      h.driver.send(to, {
        kind: 'media',
        media: { kind: 'document', mimeType: 'application/pdf', fileName: 'x.pdf', url: 'https://example.com/x.pdf' },
      }),
    ).rejects.toMatchObject({ kind: 'permanent', message: expect.stringMatching(/^Arquivo indisponível/) });
    expect(h.sock().sent).toHaveLength(count);

    await h.driver.send(to, {
      kind: 'location',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'Loja Paulista', address: 'Av. Paulista, 1000' },
    });
    expect(h.sock().sent.at(-1)?.content).toEqual({
      location: {
        degreesLatitude: -23.5613,
        degreesLongitude: -46.6565,
        name: 'Loja Paulista',
        address: 'Av. Paulista, 1000',
      },
    });
    await h.driver.send(to, { kind: 'location', location: { latitude: 1.5, longitude: 2.5 } });
    expect(h.sock().sent.at(-1)?.content).toEqual({ location: { degreesLatitude: 1.5, degreesLongitude: 2.5 } });

    await h.driver.send(to, { kind: 'contact', contactCard: { name: 'Ana; Vendas\nSP', phone: '+55 11 93333-4444' } });
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\\; Vendas\\nSP\nTEL;type=CELL;type=VOICE;waid=5511933334444:+5511933334444\nEND:VCARD';
    expect(h.sock().sent.at(-1)?.content).toEqual({
      contacts: { displayName: 'Ana; Vendas\nSP', contacts: [{ displayName: 'Ana; Vendas\nSP', vcard }] },
    });
    await h.driver.send(to, { kind: 'contact', contactCard: { name: 'Sem número', phone: null } });
    expect(h.sock().sent.at(-1)?.content).toEqual({
      contacts: {
        displayName: 'Sem número',
        contacts: [{ displayName: 'Sem número', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Sem número\nEND:VCARD' }],
      },
    });
  });

  it('emits receipts from message updates with the provider id', async () => {
    const h = await harness();
    await online(h);
    const key = { id: '3EB0X', remoteJid: '5511911112222@s.whatsapp.net', fromMe: true };
    h.sock().ev.emit('messages.update', [
      { key, update: { status: 2 } },
      { key, update: { status: 3 } },
      { key, update: { status: 4 } },
      { key: { ...key, fromMe: false }, update: { status: 4 } },
      { key, update: { status: 0 } },
    ]);
    expect(h.receipts.map((r) => [r.providerMessageId, r.status])).toEqual([
      ['3EB0X', 'sent'],
      ['3EB0X', 'delivered'],
      ['3EB0X', 'read'],
      ['3EB0X', 'failed'],
    ]);
  });

  it('maps LID-addressed inbound messages back to phone numbers and ignores its own messages', async () => {
    const h = await harness();
    await online(h);
    h.sock().lids.set('77001@lid', '5511933334444@s.whatsapp.net');
    h.sock().ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { id: 'A', remoteJid: '77000@lid', remoteJidAlt: '5511922223333@s.whatsapp.net', fromMe: false },
          message: { conversation: 'alt' },
        },
        {
          key: { id: 'B', remoteJid: '77001@lid', fromMe: false },
          message: { extendedTextMessage: { text: 'store' } },
        },
        { key: { id: 'C', remoteJid: '77002@lid', fromMe: false }, message: { conversation: 'unmapped' } },
        {
          key: { id: 'D', remoteJid: '5511911112222@s.whatsapp.net', fromMe: true },
          message: { conversation: 'mine' },
        },
        {
          key: { id: 'E', remoteJid: '1203@g.us', participant: '77001@lid', fromMe: false },
          message: { conversation: 'no grupo' },
        },
      ] as WAMessage[],
    });
    await waitFor(() => h.inbound.length === 4, Boolean);
    const byId = Object.fromEntries(h.inbound.map((m) => [m.providerMessageId, m]));
    expect(byId.A.from).toBe('5511922223333');
    expect(byId.B).toMatchObject({ from: '5511933334444', text: 'store' });
    expect(byId.C.from).toBe('77002');
    expect(byId.D).toBeUndefined();
    expect(byId.E).toMatchObject({ from: '5511933334444', groupId: '1203@g.us' });
  });

  it('emits received files, reactions and unsupported kinds, and skips signalling', async () => {
    const h = await harness();
    await online(h);
    const from = { remoteJid: '5511911112222@s.whatsapp.net', fromMe: false };
    h.sock().ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        { key: { id: 'S', ...from }, message: { senderKeyDistributionMessage: { groupId: 'g' } } },
        { key: { id: 'R', ...from }, message: { protocolMessage: { type: 0 } } },
        {
          key: { id: 'IMG', ...from },
          message: {
            imageMessage: {
              directPath: '/v/t62.7118-24/abc.enc',
              mediaKey: new Uint8Array(32).fill(1),
              mimetype: 'image/jpeg',
              fileLength: 2048,
            },
          },
        },
        { key: { id: 'REA', ...from }, message: { reactionMessage: { key: { id: 'IMG' }, text: '❤️' } } },
        { key: { id: 'POLL', ...from }, message: { pollCreationMessage: { name: 'Qual?' } } },
      ] as WAMessage[],
    });
    await waitFor(() => h.inbound.length === 3, Boolean);
    const byId = Object.fromEntries(h.inbound.map((m) => [m.providerMessageId, m]));
    expect(byId.IMG).toMatchObject({
      from: '5511911112222',
      text: '',
      media: {
        kind: 'image',
        mimeType: 'image/jpeg',
        size: 2048,
        source: { via: 'baileys', directPath: '/v/t62.7118-24/abc.enc', mediaType: 'image' },
      },
    });
    expect(byId.REA).toMatchObject({ text: '', reaction: { emoji: '❤️', providerMessageId: 'IMG' } });
    expect(byId.POLL).toMatchObject({ text: '', unsupported: 'poll' });
    expect(byId.S).toBeUndefined();
    expect(byId.R).toBeUndefined();
  });

  it('checks numbers, lists groups and their participants', async () => {
    const h = await harness();
    await online(h);
    h.sock().lids.set('88003@lid', '5511911110003@s.whatsapp.net');
    expect(await h.driver.checkNumbers(['+55 11 91111-0001', '5511911110000'])).toEqual([
      { number: '+55 11 91111-0001', exists: true },
      { number: '5511911110000', exists: false },
    ]);
    expect(await h.driver.listGroups()).toEqual([{ id: '1203@g.us', name: 'Clientes', membersCount: 12 }]);
    expect(await h.driver.groupParticipants('1203@g.us')).toEqual([
      { id: '5511911110001@s.whatsapp.net', phone: '5511911110001', name: 'Ana', isAdmin: true },
      { id: '88001@lid', phone: '5511911110002', isAdmin: false },
      { id: '88002@lid', phone: null, isAdmin: false },
      { id: '88003@lid', phone: '5511911110003', isAdmin: true },
    ]);
  });
});

describe('the connection manager with the Baileys driver', () => {
  it('reports QR, online and a phone-side logout to the poll, and forgets the connection', async () => {
    const user = await createUser(ctx);
    const sockets: FakeSocket[] = [];
    const registry = new ConnectionRegistry();
    const manager = new ConnectionManager({
      config: { ...ctx.app.deps.config, WHATSAPP_DRIVER: 'baileys' },
      db: ctx.database.db,
      registry,
      log: ctx.app.log,
      createPersonalDriver: async (kind, c) => {
        expect(kind).toBe('baileys');
        return new BaileysDriver({
          userId: c.userId,
          autoReconnect: c.autoReconnect,
          log: c.log,
          fetchImage: async () => {
            throw new Error('no image in this test');
          },
          auth: () => useDatabaseAuthState(c.db, c.config.ENCRYPTION_KEY, c, runtime),
          makeSocket: () => {
            const s = new FakeSocket();
            sockets.push(s);
            return s;
          },
        });
      },
    });
    const poll = () => registry.status({ id: user.id, accountType: 'active' });
    await manager.connect(user.id);
    sockets[0].ev.emit('connection.update', { qr: '2@qr' });
    expect(poll()).toMatchObject({ state: 'qr', qr: '2@qr' });
    sockets[0].user = { id: '5511987654321:3@s.whatsapp.net' };
    sockets[0].ev.emit('connection.update', { connection: 'open' });
    expect(poll()).toMatchObject({ isConnected: true, phoneNumber: '+55 11 98765-4321' });
    expect((await manager.get(user.id))?.kind).toBe('baileys');

    sockets[0].ev.emit('connection.update', closeWith(401));
    expect(poll()).toMatchObject({ isConnected: false, state: 'disconnected' });
    expect(await manager.get(user.id)).toBeNull();
    const row = async () =>
      (await ctx.database.db.select().from(connections).where(eq(connections.userId, user.id)))[0];
    await waitFor(() => true, Boolean);
    await new Promise((r) => setTimeout(r, 50));
    expect((await row()).active).toBe(false);
    await manager.shutdown();
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationMessage } from '../../contract/conversations';
import { appPerFile } from '../testing/app-per-file';
import { apiCall, connectSimulator, createTestApp, newCustomerWithCalls, waitFor } from '../testing/test-app';

/**
 * What a contact sends besides text arrives with its kind, on a personal number (the simulator):
 * a file is recorded at once and fetched into the account's store in the background; the
 * conversation and its list say what came; nobody else reads the bytes.
 */
const ctx = appPerFile(() =>
  createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
    dispatcher: { autoStart: false },
  }),
);

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
// A PDF carrying JavaScript is still a document: served as a download, never rendered.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(3000, 7)]);

async function customer() {
  const c = await newCustomerWithCalls(ctx);
  await connectSimulator(ctx, c.user.id, c.cookie);
  const arrive = async (body: Record<string, unknown>) => {
    const res = await c.call('POST', '/api/whatsapp/simulator/inbound', body);
    expect(res.statusCode, res.body).toBe(200);
    await ctx.app.deps.chatbot.idle();
    return res.json() as { providerMessageId: string };
  };
  const thread = async (phone: string) =>
    ((await c.call('GET', `/api/conversations/${phone}`)).json() as { messages: ConversationMessage[] }).messages;
  const fetched = (phone: string, count: number) =>
    waitFor(
      () => thread(phone),
      (messages) => messages.filter((m) => m.media?.state === 'ready' || m.media?.state === 'failed').length >= count,
      10_000,
    );
  return { ...c, arrive, thread, fetched };
}

describe('receiving every kind of message', () => {
  it('stores an image, a PDF and a voice note byte for byte, with their kind, and serves them to the account only', async () => {
    const me = await customer();
    const from = '5511976541001';
    await me.arrive({ from, media: { kind: 'image', mimeType: 'image/png', dataBase64: PNG.toString('base64') } });
    await me.arrive({
      from,
      text: 'Segue o catálogo',
      media: {
        kind: 'document',
        mimeType: 'application/pdf',
        fileName: 'catalogo.pdf',
        dataBase64: PDF.toString('base64'),
      },
    });
    await me.arrive({
      from,
      media: {
        kind: 'audio',
        mimeType: 'audio/ogg',
        dataBase64: OGG.toString('base64'),
        durationSeconds: 12,
        voice: true,
      },
    });
    const messages = await me.fetched(from, 3);
    const [image, pdf, voice] = messages;
    expect(image).toMatchObject({
      direction: 'in',
      text: '',
      media: { kind: 'image', mimeType: 'image/png', state: 'ready', size: PNG.length },
    });
    expect(pdf).toMatchObject({
      text: 'Segue o catálogo',
      media: { kind: 'document', fileName: 'catalogo.pdf', size: PDF.length },
    });
    expect(voice).toMatchObject({ media: { kind: 'audio', voice: true, durationSeconds: 12 } });

    for (const [message, bytes] of [
      [image, PNG],
      [pdf, PDF],
      [voice, OGG],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: message.media?.url ?? '',
        headers: { cookie: me.cookie },
      });
      expect(res.statusCode).toBe(200);
      expect(sha(res.rawPayload)).toBe(sha(bytes));
    }
    const doc = await ctx.app.inject({ method: 'GET', url: pdf.media?.url ?? '', headers: { cookie: me.cookie } });
    expect(doc.headers['content-disposition']).toMatch(/^attachment; filename="catalogo.pdf"/);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.headers['x-content-type-options']).toBe('nosniff');
    const img = await ctx.app.inject({ method: 'GET', url: image.media?.url ?? '', headers: { cookie: me.cookie } });
    expect(img.headers['content-disposition']).toMatch(/^inline/);

    // Another account: as unknown as a missing file.
    const other = await newCustomerWithCalls(ctx);
    const stranger = await apiCall(ctx, 'GET', pdf.media?.url ?? '', { cookie: other.cookie });
    expect(stranger.statusCode).toBe(404);

    // The list says what came last.
    const list = (await me.call('GET', '/api/conversations')).json() as {
      conversations: Array<{ phone: string; lastMessageText: string }>;
    };
    expect(list.conversations.find((c) => c.phone === from)?.lastMessageText).toBe('🎤 Áudio 0:12');
  });

  it('shows a location, a contact card, a reaction, a reply and an unknown kind; nothing arrives empty', async () => {
    const me = await customer();
    const from = '5511976541002';
    const first = await me.arrive({ from, text: 'Oi, tudo bem?' });
    await me.arrive({
      from,
      location: { latitude: -23.5614, longitude: -46.6559, name: 'Loja Paulista', address: 'Av. Paulista, 1000' },
    });
    await me.arrive({ from, contactCard: { name: 'Maria Souza', phone: '5511988887777' } });
    await me.arrive({ from, reaction: { emoji: '👍', providerMessageId: first.providerMessageId } });
    await me.arrive({ from, text: 'Respondendo', replyTo: first.providerMessageId });
    await me.arrive({ from, unsupported: 'poll' });
    const messages = await me.thread(from);
    expect(messages).toHaveLength(6);
    const [hello, place, card, reaction, reply, poll] = messages;
    expect(place.location).toEqual({
      latitude: -23.5614,
      longitude: -46.6559,
      name: 'Loja Paulista',
      address: 'Av. Paulista, 1000',
    });
    expect(card.contactCard).toEqual({ name: 'Maria Souza', phone: '5511988887777' });
    expect(reaction.reaction).toEqual({ emoji: '👍', messageId: hello.id });
    expect(reply.replyTo).toEqual({ messageId: hello.id, preview: 'Oi, tudo bem?' });
    expect(poll).toMatchObject({ text: 'Mensagem de tipo não suportado: poll', unsupported: 'poll' });
    for (const m of messages) {
      expect(Boolean(m.text || m.media || m.location || m.contactCard || m.reaction)).toBe(true);
    }
    const list = (await me.call('GET', '/api/conversations')).json() as {
      conversations: Array<{ phone: string; lastMessageText: string }>;
    };
    expect(list.conversations.find((c) => c.phone === from)?.lastMessageText).toBe(
      'Mensagem de tipo não suportado: poll',
    );
  });

  it('welcomes a first message that is a file, but matches no keyword with it and answers no reaction', async () => {
    const me = await customer();
    const saved = await me.call('POST', '/api/bot-config', {
      welcomeMessage: 'Olá! Bem-vindo.',
      autoReplies: [{ trigger: 'foto', response: 'Resposta da palavra-chave', type: 'text' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const from = '5511976541003';
    const photo = await me.arrive({
      from,
      text: '',
      media: { kind: 'image', mimeType: 'image/png', fileName: 'foto', dataBase64: PNG.toString('base64') },
    });
    await me.arrive({ from, media: { kind: 'sticker', mimeType: 'image/webp', dataBase64: PNG.toString('base64') } });
    await me.arrive({ from, reaction: { emoji: '❤️', providerMessageId: photo.providerMessageId } });
    const messages = await me.thread(from);
    const replies = messages.filter((m) => m.direction === 'out').map((m) => m.text);
    expect(replies).toEqual(['Olá! Bem-vindo.']);
  });

  it('keeps no copy of a file whose message could not be injected (the number is offline)', async () => {
    const me = await customer();
    const store = ctx.app.deps.media.store;
    const keys: string[] = [];
    const put = store.put.bind(store);
    const spy = vi.spyOn(store, 'put').mockImplementation((key, body, max) => {
      keys.push(key);
      return put(key, body, max);
    });
    try {
      expect((await me.call('POST', '/api/whatsapp/disconnect')).statusCode).toBeLessThan(300);
      const res = await me.call('POST', '/api/whatsapp/simulator/inbound', {
        from: '5521977776666',
        media: { kind: 'document', mimeType: 'application/pdf', fileName: 'x.pdf', dataBase64: PDF.toString('base64') },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    } finally {
      spy.mockRestore();
    }
    expect(keys).toHaveLength(1);
    expect(await store.get(keys[0])).toBeNull();
  });

  it('answers 409 while a file is still being fetched, in Portuguese', async () => {
    const me = await customer();
    const from = '5511976541004';
    await ctx.app.deps.jobs.stop();
    try {
      await me.arrive({ from, media: { kind: 'image', mimeType: 'image/png', dataBase64: PNG.toString('base64') } });
      const [message] = await me.thread(from);
      expect(message.media?.state).toBe('pending');
      const res = await apiCall(ctx, 'GET', message.media?.url ?? '', { cookie: me.cookie });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/ainda está sendo baixado/);
    } finally {
      await ctx.app.deps.jobs.start();
    }
    const [done] = await me.fetched(from, 1);
    expect(done.media?.state).toBe('ready');
  });
});

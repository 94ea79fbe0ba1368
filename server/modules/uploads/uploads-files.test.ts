import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationMessage } from '../../../contract/conversations';
import { NOT_ACCEPTED } from '../../media/file-type';
import { appPerFile } from '../../testing/app-per-file';
import { multipart } from '../../testing/multipart';
import { apiCall, connectSimulator, createTestApp, newCustomerWithCalls, waitFor } from '../../testing/test-app';

/**
 * Any file a person sends: stored by what its bytes are into the media store, served to the account
 * only as a download, and sent from 'Conversas' as its kind, the text as its caption where WhatsApp
 * takes one.
 */
const ctx = appPerFile(() =>
  createTestApp({ WHATSAPP_DRIVER: 'simulator' }, undefined, {
    simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
    dispatcher: { autoStart: false },
  }),
);

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200_000), Buffer.from('\n%%EOF\n')]);
const MP3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), randomBytes(5000)]);

function upload(cookie: string, name: string, data: Buffer, query = '') {
  const body = multipart(name, data);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/uploads${query}`,
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
}

interface Sent {
  to: string;
  kind?: string;
  mediaKind?: string;
  fileName?: string;
  caption?: string;
  sha256?: string;
  mediaBytes?: number;
  voice?: boolean;
}

describe('uploading any file', () => {
  it('keeps a PDF in the media store, byte for byte, served as a download to its account only', async () => {
    const { cookie } = await newCustomerWithCalls(ctx);
    const res = await upload(cookie, 'C:\\fakepath\\Catálogo 2026.pdf', PDF);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'document',
      mimeType: 'application/pdf',
      fileName: 'Catálogo 2026.pdf',
      size: PDF.length,
    });
    const served = await apiCall(ctx, 'GET', res.json().url, { cookie });
    expect(served.statusCode).toBe(200);
    expect(sha(served.rawPayload)).toBe(sha(PDF));
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    const other = await newCustomerWithCalls(ctx);
    expect((await apiCall(ctx, 'GET', res.json().url, { cookie: other.cookie })).statusCode).toBe(404);
  });

  it('refuses an executable renamed .pdf, and a video over 16 MB, in Portuguese', async () => {
    const { cookie } = await newCustomerWithCalls(ctx);
    const exe = await upload(cookie, 'boleto.pdf', Buffer.concat([Buffer.from('MZ'), randomBytes(2000)]));
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({ code: 'VALIDATION', message: NOT_ACCEPTED });
    const mp4Head = Buffer.from('000000186674797069736f6d0000020069736f6d6d703432', 'hex');
    const big = await upload(cookie, 'video.mp4', Buffer.concat([mp4Head, Buffer.alloc(17 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/16 MB/);
  });
});

describe('sending a file from Conversas', () => {
  async function conversation() {
    const me = await newCustomerWithCalls(ctx);
    await connectSimulator(ctx, me.user.id, me.cookie);
    const from = `55119765${String(Math.floor(Math.random() * 90000) + 10000)}1`;
    await me.call('POST', '/api/whatsapp/simulator/inbound', { from, text: 'Oi' });
    await ctx.app.deps.chatbot.idle();
    const outbox = async () =>
      ((await me.call('GET', '/api/whatsapp/simulator/outbox')).json() as { messages: Sent[] }).messages.filter(
        (m) => m.to === from,
      );
    return { ...me, from, outbox };
  }

  it('sends a document with its text as the caption, and an audio with the text after it', async () => {
    const me = await conversation();
    const pdf = (await upload(me.cookie, 'tabela.pdf', PDF)).json();
    const sent = await me.call('POST', `/api/conversations/${me.from}/messages`, {
      text: 'Segue a tabela',
      mediaUrl: `upload:${pdf.id}`,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const mp3 = (await upload(me.cookie, 'jingle.mp3', MP3)).json();
    expect(mp3).toMatchObject({ kind: 'audio', mimeType: 'audio/mpeg' });
    const audio = await me.call('POST', `/api/conversations/${me.from}/messages`, { text: 'Ouça', mediaUrl: mp3.url });
    expect(audio.statusCode, audio.body).toBe(200);

    const outbox = await me.outbox();
    expect(outbox.map((m) => [m.kind, m.mediaKind ?? null, m.caption ?? null])).toEqual([
      ['media', 'document', 'Segue a tabela'],
      ['media', 'audio', null],
      ['text', null, null],
    ]);
    expect(outbox[0]).toMatchObject({ fileName: 'tabela.pdf', sha256: sha(PDF), mediaBytes: PDF.length });
    // An MP3 is an audio file, never a voice note.
    expect(outbox[1].voice ?? false).toBe(false);

    const thread = (await me.call('GET', `/api/conversations/${me.from}`)).json() as {
      messages: ConversationMessage[];
    };
    const out = thread.messages.filter((m) => m.direction === 'out');
    expect(out.map((m) => [m.text, m.media?.kind ?? null])).toEqual([
      ['Segue a tabela', 'document'],
      ['', 'audio'],
      ['Ouça', null],
    ]);
    const list = (await me.call('GET', '/api/conversations')).json() as {
      conversations: Array<{ phone: string; lastMessageText: string }>;
    };
    expect(list.conversations.find((c) => c.phone === me.from)?.lastMessageText).toBe('Ouça');
  });

  it('refuses another account’s file and a link that is not https, losing nothing', async () => {
    const me = await conversation();
    const other = await newCustomerWithCalls(ctx);
    const theirs = (await upload(other.cookie, 'deles.pdf', PDF)).json();
    for (const mediaUrl of [`upload:${theirs.id}`, theirs.url, 'http://exemplo.com/a.png', 'javascript:alert(1)']) {
      const res = await me.call('POST', `/api/conversations/${me.from}/messages`, { text: 'x', mediaUrl });
      expect(res.statusCode, mediaUrl).toBe(400);
      expect(res.json().message).toBe('Arquivo não encontrado. Anexe o arquivo novamente.');
    }
    expect(await me.outbox()).toEqual([]);
  });

  it('sends a linked file of any kind as the account’s file, fetched once, and shows it in the thread', async () => {
    const me = await conversation();
    const stored = (await upload(me.cookie, 'tabela.pdf', PDF)).json();
    const fromLink = vi.spyOn(ctx.app.deps.media, 'fromLink').mockResolvedValue(stored);
    try {
      const res = await me.call('POST', `/api/conversations/${me.from}/messages`, {
        text: 'Tabela',
        mediaUrl: 'https://loja.example.com/tabela.pdf',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(fromLink).toHaveBeenCalledTimes(1);
      expect(fromLink).toHaveBeenCalledWith(me.user.id, 'https://loja.example.com/tabela.pdf');
    } finally {
      fromLink.mockRestore();
    }
    const sent = await waitFor(me.outbox, (o) => o.length === 1);
    expect(sent[0]).toMatchObject({
      mediaKind: 'document',
      fileName: 'tabela.pdf',
      caption: 'Tabela',
      sha256: sha(PDF),
    });
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../contract/conversations';
import { appWithGraphPerFile } from '../testing/app-per-file';
import { cloudCustomer } from '../testing/cloud-account';
import { apiCall, newCustomerWithCalls, waitFor } from '../testing/test-app';

/**
 * Files received over the Cloud API webhook: the delivery is answered without a Graph call, and the
 * background fetch asks `GET /{media-id}` with the number's token, reads the URL it answers, and
 * keeps the same bytes for the account alone.
 */
const { ctx, graph } = appWithGraphPerFile({ WHATSAPP_DRIVER: 'simulator' }, { dispatcher: { autoStart: false } });
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const SECRET = 'segredo-midia';

async function cloud(phoneNumberId: string) {
  const customer = await cloudCustomer(ctx, graph, {
    phoneNumberId,
    displayPhoneNumber: '551130007777',
    verifiedName: 'Loja Arquivos',
    businessAccountId: '301',
    appSecret: SECRET,
    profileName: 'Cris Cliente',
  });
  const thread = async (phone: string) =>
    (
      (await customer.call('GET', `/api/conversations/${phone}?limit=200`)).json() as {
        messages: ConversationMessage[];
      }
    ).messages;
  return { ...customer, thread };
}

const mediaLookups = () => graph.requests.filter((r) => r.method === 'GET' && /^\/v[\d.]+\/\d+$/.test(r.path)).length;

describe('receiving files over the Cloud API', () => {
  it('fetches a document, a voice note and a photo by media id off the webhook path, byte for byte', async () => {
    const me = await cloud('880001');
    const from = '5511976542001';
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(300_000)]);
    const voice = Buffer.concat([Buffer.from('OggS'), randomBytes(20_000)]);
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(40_000)]);
    const pdfId = graph.addMedia(pdf, 'application/pdf');
    const voiceId = graph.addMedia(voice, 'audio/ogg; codecs=opus');
    const photoId = graph.addMedia(photo, 'image/jpeg');
    const before = mediaLookups();
    for (const [i, message] of [
      {
        type: 'document',
        document: { id: pdfId, mime_type: 'application/pdf', filename: 'tabela.pdf', caption: 'Tabela' },
      },
      { type: 'audio', audio: { id: voiceId, mime_type: 'audio/ogg; codecs=opus', voice: true } },
      { type: 'image', image: { id: photoId, mime_type: 'image/jpeg' } },
    ].entries()) {
      const res = await me.deliver(from, message, `wamid.MEDIA${i}${Date.now()}`);
      expect(res.statusCode).toBe(200);
    }
    await ctx.app.deps.cloudApi.settled();
    await ctx.app.deps.chatbot.idle();
    const messages = await waitFor(
      () => me.thread(from),
      (m) => m.filter((x) => x.media?.state === 'ready').length === 3,
      10_000,
    );
    expect(mediaLookups() - before).toBe(3);
    const [doc, audio, image] = messages.filter((m) => m.direction === 'in');
    expect(doc).toMatchObject({
      text: 'Tabela',
      media: { kind: 'document', fileName: 'tabela.pdf', size: pdf.length },
    });
    expect(audio).toMatchObject({ text: '', media: { kind: 'audio', voice: true, mimeType: 'audio/ogg' } });
    expect(image).toMatchObject({ media: { kind: 'image', mimeType: 'image/jpeg' } });
    for (const [m, bytes] of [
      [doc, pdf],
      [audio, voice],
      [image, photo],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url: m.media?.url ?? '', headers: { cookie: me.cookie } });
      expect(res.statusCode).toBe(200);
      expect(sha(res.rawPayload)).toBe(sha(bytes));
    }
    const other = await newCustomerWithCalls(ctx);
    expect((await apiCall(ctx, 'GET', doc.media?.url ?? '', { cookie: other.cookie })).statusCode).toBe(404);
    const list = (await me.call('GET', '/api/conversations')).json() as {
      conversations: Array<{ phone: string; lastMessageText: string }>;
    };
    expect(list.conversations.find((c) => c.phone === from)?.lastMessageText).toBe('📷 Foto');
  });

  it('answers a webhook of 50 files without asking Graph for any of them', async () => {
    const me = await cloud('880002');
    const ids = Array.from({ length: 50 }, (_, i) => graph.addMedia(Buffer.from(`%PDF-1.4 ${i}`), 'application/pdf'));
    const before = mediaLookups();
    const from = '5511976542002';
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '301',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551130007777', phone_number_id: '880002' },
                contacts: [{ profile: { name: 'Cris' }, wa_id: from }],
                messages: ids.map((id, i) => ({
                  from,
                  id: `wamid.BULK${i}${Date.now()}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'document',
                  document: { id, mime_type: 'application/pdf', filename: `doc-${i}.pdf` },
                })),
              },
            },
          ],
        },
      ],
    });
    const { signBody } = await import('../whatsapp/cloud-api/webhook');
    const res = await ctx.app.inject({
      method: 'POST',
      url: me.webhookPath,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, SECRET) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    // Answered before any file was looked up: the fetches are jobs.
    expect(mediaLookups() - before).toBe(0);
    await ctx.app.deps.cloudApi.settled();
    await ctx.app.deps.chatbot.idle();
    const messages = await waitFor(
      () => me.thread(from),
      (m) => m.filter((x) => x.media?.state === 'ready').length === 50,
      20_000,
    );
    expect(messages.filter((m) => m.media?.kind === 'document')).toHaveLength(50);
  });

  it('marks a file Meta no longer has as failed, with the message saying so', async () => {
    const me = await cloud('880003');
    const from = '5511976542003';
    const res = await me.deliver(
      from,
      { type: 'image', image: { id: '999999999', mime_type: 'image/jpeg' } },
      `wamid.GONE${Date.now()}`,
    );
    expect(res.statusCode).toBe(200);
    await ctx.app.deps.cloudApi.settled();
    await ctx.app.deps.chatbot.idle();
    const [message] = await waitFor(
      () => me.thread(from),
      (m) => m[0]?.media?.state === 'failed',
      10_000,
    );
    const served = await apiCall(ctx, 'GET', message.media?.url ?? '', { cookie: me.cookie });
    expect(served.statusCode).toBe(404);
    expect(served.json().message).toBe('Não foi possível baixar este arquivo do WhatsApp.');
  });
});

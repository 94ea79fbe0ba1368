import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaMsg } from '../../contract/media';
import { rowsOf } from '../db/rows';
import { autoReplies, botConfigs, campaigns, savedMessages } from '../db/schema';
import {
  fetchLinkedImage,
  guardedLookup,
  isPublicAddress,
  linkedImageFetcher,
  linkProblem,
  OutboundFetchError,
} from '../lib/outbound-fetch';
import { updateAccountSettings } from '../modules/settings';
import { cloudWebhookBody } from '../testing/cloud-account';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { multipart } from '../testing/multipart';
import { apiFetch, listen } from '../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';
import { signBody } from '../whatsapp/cloud-api/webhook';

/**
 * Server-side request forgery: an image link is the one URL a customer makes the server fetch.
 * A canary on loopback counts every connection it gets: none of the spellings of an internal
 * address may reach it, by link, by redirect, or through a send.
 */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

interface Canary {
  server: Server;
  port: number;
  connections: number;
  /** Bytes the canary managed to write of its endless answer. */
  bigWritten: number;
}

function startCanary(host: string, redirectTo?: () => string): Promise<Canary> {
  const canary = { connections: 0, bigWritten: 0 } as Canary;
  canary.server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/img.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else if (path === '/disguised.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>');
    } else if (path === '/big.png') {
      // 50 MB without a length: only a byte cap stops it.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (canary.bigWritten < 50 * 1024 * 1024) {
          canary.bigWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    } else if (path === '/hang') {
      // Never answers.
    } else if (path.startsWith('/hop/')) {
      const left = Number(path.slice(5));
      res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/img.png' }).end();
    } else if (path === '/to-elsewhere' && redirectTo) {
      res.writeHead(302, { location: redirectTo() }).end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"internal"}');
    }
  });
  canary.server.on('connection', () => {
    canary.connections++;
  });
  return new Promise((resolve) =>
    canary.server.listen(0, host, () => {
      canary.port = (canary.server.address() as AddressInfo).port;
      resolve(canary);
    }),
  );
}

const stop = (c: Canary) =>
  new Promise<void>((resolve) => {
    c.server.closeAllConnections();
    c.server.close(() => resolve());
  });

/** Every spelling of this machine's loopback the probe used, on one port. */
const loopbackSpellings = (port: number) => [
  `http://127.0.0.1:${port}/img.png`,
  `http://localhost:${port}/img.png`,
  `http://LOCALHOST.:${port}/img.png`,
  `http://0.0.0.0:${port}/img.png`,
  `http://2130706433:${port}/img.png`,
  `http://0x7f000001:${port}/img.png`,
  `http://127.1:${port}/img.png`,
  `http://0177.0.0.1:${port}/img.png`,
  `http://[::ffff:127.0.0.1]:${port}/img.png`,
  `http://[::1]:${port}/img.png`,
  `http://[::]:${port}/img.png`,
  `http://127.0.0.1.:${port}/img.png`,
];

let canary: Canary;
let local2: Canary;
beforeAll(async () => {
  canary = await startCanary('127.0.0.1');
  local2 = await startCanary('127.0.0.2', () => `http://127.0.0.1:${canary.port}/img.png`);
});
afterAll(async () => {
  await stop(canary);
  await stop(local2);
});

describe('which addresses are public', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified, reserved and IPv4 carried in IPv6', () => {
    const refused = [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '0.0.0.0',
      '0.1.2.3',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2001:0:7f00:1::1',
      '2001:db8::1',
      '100::1',
      'not-an-ip',
    ];
    for (const address of refused) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['8.8.8.8', '1.1.1.1', '200.160.2.3', '2001:4860:4860::8888', '2a03:2880:f10c::1'])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('judges links by their normalised host before any lookup', () => {
    const none = { allowPrivate: false };
    for (const link of loopbackSpellings(80)) expect(linkProblem(link, none), link).not.toBeNull();
    // A leading zero is octal to the URL parser and to the network stack alike: 012.0.0.1 is 10.0.0.1.
    for (const link of ['http://012.0.0.1/a.png', 'http://0xA9.254.169.254/a.png', 'http://3232235521/a.png'])
      expect(linkProblem(link, none), link).not.toBeNull();
    for (const link of ['http://intranet/a.png', 'http://printer.local/a.png', 'http://x.internal/a.png'])
      expect(linkProblem(link, none), link).not.toBeNull();
    expect(linkProblem('http://user:pw@cdn.example.com/a.png', none)).not.toBeNull();
    expect(linkProblem('ftp://cdn.example.com/a.png', none)).not.toBeNull();
    expect(linkProblem('https://cdn.example.com/a.png', none)).toBeNull();
    expect(linkProblem('http://127.0.0.1/a.png', { allowPrivate: true })).toBeNull();
    expect(linkProblem('http://127.0.0.2/a.png', { allowPrivate: ['127.0.0.2'] })).toBeNull();
    expect(linkProblem('http://127.0.0.1/a.png', { allowPrivate: ['127.0.0.2'] })).not.toBeNull();
  });

  it('answers a lookup only with addresses it checked', async () => {
    const lookup = guardedLookup({ allowPrivate: false });
    const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(OutboundFetchError);
    const allowed = guardedLookup({ allowPrivate: true });
    const address = await new Promise<string>((resolve, reject) =>
      allowed('localhost', {}, (e, a) => (e ? reject(e) : resolve(String(a)))),
    );
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('fetchLinkedImage', () => {
  const only2 = { allowPrivate: ['127.0.0.2'] };

  it('reaches none of the loopback spellings', async () => {
    const before = canary.connections;
    for (const link of loopbackSpellings(canary.port)) {
      await expect(fetchLinkedImage(link, { allowPrivate: false }), link).rejects.toThrow(mediaMsg.imageUnavailable);
    }
    expect(canary.connections).toBe(before);
  });

  it('tells the log why a link was refused, never the customer', async () => {
    const logged: Array<{ obj: object; msg: string }> = [];
    const fetchImage = linkedImageFetcher({ allowPrivate: false }, { warn: (obj, msg) => logged.push({ obj, msg }) });
    await expect(fetchImage(`http://127.1:${canary.port}/img.png?token=segredo`)).rejects.toThrow(
      mediaMsg.imageUnavailable,
    );
    expect(logged).toEqual([
      { obj: { reason: 'private address', host: `127.0.0.1:${canary.port}` }, msg: 'image link refused' },
    ]);
  });

  it('downloads an allowed image, and checks every redirect hop against the same rules', async () => {
    const image = await fetchLinkedImage(`http://127.0.0.2:${local2.port}/img.png`, only2);
    expect(image).toEqual({ data: PNG, mimeType: 'image/png' });
    expect(await fetchLinkedImage(`http://127.0.0.2:${local2.port}/hop/2`, only2)).toMatchObject({ data: PNG });

    const before = canary.connections;
    await expect(fetchLinkedImage(`http://127.0.0.2:${local2.port}/to-elsewhere`, only2)).rejects.toBeInstanceOf(
      OutboundFetchError,
    );
    expect(canary.connections).toBe(before);
    // Three redirects at most.
    await expect(fetchLinkedImage(`http://127.0.0.2:${local2.port}/hop/3`, only2)).rejects.toBeInstanceOf(
      OutboundFetchError,
    );
  });

  it('caps the bytes, the time and the type, with one message for every reason', async () => {
    const started = Date.now();
    const rss = process.memoryUsage().rss;
    await expect(fetchLinkedImage(`http://127.0.0.2:${local2.port}/big.png`, only2)).rejects.toThrow(
      mediaMsg.imageUnavailable,
    );
    expect(local2.bigWritten).toBeLessThan(50 * 1024 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(40 * 1024 * 1024);

    await expect(fetchLinkedImage(`http://127.0.0.2:${local2.port}/hang`, only2, { timeoutMs: 300 })).rejects.toThrow(
      mediaMsg.imageUnavailable,
    );
    expect(Date.now() - started).toBeLessThan(5_000);

    for (const path of ['/data.json', '/disguised.png']) {
      await expect(fetchLinkedImage(`http://127.0.0.2:${local2.port}${path}`, only2), path).rejects.toThrow(
        mediaMsg.imageUnavailable,
      );
    }
  });
});

describe('over HTTP', () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let base: string;
  let owner: { id: string; cookie: string };
  let webhookPath: string;

  beforeAll(async () => {
    graph = await new FakeGraphApi().start();
    ctx = await createTestApp({ GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0' });
    base = `http://127.0.0.1:${await listen(ctx)}`;
    const customer = await newCustomer(ctx);
    owner = { id: customer.user.id, cookie: customer.cookie };
    graph.addPhone('1099000000001', 'EAAG-outbound-token', '551130009999', 'Loja', { businessAccountId: '2099' });
    const configured = await apiFetch(base, owner.cookie, 'POST', '/api/whatsapp-business/configure', {
      accessToken: 'EAAG-outbound-token',
      phoneNumberId: '1099000000001',
      businessAccountId: '2099',
      appSecret: 'segredo-do-app',
    });
    expect(configured.status, configured.text).toBe(200);
    webhookPath = configured.body.config.webhookPath;
    await updateAccountSettings(ctx.database.db, owner.id, { channel: 'cloud' });
  });
  afterAll(async () => {
    await ctx.close();
    await graph.stop();
  });

  it('refuses an internal image link when a campaign, a saved message or a bot rule is saved', async () => {
    const campaignWithImage = (name: string, imageUrl: string) =>
      apiFetch(base, owner.cookie, 'POST', '/api/campaigns', { name, message: 'oi', targetType: 'all', imageUrl });
    for (const link of loopbackSpellings(canary.port)) {
      const campaign = await campaignWithImage('x', link);
      expect(campaign.status, link).toBe(400);
      expect(campaign.body.message, link).toBe(mediaMsg.imageUrlNotPublic);
    }
    const message = await apiFetch(base, owner.cookie, 'POST', '/api/messages', {
      title: 'Oferta',
      type: 'contacts',
      enableMessage: true,
      hasImage: true,
      imageUrl: `http://0x7f000001:${canary.port}/img.png`,
      imageFile: null,
      content: 'Olá',
      contentType: 'text',
    });
    expect(message.status).toBe(400);
    expect(message.body.fieldErrors).toEqual({ imageUrl: mediaMsg.imageUrlNotPublic });
    const bot = await apiFetch(base, owner.cookie, 'POST', '/api/bot-config', {
      autoReplies: [
        { trigger: 'foto', response: 'Veja', type: 'image', imageUrl: `http://[::ffff:127.0.0.1]:${canary.port}/` },
      ],
    });
    expect(bot.status).toBe(400);
    expect(bot.body.fieldErrors).toEqual({ 'autoReplies.0.imageUrl': mediaMsg.imageUrlNotPublic });
    // A public link is still saved as before (nothing is fetched at save time).
    const ok = await campaignWithImage('ok', 'https://exemplo.com.br/oferta.png');
    expect(ok.status, ok.text).toBe(200);
  });

  it('refuses a backup whose campaign, saved message or bot rule links an internal image', async () => {
    const exported = await fetch(`${base}/api/backup`, { headers: { cookie: owner.cookie } });
    expect(exported.status).toBe(200);
    const backup = (await exported.json()) as Record<string, unknown>;
    const link = `http://[::ffff:127.0.0.1]:${canary.port}/img.png`;
    const campaigns = backup.campaigns as Array<Record<string, unknown>>;
    expect(campaigns.length).toBeGreaterThan(0);
    const variants: Array<[string, Record<string, unknown>]> = [
      ['campaigns.0.imageUrl', { campaigns: [{ ...campaigns[0], imageUrl: link }] }],
      [
        'savedMessages.0.imageUrl',
        {
          savedMessages: [
            {
              title: 'Velha',
              type: 'contacts',
              enableMessage: true,
              content: 'Oi',
              contentType: 'text',
              hasImage: true,
              imageUrl: link,
              imageFile: null,
            },
          ],
        },
      ],
      [
        'bot.autoReplies.0.imageUrl',
        {
          bot: {
            ...(backup.bot as Record<string, unknown>),
            autoReplies: [{ trigger: 'vitrine', response: 'Veja', type: 'image', imageUrl: link }],
          },
        },
      ],
    ];
    for (const [field, change] of variants) {
      const body = multipart('backup.json', JSON.stringify({ ...backup, ...change }));
      const res = await fetch(`${base}/api/backup/restore`, {
        method: 'POST',
        headers: { ...body.headers, cookie: owner.cookie, origin: base },
        body: new Uint8Array(body.payload),
      });
      const answer = (await res.json()) as { message: string; fieldErrors?: Record<string, string> };
      expect(res.status, `${field}: ${JSON.stringify(answer)}`).toBe(400);
      expect(JSON.stringify(answer), field).toContain(mediaMsg.imageUrlNotPublic);
    }
  });

  it('refuses a campaign built from a saved message whose stored image link is internal', async () => {
    const [saved] = await ctx.database.db
      .insert(savedMessages)
      .values({
        userId: owner.id,
        title: 'Antiga',
        content: 'Oi',
        hasImage: true,
        imageUrl: `http://127.1:${canary.port}/img.png`,
      })
      .returning();
    const res = await apiFetch(base, owner.cookie, 'POST', '/api/campaigns', {
      name: 'da mensagem',
      message: 'oi',
      targetType: 'all',
      savedMessageId: saved.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(mediaMsg.imageUrlNotPublic);
  });

  it('never fetches the image of a bot rule stored before, when an inbound message fires it', async () => {
    const db = ctx.database.db;
    await db.insert(botConfigs).values({ userId: owner.id, isEnabled: true, welcomeMessage: '' });
    await db.insert(autoReplies).values({
      userId: owner.id,
      trigger: 'foto',
      response: 'Veja nossa vitrine',
      type: 'image',
      imageUrl: `http://0177.0.0.1:${canary.port}/img.png`,
      position: 0,
    });
    const before = canary.connections;
    const uploads = graph.media.length;
    const body = cloudWebhookBody('2099', {
      metadata: { phone_number_id: '1099000000001' },
      messages: [{ from: '5511987650001', id: 'wamid.ssrf-bot', type: 'text', text: { body: 'foto' } }],
    });
    const res = await fetch(`${base}${webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, 'segredo-do-app') },
      body,
    });
    expect(res.status).toBe(200);
    await ctx.app.deps.cloudApi.settled();
    await ctx.app.deps.chatbot.idle();
    // The rule fired (its message was stored) and its image was never fetched nor uploaded.
    const [stored] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from conversation_messages where user_id = ${owner.id} and direction = 'out'`,
      ),
    );
    expect(stored.n).toBeGreaterThan(0);
    expect(canary.connections).toBe(before);
    expect(graph.media.length).toBe(uploads);
  });

  it('never fetches an internal link stored before, and answers an open and a closed port alike', async () => {
    const db = ctx.database.db;
    const closed = await startCanary('127.0.0.1');
    const closedPort = closed.port;
    await stop(closed);
    const answers: Array<{ status: number; body: unknown }> = [];
    const before = canary.connections;
    const uploads = graph.media.length;
    for (const link of [`http://127.0.0.1:${canary.port}/data.json`, `http://127.0.0.1:${closedPort}/data.json`]) {
      const [c] = await db
        .insert(campaigns)
        .values({ userId: owner.id, name: 'velha', message: 'Oi', imageUrl: link })
        .returning();
      const res = await apiFetch(base, owner.cookie, 'POST', `/api/campaigns/${c.id}/test`, { phone: '11987650000' });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers[0].status).toBeGreaterThanOrEqual(400);
    expect(answers[0].status).toBeLessThan(500);
    expect((answers[0].body as { message: string }).message).toContain(mediaMsg.imageUnavailable);
    expect(answers[1]).toEqual(answers[0]);
    expect(canary.connections).toBe(before);
    expect(graph.media.length).toBe(uploads);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptedStream } from '@whiskeysockets/baileys';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BaileysMediaError, fetchBaileysMedia } from './media-download';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function collect(iterable: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of iterable) parts.push(chunk);
  return Buffer.concat(parts);
}

/** A file as a contact's phone uploads it: encrypted with a fresh media key, by Baileys itself. */
async function encrypted(plain: Buffer) {
  const enc = await encryptedStream(plain, 'image');
  const bytes = await readFile(enc.encFilePath);
  await unlink(enc.encFilePath);
  return { bytes, mediaKey: enc.mediaKey.toString('base64') };
}

const plain = randomBytes(300_000);
let file: { bytes: Buffer; mediaKey: string };
/** What the CDN stand-in answers by path. */
const routes = new Map<string, { status: number; body?: Buffer; hold?: boolean }>();
const requested: string[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  file = await encrypted(plain);
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '') ?? { status: 404 };
    if (route.hold) return; // Never answers: for the abort.
    res.writeHead(route.status, { 'content-type': 'application/octet-stream' });
    res.end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Baileys always fetches over https from the CDN's host: the global fetch it calls is wrapped to
 * record the URL asked for and to send it to the local stand-in over plain http instead.
 */
function serveCdn(to = () => origin) {
  const realFetch = globalThis.fetch;
  const spy = vi.fn((input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    requested.push(url);
    return realFetch(url.replace(/^https:\/\/mmg\.whatsapp\.net/, to()), init);
  });
  vi.stubGlobal('fetch', spy);
  return spy;
}

afterEach(() => {
  vi.unstubAllGlobals();
  routes.clear();
  requested.length = 0;
});

const directPath = '/v/t62.7118-24/1234_n.enc?ccb=11-4&oh=01_Q5Aa&oe=68A0B1C2&_nc_sid=5e03e0';
const source = (over: Partial<Parameters<typeof fetchBaileysMedia>[0]> = {}) => ({
  via: 'baileys' as const,
  directPath,
  mediaKey: file.mediaKey,
  mediaType: 'image' as const,
  ...over,
});

describe('fetchBaileysMedia', () => {
  it('fetches from the CDN and deciphers the bytes as sent', async () => {
    serveCdn();
    routes.set(directPath, { status: 200, body: file.bytes });
    const bytes = await collect(await fetchBaileysMedia(source(), 1_000_000));
    expect(bytes.length).toBe(plain.length);
    expect(sha256(bytes)).toBe(sha256(plain));
    expect(requested).toEqual([`https://mmg.whatsapp.net${directPath}`]);
  });

  it('never takes its host from the URL the sender gave', async () => {
    serveCdn();
    routes.set(directPath, { status: 200, body: file.bytes });
    for (const url of ['https://evil.example/x.enc', 'https://mmg.whatsapp.net.evil.example/x.enc']) {
      expect(sha256(await collect(await fetchBaileysMedia(source({ url }), 1_000_000)))).toBe(sha256(plain));
    }
    expect(requested).toEqual([`https://mmg.whatsapp.net${directPath}`, `https://mmg.whatsapp.net${directPath}`]);
  });

  it('refuses a path that could leave the CDN, without fetching', async () => {
    const spy = serveCdn();
    for (const bad of [
      '//evil.example/x',
      'evil.example/x',
      '@evil.example/x',
      '/x@evil.example',
      '/x\\evil',
      '/x y',
      '/x\n',
      '/x#y',
      '',
      `/${'a'.repeat(3000)}`,
    ]) {
      await expect(fetchBaileysMedia(source({ directPath: bad }), 1_000_000)).rejects.toMatchObject({
        name: 'BaileysMediaError',
        permanent: true,
      });
    }
    await expect(fetchBaileysMedia(source({ mediaKey: '' }), 1_000_000)).rejects.toMatchObject({ permanent: true });
    expect(spy).not.toHaveBeenCalled();
  });

  it('stops once more than the limit arrived', async () => {
    serveCdn();
    routes.set(directPath, { status: 200, body: file.bytes });
    const err = await collect(await fetchBaileysMedia(source(), 100_000)).catch((e) => e);
    expect(err).toBeInstanceOf(BaileysMediaError);
    expect(err).toMatchObject({ permanent: true });
    expect(err.message).toMatch(/larger than 100000/);
  });

  it('tells expired links from passing failures', async () => {
    serveCdn();
    for (const [status, permanent] of [
      [404, true],
      [410, true],
      [403, true],
      [500, false],
      [503, false],
      [429, false],
    ] as const) {
      routes.set(directPath, { status });
      await expect(fetchBaileysMedia(source(), 1_000_000)).rejects.toMatchObject({ permanent, status });
    }
  });

  it('answers a network failure as transient', async () => {
    // A port nothing listens on once the probe server is closed.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    serveCdn(() => closed);
    await expect(fetchBaileysMedia(source(), 1_000_000)).rejects.toMatchObject({ permanent: false });
  });

  it('answers a file it cannot decipher as permanent', async () => {
    serveCdn();
    routes.set(directPath, { status: 200, body: file.bytes });
    const other = randomBytes(32).toString('base64');
    const err = await collect(await fetchBaileysMedia(source({ mediaKey: other }), 1_000_000)).catch((e) => e);
    expect(err).toMatchObject({ name: 'BaileysMediaError', permanent: true });
  });

  it('gives up when aborted', async () => {
    serveCdn();
    routes.set(directPath, { status: 200, hold: true });
    const controller = new AbortController();
    const pending = fetchBaileysMedia(source(), 1_000_000, controller.signal);
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await expect(pending).rejects.toMatchObject({ permanent: false, message: expect.stringMatching(/shutting down/) });
    const aborted = AbortSignal.abort();
    await expect(fetchBaileysMedia(source(), 1_000_000, aborted)).rejects.toBeInstanceOf(BaileysMediaError);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import { CloudMediaError, type CloudMediaOptions, fetchCloudMedia } from './media-download';

const TOKEN = 'EAAG-media-token';
let graph: FakeGraphApi;
let opts: CloudMediaOptions;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.addPhone('2000', TOKEN, '5511999990000');
  opts = { baseUrl: graph.url, version: 'v21.0', accessToken: TOKEN };
});
afterAll(() => graph.stop());

async function read(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

async function refusal(promise: Promise<unknown>): Promise<CloudMediaError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CloudMediaError);
  return err as CloudMediaError;
}

describe('fetchCloudMedia', () => {
  it('fetches the bytes of a media id, as Meta announced them', async () => {
    const bytes = randomBytes(300_000);
    const id = graph.addMedia(bytes, 'audio/ogg; codecs=opus');
    const media = await fetchCloudMedia(opts, id, 1_000_000);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(media).toMatchObject({ mimeType: 'audio/ogg', size: bytes.length, sha256 });
    const got = await read(media.body);
    expect(createHash('sha256').update(got).digest('hex')).toBe(sha256);
    const reads = graph.requests.filter((r) => r.path.includes(id));
    expect(reads.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('needs the token, on the lookup and on the bytes', async () => {
    const id = graph.addMedia(Buffer.from('x'), 'image/png', { token: TOKEN });
    const err = await refusal(fetchCloudMedia({ ...opts, accessToken: 'wrong' }, id, 100));
    expect(err).toMatchObject({ permanent: true, status: 401, code: 190 });
    const lookup = (await (
      await fetch(`${graph.url}/v21.0/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as { url: string };
    expect((await fetch(lookup.url)).status).toBe(401);
    expect((await fetch(lookup.url, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('refuses a file announced over the limit before downloading it', async () => {
    const id = graph.addMedia(randomBytes(2000), 'image/jpeg');
    const err = await refusal(fetchCloudMedia(opts, id, 1000));
    expect(err.permanent).toBe(true);
    expect(graph.requests.some((r) => r.path.startsWith(`/media-bytes/${id}`))).toBe(false);
  });

  it('stops a download past the limit when the announced size lies', async () => {
    const id = graph.addMedia(randomBytes(200_000), 'video/mp4', { fileSize: 10 });
    const media = await fetchCloudMedia(opts, id, 50_000).then(
      (m) => m,
      (e: unknown) => e,
    );
    // Refused on the Content-Length already, or while the bytes arrive: never kept whole.
    const err =
      media instanceof CloudMediaError
        ? media
        : await refusal(read((media as { body: AsyncIterable<Uint8Array> }).body));
    expect(err.permanent).toBe(true);
  });

  it('stops while the bytes arrive when nothing announced their size', async () => {
    const id = graph.addMedia(randomBytes(200_000), 'video/mp4', { fileSize: 10 });
    const chunked: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      // As a chunked answer: no Content-Length to refuse on.
      return new Response(res.body, { status: res.status, headers: { 'content-type': 'video/mp4' } });
    };
    const media = await fetchCloudMedia({ ...opts, fetch: chunked }, id, 50_000);
    const err = await refusal(read(media.body));
    expect(err.permanent).toBe(true);
  });

  it('an unknown or expired media id is permanent', async () => {
    const err = await refusal(fetchCloudMedia(opts, '1999999999999999', 1000));
    expect(err).toMatchObject({ permanent: true, status: 404, code: 100 });
  });

  it('never fetches another host directly: only through fetchElsewhere, and only https', async () => {
    const id = graph.addMedia(Buffer.from('abc'), 'image/png', {
      url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1',
    });
    expect(await refusal(fetchCloudMedia(opts, id, 1000))).toMatchObject({ permanent: true });
    const asked: Array<{ url: string; headers: Record<string, string> }> = [];
    const media = await fetchCloudMedia(
      {
        ...opts,
        fetchElsewhere: async (url, headers) => {
          asked.push({ url, headers });
          return new Response('abc', { status: 200 });
        },
      },
      id,
      1000,
    );
    expect((await read(media.body)).toString()).toBe('abc');
    expect(asked).toEqual([
      {
        url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1',
        headers: { Authorization: `Bearer ${TOKEN}` },
      },
    ]);
    const plain = graph.addMedia(Buffer.from('abc'), 'image/png', { url: 'http://example.com/x' });
    const elsewhere = async () => new Response('abc');
    expect(await refusal(fetchCloudMedia({ ...opts, fetchElsewhere: elsewhere }, plain, 1000))).toMatchObject({
      permanent: true,
    });
  });

  it('rate limits, server errors and no answer are transient', async () => {
    const answering =
      (status: number, code?: number): typeof fetch =>
      async () =>
        new Response(JSON.stringify({ error: { message: 'x', code } }), { status });
    for (const [status, code] of [
      [429, 4],
      [500, 1],
      [503, undefined],
    ] as const) {
      const err = await refusal(fetchCloudMedia({ ...opts, fetch: answering(status, code) }, '1', 1000));
      expect(err.permanent, String(status)).toBe(false);
    }
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect((await refusal(fetchCloudMedia({ ...opts, fetch: down }, '1', 1000))).permanent).toBe(false);
    expect((await refusal(fetchCloudMedia({ ...opts, fetch: answering(400, 100) }, '1', 1000))).permanent).toBe(true);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type NodeServer } from '../scripts/launch-server.mjs';
import { type FakeS3, startFakeS3 } from './testing/fake-s3';
import { apiUpload, signIn } from './testing/http-session';
import { apiFetch } from './testing/raw-http';
import { startSourceServer, untilHealthy } from './testing/source-server';
import { waitFor } from './testing/test-app';

/**
 * Two real server processes on one PostgreSQL keeping file bytes in one S3-compatible bucket
 * (decision 043): what one process stores, the other serves byte for byte, and what either frees
 * leaves the bucket. Each process has its own client and no file state of its own; the disk under
 * DATA_DIR is each process's own here, so nothing could be shared through it by accident.
 * (PostgreSQL only: the embedded database is one process by design.)
 */
const ADMIN = { username: 'admin', password: 'admin-s3-1' };

let database: { url: string; drop: () => Promise<void> };
let s3: FakeS3;
const servers: NodeServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

async function launch(name: string): Promise<NodeServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `disparo-s3-${name}-`));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const s = await startSourceServer(
    name,
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      MEDIA_S3_ENDPOINT: s3.endpoint,
      MEDIA_S3_BUCKET: s3.bucket,
      MEDIA_S3_ACCESS_KEY_ID: s3.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      MEDIA_S3_PREFIX: 'disparo/',
    },
    { stopTimeoutMs: 30_000 },
  );
  cleanups.push(() => s.stop());
  return s;
}

beforeAll(async () => {
  s3 = await startFakeS3();
  cleanups.push(() => s3.close());
  database = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_s3');
  cleanups.push(() => database.drop());
  servers.push(...(await Promise.all(['a', 'b'].map(launch))));
  for (const s of servers) {
    if (!(await untilHealthy(s))) throw new Error(`${s.name} did not start:\n${s.output()}`);
  }
}, 180_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 120_000);

const sha = (data: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.isBuffer(data) ? data : Buffer.from(data))
    .digest('hex');

describe('two processes, one bucket', () => {
  it('serves from either process what the other stored, and frees it from the bucket for both', async () => {
    const [a, b] = servers;
    const atA = await signIn(a.url, ADMIN);
    const atB = { base: b.url, cookie: atA.cookie };
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(200_000)]);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(6_000_000), Buffer.from('\n%%EOF\n')]);
    const image = await apiUpload(atA, '/api/uploads', { name: 'oferta.png', data: png });
    expect(image.status, image.text).toBe(200);
    const doc = await apiUpload(atA, '/api/uploads', { name: 'catalogo.pdf', data: pdf });
    expect(doc.status, doc.text).toBe(200);
    const ids = [image.body.id as string, doc.body.id as string];
    // Both in the bucket, under the prefix and the account's key.
    const objects = await s3.objects();
    for (const id of ids) expect(objects.some((k) => k.startsWith('disparo/') && k.endsWith(`/${id}`))).toBe(true);

    // The other process serves them, byte for byte.
    for (const [id, bytes] of [
      [ids[0], png],
      [ids[1], pdf],
    ] as const) {
      const res = await fetch(`${b.url}/api/uploads/${id}`, { headers: { cookie: atB.cookie } });
      expect(res.status).toBe(200);
      expect(sha(await res.arrayBuffer())).toBe(sha(bytes));
    }

    // A campaign made on B with the document, deleted on A: the file leaves the bucket.
    const created = await apiFetch(atB.base, atB.cookie, 'POST', '/api/campaigns', {
      name: 'Catálogo',
      message: 'Segue o catálogo',
      mediaUrl: `upload:${ids[1]}`,
    });
    expect(created.status, created.text).toBe(200);
    const removed = await apiFetch(atA.base, atA.cookie, 'DELETE', `/api/campaigns/${created.body.id}`);
    expect(removed.status, removed.text).toBe(200);
    await waitFor(
      () => s3.objects(),
      (keys) => !keys.some((k) => k.endsWith(`/${ids[1]}`)),
      20_000,
      200,
    );
    const gone = await fetch(`${b.url}/api/uploads/${ids[1]}`, { headers: { cookie: atB.cookie } });
    expect(gone.status).toBe(404);
    // The image nothing used stays (it is pruned only once a day old and the room is needed).
    expect((await s3.objects()).some((k) => k.endsWith(`/${ids[0]}`))).toBe(true);
  }, 120_000);
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { rowsOf } from '../db/rows';
import { type FakeS3, startFakeS3 } from '../testing/fake-s3';
import { createTestDatabase } from '../testing/test-db';
import { S3MediaStore } from './s3-store';
import { DatabaseMediaStore, DiskMediaStore, type MediaStore, MediaTooLarge } from './store';

let database: Database;
let dir: string;
let s3: FakeS3;
beforeAll(async () => {
  database = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'disparo-media-'));
  s3 = await startFakeS3();
});
afterAll(async () => {
  await database.close();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
async function read(store: MediaStore, key: string): Promise<Buffer | null> {
  const body = await store.get(key);
  if (!body) return null;
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}
/** A stream of odd-sized pieces, as a network gives them. */
async function* pieces(data: Buffer, size = 70_001): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield new Uint8Array(data.subarray(i, i + size));
}

describe.each([
  ['disk', () => new DiskMediaStore(dir)],
  ['database', () => new DatabaseMediaStore(database.db)],
  [
    's3',
    () =>
      new S3MediaStore({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        bucket: s3.bucket,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        prefix: '',
        forcePathStyle: true,
      }),
  ],
] as const)('the %s media store', (kind, make) => {
  it('keeps a file of several chunks byte for byte and answers its size and SHA-256', async () => {
    const store = make();
    const data = randomBytes(1_300_000);
    const stored = await store.put(`acc-${kind}/file-1`, pieces(data), 2_000_000);
    expect(stored).toEqual({ size: data.length, sha256: sha(data) });
    expect(sha((await read(store, `acc-${kind}/file-1`)) ?? Buffer.alloc(0))).toBe(sha(data));
    await store.delete(`acc-${kind}/file-1`);
    expect(await store.get(`acc-${kind}/file-1`)).toBeNull();
  });

  it('refuses a file over its limit and keeps nothing of it', async () => {
    const store = make();
    await expect(store.put(`acc-${kind}/big`, pieces(randomBytes(600_000)), 500_000)).rejects.toBeInstanceOf(
      MediaTooLarge,
    );
    expect(await store.get(`acc-${kind}/big`)).toBeNull();
    if (kind === 'database') {
      const left = rowsOf(await database.db.execute(sql`select 1 from media_chunks where key = ${`acc-${kind}/big`}`));
      expect(left).toHaveLength(0);
    } else if (kind === 's3') {
      expect(await s3.objects()).not.toContain(`acc-${kind}/big`);
      expect(s3.unfinishedUploads()).toBe(0);
    } else {
      expect(readdirSync(join(dir, `acc-${kind}`)).filter((f) => f.startsWith('big'))).toEqual([]);
    }
  });

  it('writes a key again whole, without the tail of a longer file before it', async () => {
    const store = make();
    await store.put(`acc-${kind}/again`, pieces(randomBytes(1_100_000)), 2_000_000);
    const short = randomBytes(1000);
    await store.put(`acc-${kind}/again`, [short], 2_000_000);
    expect(await read(store, `acc-${kind}/again`)).toEqual(short);
  });

  it('refuses a key that could leave the store', async () => {
    const store = make();
    for (const key of ['../x', 'a/../../b', '/etc/passwd', 'A/B', 'a//b', '']) {
      await expect(store.put(key, [Buffer.from('x')], 10)).rejects.toThrow(/bad media key/);
    }
  });
});

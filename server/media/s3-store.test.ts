import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../testing/fake-s3';
import { S3MediaStore, type S3StoreOptions } from './s3-store';
import { MediaTooLarge } from './store';

let fake: FakeS3;
beforeAll(async () => {
  fake = await startFakeS3();
});
afterAll(async () => {
  await fake.close();
});

const options = (over: Partial<S3StoreOptions> = {}): S3StoreOptions => ({
  endpoint: fake.endpoint,
  region: 'us-east-1',
  bucket: fake.bucket,
  accessKeyId: fake.accessKeyId,
  secretAccessKey: fake.secretAccessKey,
  prefix: '',
  forcePathStyle: true,
  ...over,
});

async function sha256Of(body: AsyncIterable<unknown>): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const part of body) {
    hash.update(part as Buffer);
    size += (part as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * `total` random bytes in 64 KB pieces made as they are asked for, hashed as they go; `ahead` is the
 * most the store ever took from it beyond what had reached the bucket.
 */
function source(total: number) {
  const hash = createHash('sha256');
  const state = { given: 0, ahead: 0, sha256: '' };
  async function* pieces(): AsyncGenerator<Uint8Array> {
    while (state.given < total) {
      const piece = randomBytes(Math.min(64 * 1024, total - state.given));
      hash.update(piece);
      state.given += piece.length;
      state.ahead = Math.max(state.ahead, state.given - fake.counts.bytesIn);
      yield piece;
    }
    state.sha256 = hash.digest('hex');
  }
  return { state, pieces };
}

describe('the S3 media store', () => {
  it('sends a 20 MB file in parts, holding about one part of it at a time', async () => {
    const store = new S3MediaStore(options());
    const before = { ...fake.counts };
    const total = 20 * 1024 * 1024;
    const src = source(total);
    const stored = await store.put('acc-1/big', src.pieces(), 100 * 1024 * 1024);
    expect(stored).toEqual({ size: total, sha256: src.state.sha256 });
    expect(fake.counts.parts - before.parts).toBe(4);
    expect(fake.counts.puts - before.puts).toBe(0);
    // A 5 MB part collected and sent, and the next pieces waiting: never the file.
    expect(src.state.ahead).toBeLessThan(8 * 1024 * 1024);
    const body = await store.get('acc-1/big');
    expect(body).not.toBeNull();
    expect(await sha256Of(body as AsyncIterable<unknown>)).toEqual(stored);
    await store.delete('acc-1/big');
    expect(await store.get('acc-1/big')).toBeNull();
    expect(fake.unfinishedUploads()).toBe(0);
  }, 60_000);

  it('refuses a file over its limit after some parts went up, and leaves neither object nor upload', async () => {
    const store = new S3MediaStore(options());
    const before = { ...fake.counts };
    const src = source(12 * 1024 * 1024);
    await expect(store.put('acc-1/over', src.pieces(), 11 * 1024 * 1024)).rejects.toBeInstanceOf(MediaTooLarge);
    expect(fake.counts.parts - before.parts).toBeGreaterThanOrEqual(2);
    expect(fake.unfinishedUploads()).toBe(0);
    expect(await fake.objects()).not.toContain('acc-1/over');
    expect(await store.get('acc-1/over')).toBeNull();
  }, 60_000);

  it('keeps keys under its prefix', async () => {
    const store = new S3MediaStore(options({ prefix: 'tenant-files/' }));
    const data = randomBytes(3000);
    await store.put('acc-2/small', [data], 10_000);
    expect(await fake.objects()).toContain('tenant-files/acc-2/small');
    expect(await fake.objects()).not.toContain('acc-2/small');
    const body = await store.get('acc-2/small');
    expect(await sha256Of(body as AsyncIterable<unknown>)).toEqual({
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    });
    await store.delete('acc-2/small');
    expect(await fake.objects()).not.toContain('tenant-files/acc-2/small');
  });

  it('answers null for a key it does not have, and deletes one without complaint', async () => {
    const store = new S3MediaStore(options());
    expect(await store.get('acc-3/none')).toBeNull();
    await expect(store.delete('acc-3/none')).resolves.toBeUndefined();
  });

  it('fails, never answers absent, with a wrong access key or a bucket that is not there', async () => {
    const wrongKey = new S3MediaStore(options({ accessKeyId: 'SOMEONE-ELSE' }));
    await expect(wrongKey.get('acc-4/x')).rejects.toThrow(/Access Key Id/);
    await expect(wrongKey.put('acc-4/x', [Buffer.from('x')], 10)).rejects.toThrow(/Access Key Id/);
    const noBucket = new S3MediaStore(options({ bucket: 'not-this-one' }));
    await expect(noBucket.get('acc-4/x')).rejects.toThrow(/bucket/);
    expect(await fake.objects()).not.toContain('acc-4/x');
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../../testing/app-per-file';
import { type FakeS3, startFakeS3 } from '../../testing/fake-s3';
import { apiCall, createTestApp, newCustomerWithCalls } from '../../testing/test-app';

/** With MEDIA_S3_* set, an account's files live in the bucket and are served from it to that account only. */
let fake: FakeS3;
const ctx = appPerFile(async () => {
  fake = await startFakeS3();
  const app = await createTestApp({
    MEDIA_S3_ENDPOINT: fake.endpoint,
    MEDIA_S3_BUCKET: fake.bucket,
    MEDIA_S3_ACCESS_KEY_ID: fake.accessKeyId,
    MEDIA_S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
    MEDIA_S3_PREFIX: 'files',
  });
  return {
    ...app,
    close: async () => {
      await app.close();
      await fake.close();
    },
  };
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(300_000), Buffer.from('\n%%EOF\n')]);

describe('uploads on the S3 media store', () => {
  it('keeps a PDF in the bucket and serves it to its account only', async () => {
    const { cookie } = await newCustomerWithCalls(ctx);
    const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name: 'catalogo.pdf', data: PDF } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await fake.objects()).some((k) => k.startsWith('files/'))).toBe(true);
    const served = await apiCall(ctx, 'GET', res.json().url, { cookie });
    expect(served.statusCode).toBe(200);
    expect(sha(served.rawPayload)).toBe(sha(PDF));
    const other = await newCustomerWithCalls(ctx);
    expect((await apiCall(ctx, 'GET', res.json().url, { cookie: other.cookie })).statusCode).toBe(404);
  });
});

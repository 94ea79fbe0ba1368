import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = mkdtempSync(join(tmpdir(), 'disparo-config-s3-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });
const KEYS = {
  MEDIA_S3_BUCKET: 'disparo-files',
  MEDIA_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  MEDIA_S3_SECRET_ACCESS_KEY: 'very-secret-value',
};
function problems(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('MEDIA_S3_* configuration', () => {
  it('is off with none of it', () => {
    expect(load({}).mediaS3).toBeUndefined();
  });

  it('is the bucket with all three, on AWS by default, path-style with an endpoint', () => {
    expect(load(KEYS).mediaS3).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'disparo-files',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'very-secret-value',
      prefix: '',
      forcePathStyle: false,
    });
    const minio = load({
      ...KEYS,
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      MEDIA_S3_REGION: 'sa-east-1',
      MEDIA_S3_PREFIX: 'disparo',
    }).mediaS3;
    expect(minio).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'sa-east-1',
      prefix: 'disparo/',
      forcePathStyle: true,
    });
    const r2 = load({
      ...KEYS,
      MEDIA_S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com',
      MEDIA_S3_FORCE_PATH_STYLE: 'false',
    });
    expect(r2.mediaS3?.forcePathStyle).toBe(false);
  });

  it('refuses half of it at start-up, naming what is missing and never the secret', () => {
    for (const drop of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
      const env: Record<string, string> = { ...KEYS };
      delete env[drop];
      const found = problems(env);
      expect(found, drop).toHaveLength(1);
      expect(found[0]).toContain(drop);
      expect(found[0]).toMatch(/all three or none/);
      expect(found[0]).not.toContain('very-secret-value');
    }
    expect(problems({ MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000' })[0]).toMatch(/MEDIA_S3_BUCKET.*all three or none/);
  });

  it('refuses MEDIA_STORE=s3 without a bucket, and a bad bucket name or prefix', () => {
    expect(problems({ MEDIA_STORE: 's3' })).toEqual([
      'MEDIA_STORE: s3 needs MEDIA_S3_BUCKET, MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY',
    ]);
    expect(load({ ...KEYS, MEDIA_STORE: 's3' }).MEDIA_STORE).toBe('s3');
    expect(problems({ ...KEYS, MEDIA_S3_BUCKET: 'Not_A_Bucket' })[0]).toMatch(/^MEDIA_S3_BUCKET:/);
    expect(problems({ ...KEYS, MEDIA_S3_PREFIX: '../up' })[0]).toMatch(/^MEDIA_S3_PREFIX:/);
  });
});

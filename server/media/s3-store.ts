import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type * as Storage from '@aws-sdk/lib-storage';
import { lazyModule } from '../lib/lazy-module';
import { checkKey, type MediaStore, MediaTooLarge, measured } from './media-store';

/** Where the bytes go (docs/decisions/043-s3-media-store.md): any S3-compatible service. */
export interface S3StoreOptions {
  /** Unset: AWS itself. MinIO, R2, B2: their URL. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Put before every key (`disparo/`); empty for none. */
  prefix: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key` (MinIO, most self-hosted services). */
  forcePathStyle: boolean;
}

// Loaded on the first file that goes to the bucket: a server that keeps files elsewhere never holds the SDK.
const s3Module = lazyModule<typeof S3>('@aws-sdk/client-s3');
const storageModule = lazyModule<typeof Storage>('@aws-sdk/lib-storage');

/** 5 MB, S3's smallest part: one part is what a file in flight holds in memory. */
const PART_SIZE = 5 * 1024 * 1024;

export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  private client: S3.S3Client | undefined;

  constructor(private readonly opts: S3StoreOptions) {}

  private s3(): S3.S3Client {
    if (!this.client) {
      const { S3Client } = s3Module();
      this.client = new S3Client({
        region: this.opts.region,
        endpoint: this.opts.endpoint,
        forcePathStyle: this.opts.forcePathStyle,
        credentials: { accessKeyId: this.opts.accessKeyId, secretAccessKey: this.opts.secretAccessKey },
        // Checksums only where S3 requires them: several S3-compatible services refuse the
        // streaming checksums the SDK otherwise adds to every upload.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    }
    return this.client;
  }

  private objectKey(key: string): string {
    checkKey(key);
    return `${this.opts.prefix}${key}`;
  }

  async put(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number) {
    const Key = this.objectKey(key);
    const seen = { size: 0, hash: createHash('sha256') };
    const { Upload } = storageModule();
    // Counted and hashed as the bytes pass; over maxBytes the stream fails, the upload with it, and
    // the helper aborts the multipart upload, so the bucket keeps no part of the file.
    const upload = new Upload({
      client: this.s3(),
      params: { Bucket: this.opts.bucket, Key, Body: Readable.from(measured(body, maxBytes, seen, 64 * 1024)) },
      partSize: PART_SIZE,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      await upload.abort().catch(() => undefined);
      if (seen.size > maxBytes) throw new MediaTooLarge(maxBytes);
      throw err;
    }
    return { size: seen.size, sha256: seen.hash.digest('hex') };
  }

  async get(key: string): Promise<Readable | null> {
    const { GetObjectCommand } = s3Module();
    try {
      const res = await this.s3().send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }));
      // In Node the body is the HTTP response itself: read as it arrives, never buffered whole.
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { DeleteObjectCommand } = s3Module();
    try {
      await this.s3().send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A bucket that is not there is a configuration to fix, never a file that is absent.
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

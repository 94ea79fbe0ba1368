import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { checkKey, type MediaStore, measured } from './media-store';
import { S3MediaStore, type S3StoreOptions } from './s3-store';

export { checkKey, type MediaStore, MediaTooLarge, measured } from './media-store';

export class DiskMediaStore implements MediaStore {
  readonly kind = 'disk' as const;
  constructor(private readonly root: string) {}

  private path(key: string): string {
    checkKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number) {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // Written aside and renamed into place: a reader never sees half a file, a crash leaves none.
    const temp = `${target}.${randomUUID()}.part`;
    const seen = { size: 0, hash: createHash('sha256') };
    const out = createWriteStream(temp, { flags: 'wx' });
    try {
      for await (const chunk of measured(body, maxBytes, seen, 64 * 1024)) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      out.end();
      await finished(out);
      await rename(temp, target);
    } catch (err) {
      out.destroy();
      await rm(temp, { force: true });
      throw err;
    }
    return { size: seen.size, sha256: seen.hash.digest('hex') };
  }

  async get(key: string): Promise<Readable | null> {
    const path = this.path(key);
    // Opened before answering, so a file deleted meanwhile reads as absent, never as a stream that fails.
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return handle.createReadStream({ highWaterMark: 256 * 1024 });
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

const DB_CHUNK = 512 * 1024;

export class DatabaseMediaStore implements MediaStore {
  readonly kind = 'database' as const;
  constructor(private readonly db: Db) {}

  async put(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number) {
    checkKey(key);
    const seen = { size: 0, hash: createHash('sha256') };
    let seq = 0;
    try {
      // A row per chunk as it arrives: what is held in memory is one chunk, whatever the file.
      for await (const chunk of measured(body, maxBytes, seen, DB_CHUNK)) {
        await this.db.execute(sql`
          insert into media_chunks (key, seq, data) values (${key}, ${seq++}, ${chunk})
          on conflict (key, seq) do update set data = excluded.data`);
      }
      // A key written again over a longer file keeps none of the old tail.
      await this.db.execute(sql`delete from media_chunks where key = ${key} and seq >= ${seq}`);
    } catch (err) {
      await this.delete(key).catch(() => undefined);
      throw err;
    }
    return { size: seen.size, sha256: seen.hash.digest('hex') };
  }

  async get(key: string): Promise<Readable | null> {
    checkKey(key);
    const first = rowsOf(await this.db.execute(sql`select 1 from media_chunks where key = ${key} and seq = 0`));
    if (!first.length) return null;
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; ; seq++) {
        const [row] = rowsOf<{ data: Buffer | Uint8Array }>(
          await db.execute(sql`select data from media_chunks where key = ${key} and seq = ${seq}`),
        );
        if (!row) return;
        yield Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
      }
    }
    return Readable.from(chunks());
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.db.execute(sql`delete from media_chunks where key = ${key}`);
  }
}

/**
 * The store a deployment uses: the bucket when MEDIA_S3_* is set, else PostgreSQL's when several
 * processes may share it, else DATA_DIR's disk.
 */
export function createMediaStore(opts: {
  setting: 'auto' | 'disk' | 'database' | 's3';
  databaseKind: 'pglite' | 'postgres';
  dataDir: string;
  db: Db;
  s3?: S3StoreOptions;
}): MediaStore {
  const kind =
    opts.setting !== 'auto' ? opts.setting : opts.s3 ? 's3' : opts.databaseKind === 'postgres' ? 'database' : 'disk';
  if (kind === 's3') {
    if (!opts.s3)
      throw new Error('MEDIA_STORE=s3 needs MEDIA_S3_BUCKET, MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY');
    return new S3MediaStore(opts.s3);
  }
  return kind === 'database' ? new DatabaseMediaStore(opts.db) : new DiskMediaStore(join(opts.dataDir, 'media'));
}

/** The key a file of the account is kept under. */
export const accountFileKey = (userId: string, fileId: string) => `${userId}/${fileId}`;

/** A file of the store as one buffer: only for files small enough to hold (an image, a voice note). */
export async function readWhole(store: MediaStore, key: string): Promise<Buffer> {
  const body = await store.get(key);
  if (!body) throw new Error('the file is no longer in the media store');
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

import type { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where file bytes live (docs/decisions/042-media-store.md): never in one database value, never
 * whole in memory. A file goes in and out as a stream of chunks.
 * - `disk`: under DATA_DIR/media — the embedded database's default, one process by construction
 *   (its data directory is locked), and the only store that costs the event loop nothing per byte.
 * - `database`: PostgreSQL's `media_chunks`, 512 KB a row — every process reads every file with
 *   nothing else to run.
 * - `s3`: an S3-compatible bucket (server/media/s3-store.ts; docs/decisions/043-s3-media-store.md).
 */
export interface MediaStore {
  readonly kind: 'disk' | 'database' | 's3';
  /**
   * Stores the stream under `key`, at most `maxBytes` (more: MediaTooLarge, and nothing is kept).
   * Answers what was stored: its size and SHA-256 (hex).
   */
  put(
    key: string,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    maxBytes: number,
  ): Promise<{ size: number; sha256: string }>;
  /** The bytes under `key` as a stream, or null when there are none. */
  get(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

export class MediaTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`file over ${maxBytes} bytes`);
  }
}

/** Keys are ours (`<account>/<file id>`, `incoming/<uuid>`); anything else is refused, so no key escapes the store. */
const KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;
export function checkKey(key: string): void {
  if (!KEY.test(key) || key.length > 200) throw new Error(`bad media key ${JSON.stringify(key)}`);
}

/** Re-cuts a stream into chunks of `size` (the last one shorter), counting and hashing as it goes. */
export async function* measured(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number,
  seen: { size: number; hash: ReturnType<typeof createHash> },
  size = 512 * 1024,
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const part of body) {
    const chunk = Buffer.isBuffer(part) ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    seen.size += chunk.length;
    if (seen.size > maxBytes) throw new MediaTooLarge(maxBytes);
    seen.hash.update(chunk);
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending, pendingBytes);
      yield all.subarray(0, size);
      const rest = all.subarray(size);
      pending = rest.length ? [rest] : [];
      pendingBytes = rest.length;
    }
  }
  if (pendingBytes) yield Buffer.concat(pending, pendingBytes);
}

import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { MEDIA_KINDS, MEDIA_MAX_BYTES, type MediaKind } from '../../contract/message-content';
import { baseFileName } from '../../contract/uploads';
import { ofAccount } from '../db/account-scope';
import type { Db } from '../db/client';
import { mediaUploads } from '../db/schema';
import { defineJob, type JobDefinition } from '../jobs/define';
import type { JobRunner } from '../jobs/runner';
import { accountFileKey, type MediaStore, MediaTooLarge } from '../media/store';
import type { InboundMedia, InboundMediaSource } from '../whatsapp/driver';
import type { MediaFetcher, PendingFile } from '../whatsapp/inbound-media-fetchers';

export interface InboundMediaDeps {
  db: Db;
  store: MediaStore;
  jobs: JobRunner;
  /** The fetch of each driver whose files live elsewhere (Cloud API, WhatsApp Web's CDN). */
  fetchers: Partial<Record<Exclude<InboundMediaSource['via'], 'stored'>, MediaFetcher>>;
  log: { warn(obj: object, msg: string): void };
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
};
const KIND_NAMES: Record<MediaKind, string> = {
  image: 'foto',
  document: 'documento',
  audio: 'audio',
  video: 'video',
  sticker: 'figurinha',
};

/**
 * The name a received file is kept under: a document's own (no folders, no control or quoting
 * characters), else its kind and time ('audio-20261202-143005.ogg').
 */
export function inboundFileName(
  media: Pick<InboundMedia, 'kind' | 'mimeType' | 'fileName' | 'voice'>,
  at: Date,
): string {
  const given = baseFileName(media.fileName ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
    .replace(/[\u0000-\u001f\u007f-\u009f"<>|:*?\\/]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  if (given && given !== '.' && given !== '..') return given;
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const ext = EXTENSIONS[media.mimeType] ?? 'bin';
  return `${media.voice ? 'mensagem-de-voz' : KIND_NAMES[media.kind]}-${stamp}.${ext}`;
}

const fetchPayload = z.object({ userId: z.uuid(), fileId: z.uuid() });

/** A failure the fetchers mark as one no retry mends. */
const isPermanent = (err: unknown) =>
  err instanceof MediaTooLarge ||
  (typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true);

/**
 * Received files: a row for each, written with its message (`pending`), and a job that fetches
 * its bytes into the media store off the webhook's and the chatbot's path, retried with backoff,
 * `failed` with the reason when it cannot be.
 */
export class InboundFiles {
  readonly job: JobDefinition<z.infer<typeof fetchPayload>>;

  constructor(private readonly deps: InboundMediaDeps) {
    this.job = defineJob({
      name: 'media.fetch-inbound',
      payload: fetchPayload,
      // Meta keeps a received file for 30 days, WhatsApp Web's CDN for weeks: retries over about an hour.
      maxAttempts: 8,
      backoff: { baseMs: 2_000, maxMs: 15 * 60_000 },
      handler: (payload, ctx) => this.fetch(payload.userId, payload.fileId, ctx.attempt, ctx.signal),
    });
  }

  /**
   * Records a received file (pending) in the transaction that stores its message and enqueues its
   * fetch there too: answers the file's id.
   */
  async record(tx: Db, userId: string, connectionId: string, media: InboundMedia, at: Date): Promise<string> {
    const id = randomUUID();
    const kind = (MEDIA_KINDS as readonly string[]).includes(media.kind) ? media.kind : 'document';
    await tx.insert(mediaUploads).values({
      id,
      userId,
      kind,
      origin: 'inbound',
      state: 'pending',
      fileName: inboundFileName(media, at),
      mimeType: media.mimeType,
      size: Math.max(0, Math.min(media.size ?? 0, 2 ** 31 - 1)) | 0,
      durationSeconds: media.durationSeconds ? Math.min(Math.round(media.durationSeconds), 86_400) : null,
      voice: media.voice === true,
      connectionId,
      source: media.source,
    });
    await this.deps.jobs.enqueue(tx, this.job, { userId, fileId: id }, { accountId: userId });
    return id;
  }

  private async fetch(userId: string, fileId: string, attempt: number, signal: AbortSignal): Promise<void> {
    const { db, store } = this.deps;
    const [row] = await db
      .select({
        kind: mediaUploads.kind,
        mimeType: mediaUploads.mimeType,
        state: mediaUploads.state,
        source: mediaUploads.source,
        connectionId: mediaUploads.connectionId,
      })
      .from(mediaUploads)
      .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, fileId)));
    if (row?.state !== 'pending' || !row.source) return; // gone with its account or conversation, or done
    const file: PendingFile = {
      userId,
      fileId,
      connectionId: row.connectionId,
      kind: row.kind as MediaKind,
      mimeType: row.mimeType,
      source: row.source as InboundMediaSource,
    };
    const maxBytes = MEDIA_MAX_BYTES[file.kind] ?? MEDIA_MAX_BYTES.document;
    const key = accountFileKey(userId, fileId);
    try {
      const body = await this.open(file, maxBytes, signal);
      const stored = await store.put(key, body, maxBytes);
      const done = await db
        .update(mediaUploads)
        .set({ state: 'ready', size: stored.size, sha256: stored.sha256, storageKey: key, source: null, error: null })
        .where(ofAccount(mediaUploads, userId, and(eq(mediaUploads.id, fileId), eq(mediaUploads.state, 'pending'))))
        .returning({ id: mediaUploads.id });
      // Deleted meanwhile (the account, the conversation): nothing may keep its bytes.
      if (!done.length) await store.delete(key);
      if (file.source.via === 'stored') await store.delete(file.source.key).catch(() => undefined);
    } catch (err) {
      if (signal.aborted) throw err;
      const permanent = isPermanent(err);
      if (permanent || attempt >= this.job.maxAttempts) {
        const reason = err instanceof Error ? err.message.slice(0, 200) : String(err);
        this.deps.log.warn({ reason, fileId, via: file.source.via }, 'a received file could not be fetched');
        await db
          .update(mediaUploads)
          .set({ state: 'failed', error: reason, source: null })
          .where(ofAccount(mediaUploads, userId, eq(mediaUploads.id, fileId)));
        if (permanent) return;
      }
      throw err;
    }
  }

  private async open(file: PendingFile, maxBytes: number, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const { source } = file;
    if (source.via === 'stored') {
      const body = await this.deps.store.get(source.key);
      if (!body) throw Object.assign(new Error('the file is no longer where the driver left it'), { permanent: true });
      return body;
    }
    const fetcher = this.deps.fetchers[source.via];
    if (!fetcher) throw Object.assign(new Error(`no fetcher for ${source.via} files`), { permanent: true });
    return fetcher(file, maxBytes, signal);
  }
}

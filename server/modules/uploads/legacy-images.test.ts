import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows';
import { mediaUploads } from '../../db/schema';
import type { MediaStore } from '../../media/store';
import { appPerFile } from '../../testing/app-per-file';
import { apiCall, createTestApp, newCustomerWithCalls, waitFor } from '../../testing/test-app';
import { moveLegacyImages } from './legacy-images';
import { bytesIn, saveUpload } from './uploads.service';

/**
 * Uploaded images are kept in the media store as every other file; those uploaded before it kept
 * their bytes in their row, and a chore moves them there.
 */
const ctx = appPerFile(() => createTestApp({}, undefined, { dispatcher: { autoStart: false } }));

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('imagem de teste para o armazenamento de arquivos'),
]);
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const rowOf = async (id: string) =>
  (
    await ctx.database.db
      .select({
        key: mediaUploads.storageKey,
        sha256: mediaUploads.sha256,
        legacy: sql<boolean>`${mediaUploads.data} is not null`,
      })
      .from(mediaUploads)
      .where(eq(mediaUploads.id, id))
  )[0];

/** Whether the media store has the key's bytes. */
const inStore = async (store: MediaStore, key: string) => {
  const body = await store.get(key);
  if (!body) return false;
  for await (const _ of body) break;
  return true;
};

/** An image as an earlier version stored it: its bytes in the row, nothing in the store. */
async function legacyImage(userId: string, data = PNG): Promise<string> {
  const [{ id }] = rowsOf<{ id: string }>(
    await ctx.database.db.execute(sql`
      insert into media_uploads (user_id, file_name, mime_type, size, data)
      values (${userId}, 'antiga.png', 'image/png', ${data.length}, ${bytesIn(data)}) returning id::text`),
  );
  return id;
}

describe('uploaded images in the media store', () => {
  it('keeps a new image in the store, serves it to its owner only, and frees its bytes with it', async () => {
    const owner = await newCustomerWithCalls(ctx);
    const res = await apiCall(ctx, 'POST', '/api/uploads', {
      cookie: owner.cookie,
      file: { name: 'foto.png', data: PNG },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json();
    const row = await rowOf(id);
    expect(row).toEqual({ key: `${owner.user.id}/${id}`, sha256: sha(PNG), legacy: false });
    const store = ctx.app.deps.media.store;
    expect(await inStore(store, row.key as string)).toBe(true);

    const served = await apiCall(ctx, 'GET', `/api/uploads/${id}`, { cookie: owner.cookie });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const other = await newCustomerWithCalls(ctx);
    expect((await apiCall(ctx, 'GET', `/api/uploads/${id}`, { cookie: other.cookie })).statusCode).toBe(404);

    // Used by a saved message, then the message goes: the image and its bytes go with it.
    const saved = await owner.call('POST', '/api/messages', {
      title: 'Com foto',
      content: 'Oi',
      hasImage: true,
      uploadId: id,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await owner.call('DELETE', `/api/messages/${saved.json().savedMessage.id}`)).statusCode).toBe(200);
    expect(await rowOf(id)).toBeUndefined();
    await waitFor(
      () => inStore(store, row.key as string),
      (kept) => !kept,
      10_000,
    );
  });

  it('moves images kept in their rows into the store, byte for byte, still served and sent from there', async () => {
    const owner = await newCustomerWithCalls(ctx);
    const first = await legacyImage(owner.user.id);
    const second = await legacyImage(owner.user.id, Buffer.concat([PNG, Buffer.from(' segunda')]));
    // Served before it moves, from its row.
    const before = await apiCall(ctx, 'GET', `/api/uploads/${first}`, { cookie: owner.cookie });
    expect(before.rawPayload.equals(PNG)).toBe(true);

    const store = ctx.app.deps.media.store;
    expect(await moveLegacyImages(ctx.database.db, store)).toBeGreaterThanOrEqual(2);
    for (const id of [first, second]) {
      const row = await rowOf(id);
      expect(row.legacy).toBe(false);
      expect(row.key).toBe(`${owner.user.id}/${id}`);
      expect(await inStore(store, row.key as string)).toBe(true);
    }
    expect((await rowOf(first)).sha256).toBe(sha(PNG));
    const after = await apiCall(ctx, 'GET', `/api/uploads/${first}`, { cookie: owner.cookie });
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(PNG)).toBe(true);
    // What the sending engine reads (an uploaded image of a campaign) comes from the store too.
    expect((await ctx.app.deps.sending.loadImage(owner.user.id, first))?.data.equals(PNG)).toBe(true);
    // Nothing left to move.
    expect(await moveLegacyImages(ctx.database.db, store)).toBe(0);
  });

  it('is a chore of every server: its next run moves what an earlier version left in the rows', async () => {
    const owner = await newCustomerWithCalls(ctx);
    const id = await legacyImage(owner.user.id);
    // The chore's one waiting run, made due now rather than in ten minutes.
    const due = rowsOf(
      await ctx.database.db.execute(sql`
        update jobs set run_at = now() where name = 'media.move-legacy-images' and state = 'queued' returning id`),
    );
    expect(due).toHaveLength(1);
    const moved = await waitFor(
      () => rowOf(id),
      (row) => !row.legacy,
      10_000,
      100,
    );
    expect(moved.key).toBe(`${owner.user.id}/${id}`);
  });

  it('removes a deleted account’s files from the store, and an expired demo’s, and no one else’s', async () => {
    const admin = await newCustomerWithCalls(ctx, { accountType: 'admin', planType: 'admin' });
    const store = ctx.app.deps.media.store;
    const keysOf = async (cookie: string) => {
      const keys: string[] = [];
      for (const [name, data] of [
        ['foto.png', PNG],
        ['tabela.pdf', Buffer.from('%PDF-1.4\nTabela\n%%EOF\n')],
      ] as const) {
        const res = await apiCall(ctx, 'POST', '/api/uploads', { cookie, file: { name, data } });
        expect(res.statusCode, res.body).toBe(200);
        keys.push((await rowOf(res.json().id)).key as string);
      }
      return keys;
    };
    const gone = await newCustomerWithCalls(ctx);
    const demo = await newCustomerWithCalls(ctx, {
      accountType: 'demo',
      planType: 'demo',
      demoExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const kept = await newCustomerWithCalls(ctx);
    // A demo account is read-only: its image is stored as a restore would store it.
    const demoImage = await saveUpload(ctx.database.db, store, demo.user.id, { fileName: 'demo.png', data: PNG }, {});
    const demoKeys = [(await rowOf(demoImage.id)).key as string];
    const [goneKeys, keptKeys] = [await keysOf(gone.cookie), await keysOf(kept.cookie)];

    await ctx.database.db.execute(
      sql`update users set demo_expires_at = now() - interval '1 minute' where id = ${demo.user.id}`,
    );
    expect((await admin.call('DELETE', `/api/admin/users/${gone.user.id}`)).statusCode).toBe(200);
    const cleanup = await admin.call('POST', '/api/admin/cleanup');
    expect(cleanup.statusCode, cleanup.body).toBe(200);
    expect(cleanup.json().deletedCount).toBeGreaterThanOrEqual(1);
    for (const key of [...goneKeys, ...demoKeys]) {
      await waitFor(
        () => inStore(store, key),
        (there) => !there,
        10_000,
        100,
      );
    }
    for (const key of keptKeys) expect(await inStore(store, key)).toBe(true);
  });

  it('leaves nothing in the store for an image deleted while it was being moved', async () => {
    const owner = await newCustomerWithCalls(ctx);
    const id = await legacyImage(owner.user.id);
    const real = ctx.app.deps.media.store;
    // The row goes between the bytes being put and the row being pointed at them.
    const racing: MediaStore = Object.assign(Object.create(real), {
      put: async (...args: Parameters<MediaStore['put']>) => {
        const stored = await real.put(...args);
        await ctx.database.db.delete(mediaUploads).where(eq(mediaUploads.id, id));
        return stored;
      },
    });
    expect(await moveLegacyImages(ctx.database.db, racing)).toBe(0);
    expect(await inStore(real, `${owner.user.id}/${id}`)).toBe(false);
  });
});

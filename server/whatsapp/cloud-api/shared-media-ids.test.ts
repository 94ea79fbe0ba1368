import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePerFile } from '../../testing/app-per-file';
import { FakeGraphApi } from '../../testing/fake-graph-api';
import { createUser } from '../../testing/test-app';
import type { OutgoingMedia } from '../driver';
import { CloudApiDriver } from './cloud-driver';
import { GraphClient } from './graph-client';
import { databaseMediaIds } from './shared-media-ids';

/**
 * A Cloud API number's media ids live in the database: two processes (two drivers of one number, each
 * with its own memory) upload a file once between them, and a restarted process sends it by id.
 */
const database = databasePerFile();
const graph = new FakeGraphApi();
beforeAll(() => graph.start());
afterAll(() => graph.stop());

let seq = 0;
const pdf = (file: string): OutgoingMedia => ({
  kind: 'document',
  mimeType: 'application/pdf',
  fileName: 'catalogo.pdf',
  file,
  open: async () =>
    (async function* () {
      yield Buffer.from('%PDF-1.7 catálogo');
    })(),
});

async function number() {
  const user = await createUser({ database });
  const phoneNumberId = `2099${++seq}`;
  const token = `shared-token-${seq}`;
  graph.addPhone(phoneNumberId, token, `5511944440${seq}`);
  /** A driver as one process builds it: its own memory, the database shared. */
  const process = () =>
    new CloudApiDriver(
      new GraphClient({ baseUrl: graph.url, version: 'v21.0', accessToken: token }),
      phoneNumberId,
      null,
      null,
      async () => ({ data: Buffer.alloc(0), mimeType: 'image/jpeg' }),
      databaseMediaIds(database.db, user.id, phoneNumberId),
    );
  const uploads = () => graph.media.filter((m) => m.phoneNumberId === phoneNumberId).length;
  const sentIds = (n: number) => graph.sent.slice(-n).map((m) => (m.document as { id: string }).id);
  return { user, phoneNumberId, process, uploads, sentIds };
}

describe('media ids shared by every process', () => {
  it('uploads a file once for two processes and after a restart, and sends it by the same id', async () => {
    const n = await number();
    const [a, b] = [n.process(), n.process()];
    await a.send('5511911112222', { kind: 'media', media: pdf('f1'), caption: 'Oi' });
    await b.send('5511911113333', { kind: 'media', media: pdf('f1'), caption: 'Oi' });
    const restarted = n.process();
    await restarted.send('5511911114444', { kind: 'media', media: pdf('f1') });
    expect(n.uploads()).toBe(1);
    const ids = n.sentIds(3);
    expect(new Set(ids).size).toBe(1);
    // Another file is another upload.
    await b.send('5511911115555', { kind: 'media', media: pdf('f2') });
    expect(n.uploads()).toBe(2);
  });

  it('uploads again once Meta no longer keeps the file, and forgets the expired id', async () => {
    const n = await number();
    await n.process().send('5511911112222', { kind: 'media', media: pdf('old') });
    await database.db.execute(
      sql`update cloud_media_ids set uploaded_at = now() - interval '30 days' where user_id = ${n.user.id}`,
    );
    await n.process().send('5511911112222', { kind: 'media', media: pdf('old') });
    expect(n.uploads()).toBe(2);
    const rows = await database.db.execute(
      sql`select count(*)::int as n from cloud_media_ids where user_id = ${n.user.id} and uploaded_at < now() - interval '1 day'`,
    );
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });

  it('never hands one account’s media id to another account on the same number id', async () => {
    const a = await number();
    await a.process().send('5511911112222', { kind: 'media', media: pdf('same') });
    const other = await createUser({ database });
    expect(await databaseMediaIds(database.db, other.id, a.phoneNumberId).get('file:same')).toBeNull();
  });
});

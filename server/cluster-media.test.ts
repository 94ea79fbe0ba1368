import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type NodeServer } from '../scripts/launch-server.mjs';
import { BUS_CHANNEL } from './cluster/bus';
import { rendezvousOwner } from './cluster/process-registry';
import { importNumberedContacts } from './testing/cloud-account';
import { apiUpload, signIn } from './testing/http-session';
import { apiFetch, type HttpSession, untilCampaign } from './testing/raw-http';
import { sendingSettings } from './testing/sending-settings';
import { startSourceServer, untilHealthy } from './testing/source-server';
import { waitFor } from './testing/test-app';
import { COMMAND_TOPIC, REPLY_TOPIC } from './whatsapp/connection-rpc';

/**
 * Two real server processes on one PostgreSQL: a personal number held by one of them, its sending
 * lane run by the other (rendezvous hashing), an image campaign sent through it. The bus between
 * them carries ids, never the image: every notification is counted by LISTENing on the bus's
 * channel from here. (PostgreSQL only: the embedded database is one process by design.)
 */
const ADMIN = { username: 'admin', password: 'admin-media-1' };
/** Just under the 5 MB an upload may weigh. */
const IMAGE_BYTES = 5_000_000;
const CONTACTS = 5;

let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
let listener: pg.Client;
const servers: NodeServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
/** Every notification of the bus's RPC topics heard since the last reset: its size in bytes. */
let heard: number[] = [];

async function launch(name: string): Promise<NodeServer> {
  const s = await startSourceServer(
    name,
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      DISPATCH_TICK_MS: '50',
    },
    { stopTimeoutMs: 30_000 },
  );
  cleanups.push(() => s.stop());
  return s;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-media-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  database = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_media');
  cleanups.push(() => database.drop());
  servers.push(...(await Promise.all(['a', 'b'].map(launch))));
  for (const s of servers) {
    if (!(await untilHealthy(s))) throw new Error(`${s.name} did not start:\n${s.output()}`);
  }
  listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (n) => {
    const [, topic] = (n.payload ?? '').split('\t');
    if (topic === COMMAND_TOPIC || topic === REPLY_TOPIC) heard.push(Buffer.byteLength(n.payload ?? ''));
  });
  await listener.query(`LISTEN ${BUS_CHANNEL}`);
  cleanups.push(() => listener.end());
}, 180_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 120_000);

/** The processes every process counts as live, as the registry lists them. */
async function liveIds(): Promise<string[]> {
  const { rows } = await listener.query(
    `select id from server_processes where not draining and heartbeat_at > now() - interval '10 seconds' order by id`,
  );
  return rows.map((r) => r.id as string);
}

const serverOf = (processId: string) => servers.find((s) => processId.includes(`:${s.pid}:`));

/** The number the first test pairs, the process that holds it, and the account's session. */
const paired = {} as { numberId: string; holder: NodeServer; admin: HttpSession };
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('an image campaign over a personal number held by another process', () => {
  it('crosses the bus as ids: the holder reads the image itself, and every send command is a few hundred bytes', async () => {
    const ids = await waitFor(liveIds, (l) => l.length === 2, 20_000);
    // Both processes have read that list (they read it at every 2 s beat).
    await new Promise((r) => setTimeout(r, 2500));
    const admin = await signIn(servers[0].url, ADMIN);
    const settings = await apiFetch(
      admin.base,
      admin.cookie,
      'PUT',
      '/api/settings/whatsapp',
      sendingSettings('personal'),
    );
    expect(settings.status, settings.text).toBe(200);
    const added = await apiFetch(admin.base, admin.cookie, 'POST', '/api/connections', {
      kind: 'personal',
      label: 'Vendas',
    });
    expect(added.status, added.text).toBe(201);
    const numberId = added.body.connection.id as string;
    paired.numberId = numberId;
    // The lane runs where rendezvous hashing says; the number is paired through the other process,
    // which then holds it.
    const laneProcess = rendezvousOwner(ids, numberId) as string;
    const holderProcess = ids.find((id) => id !== laneProcess) as string;
    const holder = serverOf(holderProcess) as NodeServer;
    expect(holder).toBeDefined();
    paired.holder = holder;
    paired.admin = admin;
    const at: HttpSession = { base: holder.url, cookie: admin.cookie };
    const connect = await apiFetch(at.base, at.cookie, 'POST', `/api/connections/${numberId}/connect`, {});
    expect(connect.status, connect.text).toBe(200);
    await waitFor(
      async () => (await apiFetch(at.base, at.cookie, 'GET', `/api/connections/${numberId}`)).body,
      (c) => c.status === 'connected' && c.phoneNumber !== null,
      30_000,
    );
    const { rows: lease } = await listener.query(
      'select owner from whatsapp_connection_leases where connection_id = $1 and lease_until > now()',
      [numberId],
    );
    expect(lease.map((r) => r.owner)).toEqual([holderProcess]);

    const png = Buffer.concat([
      Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
      Buffer.alloc(IMAGE_BYTES - 16, 7),
    ]);
    const uploaded = await apiUpload(admin, '/api/uploads', { name: 'oferta.png', data: png });
    expect(uploaded.status, uploaded.text).toBe(200);
    // Numbers ending in 1…5: the simulator answers that a number ending in 0 has no WhatsApp.
    await importNumberedContacts(admin, CONTACTS, 10_000_001);
    const created = await apiFetch(admin.base, admin.cookie, 'POST', '/api/campaigns', {
      name: 'Oferta com imagem',
      message: 'Oi {{nome}}, veja a oferta',
      targetType: 'contacts',
      imageUrl: `upload:${uploaded.body.id}`,
      connectionIds: [numberId],
    });
    expect(created.status, created.text).toBe(200);
    heard = [];
    const send = await apiFetch(admin.base, admin.cookie, 'POST', `/api/campaigns/${created.body.id}/send`);
    expect(send.status, send.text).toBe(200);
    const done = await untilCampaign(admin, created.body.id, (c) => c.status === 'completed', 60_000);
    expect(done.progress).toMatchObject({ total: CONTACTS, queued: 0, sending: 0, failed: 0, skipped: 0 });

    // The lane ran on the other process: every send crossed the bus.
    const { rows: lane } = await listener.query('select owner from sending_lanes where connection_id = $1', [numberId]);
    expect(lane.map((r) => r.owner)).toEqual([laneProcess]);
    // The holder sent the image itself, read from the database: all its bytes, to every contact.
    const outbox = await apiFetch(at.base, at.cookie, 'GET', '/api/whatsapp/simulator/outbox');
    const images = (outbox.body.messages as Array<{ kind?: string; imageBytes?: number }>).filter(
      (m) => m.kind === 'image',
    );
    expect(images.map((m) => m.imageBytes)).toEqual(Array(CONTACTS).fill(IMAGE_BYTES));
    // What crossed the bus: per contact a "typing…" and a send, each with its answer; none of it the
    // image (it was 7,425 notifications and 45 MB, the image base64-encoded twice per send).
    const total = heard.reduce((a, b) => a + b, 0);
    console.info(
      `bus during an image campaign of ${CONTACTS} (${IMAGE_BYTES} bytes): ${heard.length} notifications, ${total} bytes, largest ${Math.max(...heard)}`,
    );
    expect(heard.length).toBeGreaterThanOrEqual(CONTACTS * 2);
    expect(heard.length).toBeLessThanOrEqual(CONTACTS * 6);
    expect(Math.max(...heard)).toBeLessThan(1_000);
    expect(total).toBeLessThan(CONTACTS * 6 * 1_000);
  }, 120_000);

  it('a file a contact sends to the holder is fetched by a job and read whole from either process; a PDF campaign crosses the bus as ids', async () => {
    expect(paired.holder, 'the first test pairs the number').toBeDefined();
    const { admin, holder, numberId } = paired;
    const other = servers.find((s) => s !== holder) as NodeServer;
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(3_000_000), Buffer.from('\n%%EOF\n')]);
    const from = '5521977770001';
    const arrived = await apiFetch(holder.url, admin.cookie, 'POST', '/api/whatsapp/simulator/inbound', {
      from,
      connectionId: numberId,
      text: 'segue o catálogo',
      media: {
        kind: 'document',
        mimeType: 'application/pdf',
        fileName: 'catalogo.pdf',
        dataBase64: pdf.toString('base64'),
      },
    });
    expect(arrived.status, arrived.text).toBeLessThan(300);
    // Read through the process that did not receive it: the row, the job and the bytes are shared.
    const url = await waitFor(
      async () => {
        const thread = await apiFetch(other.url, admin.cookie, 'GET', `/api/conversations/${from}`);
        const m = (thread.body.messages as Array<{ media?: { url: string; state?: string } }> | undefined)?.find(
          (x) => x.media,
        );
        return m?.media?.state === 'ready' ? m.media.url : null;
      },
      Boolean,
      30_000,
    );
    for (const s of servers) {
      const res = await fetch(`${s.url}${url}`, { headers: { cookie: admin.cookie } });
      expect(res.status, s.name).toBe(200);
      expect(sha(Buffer.from(await res.arrayBuffer())), s.name).toBe(sha(pdf));
    }

    // The received PDF sent on as a campaign's file, from the process that does not hold the number.
    const created = await apiFetch(other.url, admin.cookie, 'POST', '/api/campaigns', {
      name: 'Catálogo',
      message: 'Oi {{nome}}, o catálogo',
      targetType: 'contacts',
      mediaUrl: url,
      connectionIds: [numberId],
    });
    expect(created.status, created.text).toBe(200);
    const before = await apiFetch(holder.url, admin.cookie, 'GET', '/api/whatsapp/simulator/outbox');
    const seen = (before.body.messages as unknown[]).length;
    heard = [];
    const send = await apiFetch(other.url, admin.cookie, 'POST', `/api/campaigns/${created.body.id}/send`);
    expect(send.status, send.text).toBe(200);
    const done = await untilCampaign(admin, created.body.id, (c) => c.status === 'completed', 60_000);
    // The contact who sent the file is one of the account's contacts now, so one more recipient.
    expect(done.progress).toMatchObject({ total: CONTACTS + 1, failed: 0, skipped: 0 });
    const outbox = await apiFetch(holder.url, admin.cookie, 'GET', '/api/whatsapp/simulator/outbox');
    const docs = (
      outbox.body.messages as Array<{ kind?: string; mediaKind?: string; sha256?: string; fileName?: string }>
    )
      .slice(seen)
      .filter((m) => m.mediaKind === 'document');
    expect(docs).toHaveLength(CONTACTS + 1);
    for (const d of docs) expect(d).toMatchObject({ fileName: 'catalogo.pdf', sha256: sha(pdf) });
    expect(Math.max(...heard)).toBeLessThan(1_000);
  }, 120_000);
});

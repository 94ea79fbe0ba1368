import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type NodeServer } from '../scripts/launch-server.mjs';
import { rendezvousOwner } from './cluster/process-registry';
import { importNumberedContacts, inboundDelivery, sendThroughCloud } from './testing/cloud-account';
import { FakeGraphApi } from './testing/fake-graph-api';
import { signIn } from './testing/http-session';
import { apiFetch, type HttpSession, readCampaign, startCampaign } from './testing/raw-http';
import { RoundRobinProxy } from './testing/round-robin-proxy';
import { sendingSettings } from './testing/sending-settings';
import { startSourceServer, untilHealthy } from './testing/source-server';
import { waitFor, within } from './testing/test-app';
import { signBody } from './whatsapp/cloud-api/webhook';

/**
 * Three real server processes on one PostgreSQL database behind a round-robin proxy, as a load
 * balancer runs them: they start together, what one changes the others apply within a second,
 * a campaign survives its sending process being killed, and a rolling restart loses and repeats
 * nothing. (PostgreSQL only: the embedded database is one process by design.)
 */
const PHONE_ID = '109000000000888';
const TOKEN = 'EAAG-cluster-token';
const ADMIN = { username: 'admin', password: 'admin-cluster-1' };

let graph: FakeGraphApi;
let database: { url: string; drop: () => Promise<void> };
let sql: pg.Pool;
let proxy: RoundRobinProxy;
let dataDir: string;
const servers: NodeServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

async function launch(name: string): Promise<NodeServer> {
  const s = await startSourceServer(
    name,
    {
      DATABASE_URL: database.url,
      // One machine: the processes share the data directory, and with it the generated secrets.
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      GRAPH_API_URL: graph.url,
      DISPATCH_TICK_MS: '50',
      WHATSAPP_CLOUD_THROUGHPUT: '400',
    },
    { stopTimeoutMs: 30_000 },
  );
  cleanups.push(() => s.stop());
  return s;
}

/** What the servers said, for a failure's message. */
const said = () => servers.map((s) => `--- ${s.name}\n${s.output()}`).join('\n');

async function healthy(s: NodeServer): Promise<void> {
  if (!(await untilHealthy(s))) throw new Error(`${s.name} did not start:\n${s.output()}`);
}

const me = (base: string, cookie: string) =>
  fetch(`${base}/api/auth/me`, { headers: { cookie } }).then((r) => r.status);

/** A customer registered and approved by the administrator, signed in through the proxy. */
async function approvedCustomer(admin: HttpSession, username: string): Promise<{ id: string; session: HttpSession }> {
  const password = `senha-${username}`;
  const registered = await apiFetch(proxy.url, '', 'POST', '/api/auth/register', {
    name: `Loja ${username}`,
    email: `${username}@example.com`,
    username,
    password,
    whatsappNumber: `+55 11 9${String(1000 + ++customers)}-0000`,
  });
  expect(registered.status, registered.text).toBe(201);
  const users = await apiFetch(proxy.url, admin.cookie, 'GET', '/api/admin/users');
  const user = (users.body as Array<{ id: string; username: string }>).find((u) => u.username === username);
  expect(user).toBeDefined();
  const approved = await apiFetch(proxy.url, admin.cookie, 'PATCH', `/api/admin/users/${user?.id}`, {
    isActive: true,
  });
  expect(approved.status, approved.text).toBe(200);
  return { id: user?.id as string, session: await signIn(proxy.url, { username, password }) };
}
let customers = 0;

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.addPhone(PHONE_ID, TOKEN, '551130008888', 'Loja Cluster');
  cleanups.push(() => graph.stop());
  dataDir = mkdtempSync(join(tmpdir(), 'disparo-cluster-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  database = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_cluster');
  cleanups.push(() => database.drop());
  sql = new pg.Pool({ connectionString: database.url, max: 2 });
  cleanups.push(() => sql.end());
  // All three at once on the empty database: migrations and the administrator take turns.
  servers.push(...(await Promise.all(['a', 'b', 'c'].map(launch))));
  await Promise.all(servers.map(healthy));
  proxy = await new RoundRobinProxy(servers.map((s) => s.url)).start();
  cleanups.push(() => proxy.stop());
}, 180_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 120_000);

describe('several processes on one PostgreSQL', () => {
  it('start together: every process serves, joined to the registry, with one administrator', async () => {
    const { rows: admins } = await sql.query(`select count(*)::int as n from users where account_type = 'admin'`);
    expect(admins[0].n).toBe(1);
    const live = await within(10_000, async () => {
      const { rows } = await sql.query('select id from server_processes where not draining');
      return rows.length === 3;
    });
    expect(live).toBeLessThan(10_000);
    for (const s of servers) expect(await me(s.url, '')).toBe(401);
  });

  it('a logout and a password change are refused on every process within a second', async () => {
    const session = await signIn(proxy.url, ADMIN);
    // Every process has the session in memory.
    for (const s of servers) expect(await me(s.url, session.cookie)).toBe(200);
    const out = await fetch(`${servers[0].url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: session.cookie, origin: servers[0].url },
    });
    expect(out.status).toBe(200);
    for (const s of servers.slice(1)) {
      await within(1000, async () => (await me(s.url, session.cookie)) === 401);
    }

    // Two sessions; the password changes through one on process a: the other ends everywhere.
    const keep = await signIn(proxy.url, ADMIN);
    const other = await signIn(proxy.url, ADMIN);
    for (const s of servers) expect(await me(s.url, other.cookie)).toBe(200);
    const newPassword = 'admin-cluster-2';
    const changed = await apiFetch(servers[0].url, keep.cookie, 'POST', '/api/auth/change-password', {
      currentPassword: ADMIN.password,
      newPassword,
      confirmPassword: newPassword,
    });
    expect(changed.status, changed.text).toBe(200);
    for (const s of servers.slice(1)) {
      await within(1000, async () => (await me(s.url, other.cookie)) === 401);
    }
    for (const s of servers) expect(await me(s.url, keep.cookie)).toBe(200);
    // Back to the first password for the other tests.
    const back = await apiFetch(servers[0].url, keep.cookie, 'POST', '/api/auth/change-password', {
      currentPassword: newPassword,
      newPassword: ADMIN.password,
      confirmPassword: ADMIN.password,
    });
    expect(back.status, back.text).toBe(200);
  });

  it('a deactivated account is refused on every process within a second', async () => {
    const admin = await signIn(proxy.url, ADMIN);
    const { id, session } = await approvedCustomer(admin, 'lojadesativada');
    for (const s of servers) expect(await me(s.url, session.cookie)).toBe(200);
    const off = await apiFetch(servers[0].url, admin.cookie, 'PATCH', `/api/admin/users/${id}`, { isActive: false });
    expect(off.status, off.text).toBe(200);
    for (const s of servers.slice(1)) {
      await within(1000, async () => (await me(s.url, session.cookie)) !== 200);
    }
  });

  it("a customer's first request on one process counts it online on every process within a second", async () => {
    const admin = await signIn(proxy.url, ADMIN);
    const { id, session } = await approvedCustomer(admin, 'lojapresente');
    const onlineOn = async (base: string) => {
      const active = await apiFetch(base, admin.cookie, 'GET', '/api/users/active');
      return (active.body.activeUsers as Array<{ userId: string; isOnline: boolean }>).some(
        (u) => u.userId === id && u.isOnline,
      );
    };
    expect(await me(servers[0].url, session.cookie)).toBe(200);
    for (const s of servers.slice(1)) await within(1000, () => onlineOn(s.url));
  });

  it('a changed app secret: the old signature is refused on every process within a second', async () => {
    const s = await signIn(proxy.url, ADMIN);
    const configure = (appSecret: string) =>
      apiFetch(servers[0].url, s.cookie, 'POST', '/api/whatsapp-business/configure', {
        accessToken: TOKEN,
        phoneNumberId: PHONE_ID,
        appSecret,
      });
    const first = await configure('segredo-velho');
    expect(first.status, first.text).toBe(200);
    const path = first.body.config.webhookPath as string;
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const post = (base: string, secret: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, secret) },
        body,
      }).then((r) => r.status);
    // Every process knows the old secret (it is cached after the first delivery).
    for (const server of servers) expect(await post(server.url, 'segredo-velho')).toBe(200);
    expect((await configure('segredo-novo')).status).toBe(200);
    for (const server of servers.slice(1)) {
      await within(1000, async () => (await post(server.url, 'segredo-velho')) === 403);
      expect(await post(server.url, 'segredo-novo')).toBe(200);
    }
  });

  it("one contact's webhooks spread over the three processes: answered once each, in order, welcomed once", async () => {
    const session = await signIn(proxy.url, ADMIN);
    const call = (method: string, path: string, body?: unknown) =>
      apiFetch(session.base, session.cookie, method, path, body);
    const configured = await call('POST', '/api/whatsapp-business/configure', {
      accessToken: TOKEN,
      phoneNumberId: PHONE_ID,
      appSecret: 'segredo-bot',
    });
    expect(configured.status, configured.text).toBe(200);
    const path = configured.body.config.webhookPath as string;
    const saved = await call('POST', '/api/bot-config', {
      isEnabled: true,
      welcomeMessage: 'Bem-vindo à Loja Cluster!',
      autoReplies: Array.from({ length: 20 }, (_, i) => ({ trigger: `item${i}`, response: `resposta ${i}` })),
    });
    expect(saved.status, saved.text).toBe(200);
    // Every process has the new rules (the bus) before the messages come.
    await new Promise((r) => setTimeout(r, 300));
    graph.sent.length = 0;
    // Each reply takes longer than the gap between two messages, so without one turn per contact
    // across processes the next message's reply would overtake it.
    graph.latencyMs = 150;
    const from = '5511987650777';
    const deliveries: Promise<number>[] = [];
    for (let i = 0; i < 20; i++) {
      const body = inboundDelivery(
        { phoneNumberId: PHONE_ID, displayPhoneNumber: '551130008888' },
        from,
        `wamid.CLUSTER-${i}`,
        { type: 'text', text: { body: `item${i}` } },
        'Cliente Cluster',
      );
      // Through the proxy: each delivery lands on the next process.
      deliveries.push(
        fetch(`${proxy.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, 'segredo-bot') },
          body,
        }).then((r) => r.status),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await Promise.all(deliveries)).toEqual(Array(20).fill(200));
    const texts = () =>
      graph.sent
        .filter((m) => m.to === from)
        .map((m) => ((m.text as { body?: string } | undefined)?.body ?? '') as string);
    await waitFor(
      () => Promise.resolve(texts()),
      (t) => t.length >= 21,
      60_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 500));
    graph.latencyMs = 0;
    expect(texts()).toEqual(['Bem-vindo à Loja Cluster!', ...Array.from({ length: 20 }, (_, i) => `resposta ${i}`)]);
  }, 90_000);

  it('a personal number: the same state on every process within 2 s, and taken over within 30 s of its holder being killed', async () => {
    const session = await signIn(proxy.url, ADMIN);
    const poll = async (base: string) =>
      (await apiFetch(base, session.cookie, 'GET', '/api/whatsapp-session')).body as {
        state: string;
        isConnected: boolean;
      };
    const connect = await apiFetch(servers[1].url, session.cookie, 'POST', '/api/whatsapp/connect', {});
    expect(connect.status, connect.text).toBe(200);
    // The simulator shows its QR code, then connects; once one process says so, all do within 2 s.
    await within(30_000, async () => (await poll(servers[0].url)).isConnected);
    await within(2000, async () => (await Promise.all(servers.map((x) => poll(x.url)))).every((p) => p.isConnected));

    const { rows: held } = await sql.query(
      `select l.owner from whatsapp_connection_leases l join users u on u.id = l.user_id
       where u.username = $1 and l.lease_until > now()`,
      [ADMIN.username],
    );
    expect(held).toHaveLength(1);
    const holder = servers.find((x) => (held[0].owner as string).includes(`:${x.pid}:`));
    expect(holder, held[0].owner).toBeDefined();
    holder?.child.kill('SIGKILL');
    await holder?.exited;
    const survivors = servers.filter((x) => x !== holder);
    proxy.setUpstreams(survivors.map((x) => x.url));
    // A survivor takes the lease (never two holders: one row, one owner) and reconnects from the saved session.
    const takenIn = await within(30_000, async () => {
      const { rows } = await sql.query(
        `select l.owner from whatsapp_connection_leases l join users u on u.id = l.user_id
         where u.username = $1 and l.lease_until > now()`,
        [ADMIN.username],
      );
      return rows.length === 1 && rows[0].owner !== held[0].owner;
    });
    expect(takenIn).toBeLessThanOrEqual(30_000);
    await within(15_000, async () =>
      (await Promise.all(survivors.map((x) => poll(x.url)))).every((p) => p.isConnected),
    );
    // No new QR code was needed: the state never went back to 'qr' on the survivors.
    for (const x of survivors) expect((await poll(x.url)).state).toBe('connected');
    const sent = await apiFetch(proxy.url, session.cookie, 'POST', '/api/whatsapp/disconnect', {});
    expect(sent.status, sent.text).toBe(200);
    await within(5000, async () => (await Promise.all(survivors.map((x) => poll(x.url)))).every((p) => !p.isConnected));
    const replacement = await launch('p');
    await healthy(replacement);
    servers.splice(servers.indexOf(holder as NodeServer), 1, replacement);
    proxy.setUpstreams(servers.map((x) => x.url));
  }, 120_000);

  it("four accounts' campaigns: each lane runs on the process rendezvous hashing gives it, and every one completes", async () => {
    const admin = await signIn(proxy.url, ADMIN);
    const accounts: Array<{ id: string; session: Awaited<ReturnType<typeof signIn>>; campaign: string }> = [];
    for (let i = 0; i < 4; i++) {
      const phoneId = `10900000000${1000 + i}`;
      graph.addPhone(phoneId, `${TOKEN}-${i}`, `55113000${1000 + i}`, `Loja ${i}`);
      const { id, session } = await approvedCustomer(admin, `loja${i}cluster`);
      await sendThroughCloud(session, { accessToken: `${TOKEN}-${i}`, phoneNumberId: phoneId });
      await importNumberedContacts(session, 400, 60_000_000 + i * 1000);
      accounts.push({ id, session, campaign: '' });
    }
    // Slower sends, so all four run at once.
    graph.latencyMs = 300;
    try {
      // The list every process reads: the live ones (a process killed earlier drops out after 10 s).
      let ids: string[] = [];
      await within(20_000, async () => {
        const { rows } = await sql.query(
          `select id from server_processes where not draining and heartbeat_at > now() - interval '10 seconds' order by id`,
        );
        ids = rows.map((r) => r.id as string);
        return ids.length === 3;
      });
      // Every process has read that list too (they read it at every 2 s beat).
      await new Promise((r) => setTimeout(r, 2500));
      for (const a of accounts) a.campaign = await startCampaign(a.session, 'Quatro');
      // One lane per number: each account sends through its one Cloud number.
      const seen = new Map<string, { owner: string; number: string }>();
      await within(30_000, async () => {
        const { rows } = await sql.query(
          'select user_id, connection_id, owner from sending_lanes where lease_until is not null and user_id = any($1::uuid[])',
          [accounts.map((a) => a.id)],
        );
        for (const r of rows) seen.set(r.user_id, { owner: r.owner, number: r.connection_id });
        return seen.size === accounts.length;
      });
      for (const a of accounts) {
        const lane = seen.get(a.id);
        expect(lane?.owner, a.id).toBe(rendezvousOwner(ids, lane?.number ?? ''));
      }
      for (const a of accounts) {
        const done = await waitFor(
          () => readCampaign(a.session, a.campaign),
          (c) => c.status === 'completed',
          90_000,
          200,
        );
        expect(done.progress).toMatchObject({ total: 400, queued: 0, sending: 0, failed: 0 });
      }
    } finally {
      graph.latencyMs = 0;
    }
  }, 180_000);

  it("one account's campaign over three Cloud numbers: each number's lane on its own process, shared, each recipient once", async () => {
    const admin = await signIn(proxy.url, ADMIN);
    const { id: userId, session } = await approvedCustomer(admin, 'trescluster');
    const premium = await apiFetch(proxy.url, admin.cookie, 'PATCH', `/api/admin/users/${userId}`, {
      planType: 'premium',
    });
    expect(premium.status, premium.text).toBe(200);
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const phoneNumberId = `10900000000${2000 + i}`;
      graph.addPhone(phoneNumberId, `${TOKEN}-tres-${i}`, `55113000${2000 + i}`);
      const added = await apiFetch(proxy.url, session.cookie, 'POST', '/api/connections', {
        kind: 'cloud',
        label: `Chip ${i + 1}`,
        accessToken: `${TOKEN}-tres-${i}`,
        phoneNumberId,
      });
      expect(added.status, added.text).toBe(201);
      numbers.push((added.body as { connection: { id: string } }).connection.id);
    }
    // A number renamed on one process is read renamed on every process within a second (each one had
    // the account's numbers cached).
    const labels = async (base: string) =>
      (
        (await apiFetch(base, session.cookie, 'GET', '/api/connections')).body as {
          connections: Array<{ label: string }>;
        }
      ).connections.map((c) => c.label);
    for (const x of servers) expect(await labels(x.url)).toContain('Chip 1');
    const renamed = await apiFetch(servers[0].url, session.cookie, 'PATCH', `/api/connections/${numbers[0]}`, {
      label: 'Chip Um',
    });
    expect(renamed.status, renamed.text).toBe(200);
    await within(1000, async () =>
      (await Promise.all(servers.map((x) => labels(x.url)))).every((l) => l.includes('Chip Um')),
    );
    const settings = await apiFetch(proxy.url, session.cookie, 'PUT', '/api/settings/whatsapp', sendingSettings());
    expect(settings.status, settings.text).toBe(200);
    await importNumberedContacts(session, 600, 80_000_000);
    const recipients = new Set(Array.from({ length: 600 }, (_, i) => `55219${80_000_000 + i}`));
    graph.latencyMs = 200;
    try {
      const { rows: live } = await sql.query(
        `select id from server_processes where not draining and heartbeat_at > now() - interval '10 seconds' order by id`,
      );
      const ids = live.map((r) => r.id as string);
      const created = await apiFetch(proxy.url, session.cookie, 'POST', '/api/campaigns', {
        name: 'Três chips',
        message: 'Oi {{nome}}',
        targetType: 'contacts',
        connectionIds: numbers,
      });
      expect(created.status, created.text).toBe(200);
      const campaign = (created.body as { id: string }).id;
      expect((await apiFetch(proxy.url, session.cookie, 'POST', `/api/campaigns/${campaign}/send`)).status).toBe(200);
      // Each number's lane runs on the process rendezvous hashing gives that number.
      const seen = new Map<string, string>();
      await within(30_000, async () => {
        const { rows } = await sql.query(
          'select connection_id, owner from sending_lanes where lease_until is not null and connection_id = any($1::uuid[])',
          [numbers],
        );
        for (const r of rows) seen.set(r.connection_id, r.owner);
        return seen.size === numbers.length;
      });
      for (const n of numbers) expect(seen.get(n), n).toBe(rendezvousOwner(ids, n));
      const done = await waitFor(
        () => readCampaign(session, campaign),
        (c) => c.status === 'completed',
        90_000,
        200,
      );
      expect(done.progress).toMatchObject({ total: 600, queued: 0, sending: 0, failed: 0 });
      const { rows } = await sql.query(
        `select connection_id, count(*)::int as n, count(distinct recipient)::int as distinct_n
         from campaign_recipients where campaign_id = $1 and sent_at is not null group by connection_id`,
        [campaign],
      );
      expect(rows.map((r) => r.connection_id).sort()).toEqual([...numbers].sort());
      expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(600);
      for (const r of rows) expect(r.n).toBe(r.distinct_n);
      // What Meta received: each recipient once, whichever process sent it.
      const received = graph.sent.map((m) => m.to as string).filter((to) => recipients.has(to));
      expect(received).toHaveLength(600);
      expect(new Set(received).size).toBe(600);
    } finally {
      graph.latencyMs = 0;
    }
  }, 180_000);

  it('a Cloud campaign of 10,000 whose sending process is killed: taken over within 15 s, none missing', async () => {
    graph.sent.length = 0;
    const recipients = 10_000;
    const s = await signIn(proxy.url, ADMIN);
    await sendThroughCloud(s, { accessToken: TOKEN, phoneNumberId: PHONE_ID });
    await importNumberedContacts(s, recipients, 70_000_000);
    const id = await startCampaign(s, 'Cluster');
    await waitFor(
      () => Promise.resolve(graph.sent.length),
      (n) => n >= 1000,
      60_000,
      50,
    ).catch(async (err) => {
      throw new Error(`${err}\n${JSON.stringify(await readCampaign(s, id))}\n${said()}`);
    });
    // The process holding the account's lane is the one sending: kill it.
    const { rows } = await sql.query('select owner from sending_lanes where lease_until is not null');
    expect(rows).toHaveLength(1);
    const sender = servers.find((x) => (rows[0].owner as string).includes(`:${x.pid}:`));
    expect(sender, rows[0].owner).toBeDefined();
    sender?.child.kill('SIGKILL');
    await sender?.exited;
    const atKill = graph.sent.length;
    const survivors = servers.filter((x) => x !== sender);
    proxy.setUpstreams(survivors.map((x) => x.url));
    const resumedIn = await within(15_000, async () => graph.sent.length > atKill + 50);
    expect(resumedIn).toBeLessThanOrEqual(15_000);
    // The killed process is replaced, as a supervisor would; the new one takes its share.
    const replacement = await launch('d');
    await healthy(replacement);
    servers.splice(servers.indexOf(sender as NodeServer), 1, replacement);
    proxy.setUpstreams(servers.map((x) => x.url));
    const reader = await signIn(survivors[0].url, ADMIN);
    const done = await waitFor(
      () => readCampaign(reader, id),
      (c) => c.status === 'completed',
      90_000,
      200,
    );
    const to = graph.sent.map((m) => m.to as string);
    // Every contact of the account: the imported ones and the one the chatbot test's messages created.
    expect(done.progress.total).toBe(recipients + 1);
    expect(new Set(to).size).toBe(done.progress.total);
    // Only what was in flight at the kill may have gone twice.
    expect(to.length - new Set(to).size).toBeLessThanOrEqual(200);
    expect(done.progress).toMatchObject({ queued: 0, sending: 0, failed: 0 });
  }, 180_000);

  it('a rolling restart (SIGTERM one by one) during a campaign loses and repeats nothing', async () => {
    graph.sent.length = 0;
    const s = await signIn(proxy.url, ADMIN);
    const id = await startCampaign(s, 'Rolagem');
    const recipients = 10_000;
    let n = 0;
    for (const old of [...servers]) {
      await waitFor(
        () => Promise.resolve(graph.sent.length),
        (sent) => sent >= Math.min(recipients - 500, (n + 1) * 1500),
        60_000,
        50,
      );
      const fresh = await launch(`r${n++}`);
      await healthy(fresh);
      servers.splice(servers.indexOf(old), 1, fresh);
      proxy.setUpstreams(servers.map((x) => x.url));
      await old.stop();
      expect(old.exitStatus()?.code, old.output()).toBe(0);
    }
    const reader = await signIn(proxy.url, ADMIN);
    const done = await waitFor(
      () => readCampaign(reader, id),
      (c) => c.status === 'completed',
      120_000,
      200,
    );
    const to = graph.sent.map((m) => m.to as string);
    // Every contact of the account: the imported ones and the one the chatbot test's messages created.
    expect(done.progress.total).toBe(recipients + 1);
    expect(new Set(to).size).toBe(done.progress.total);
    expect(to.length - new Set(to).size).toBe(0);
    expect(done.progress).toMatchObject({ queued: 0, sending: 0, failed: 0 });
  }, 300_000);
});

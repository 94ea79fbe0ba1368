import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../scripts/launch-server.mjs';
import { importNumberedContacts, sendThroughCloud } from '../testing/cloud-account';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { signIn } from '../testing/http-session';
import { type HttpSession, readCampaign, startCampaign } from '../testing/raw-http';
import { startSourceServer, untilHealthy } from '../testing/source-server';
import { waitFor } from '../testing/test-app';

/**
 * Real server processes (the source run with tsx) sending through the Cloud API driver to a local
 * fake Graph API, which is the witness of what left: killed with SIGKILL mid-campaign and
 * restarted, and two processes on one database.
 */
const PHONE_ID = '109000000000777';
const TOKEN = 'EAAG-processes-token';
const ADMIN = { username: 'admin', password: 'admin-processos-1' };
const RECIPIENTS = 1000;
/** Two real servers start (tsx compiles the source) and a campaign of RECIPIENTS runs: its waits add up past the default 30 s. */
const PROCESS_TEST_MS = 120_000;

let graph: FakeGraphApi;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  graph.addPhone(PHONE_ID, TOKEN, '551130007777', 'Loja Processos');
  cleanups.push(() => graph.stop());
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Where the servers keep their data: a PGlite directory, or a fresh PostgreSQL database on the PostgreSQL run. */
async function storage(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-proc-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (process.env.TEST_DB !== 'postgres') return { DATA_DIR: dataDir };
  const db = await createDatabase(process.env.TEST_DATABASE_URL as string, 'disparo_proc');
  cleanups.push(() => db.drop());
  return { DATA_DIR: dataDir, DATABASE_URL: db.url };
}

async function server(env: Record<string, string>, name: string) {
  const s = await startSourceServer(name, {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    GRAPH_API_URL: graph.url,
    DISPATCH_TICK_MS: '50',
    DISPATCH_LEASE_MS: '2000',
    WHATSAPP_CLOUD_THROUGHPUT: '150',
    ...env,
  });
  cleanups.push(() => s.stop());
  if (!(await untilHealthy(s, 60_000))) throw new Error(`${name} did not start:\n${s.output()}`);
  return s;
}

/** The Cloud API as channel, any hour, RECIPIENTS contacts, and a started campaign. */
async function startCloudCampaign(s: HttpSession): Promise<string> {
  await sendThroughCloud(s, { accessToken: TOKEN, phoneNumberId: PHONE_ID });
  await importNumberedContacts(s, RECIPIENTS, 80_000_000);
  return startCampaign(s, 'Processos');
}

const sentTo = () => graph.sent.map((m) => m.to as string);

function duplicates(to: string[]): number {
  return to.length - new Set(to).size;
}

describe('server processes', () => {
  it(
    'a server killed with SIGKILL mid-campaign loses nothing: after restart every recipient got one message',
    async () => {
      graph.sent.length = 0;
      const env = await storage();
      const first = await server(env, 'first');
      const id = await startCloudCampaign(await signIn(first.url, ADMIN));
      await waitFor(sentTo, (to) => to.length >= 200, 30_000, 100);
      first.child.kill('SIGKILL');
      await first.exited;
      const atKill = sentTo().length;
      expect(atKill).toBeLessThan(RECIPIENTS);

      const second = await server(env, 'second');
      const again = await signIn(second.url, ADMIN);
      const done = await waitFor(
        () => readCampaign(again, id),
        (c) => c.status === 'completed',
        60_000,
        100,
      );
      const to = sentTo();
      expect(new Set(to).size).toBe(RECIPIENTS);
      // Only what was in flight at the kill may have gone twice (at most a claim batch and the requests in flight).
      expect(duplicates(to)).toBeLessThanOrEqual(150);
      expect(done.progress).toMatchObject({ total: RECIPIENTS, queued: 0, sending: 0, failed: 0 });
      expect(done.messagesSent).toBe(RECIPIENTS);
    },
    PROCESS_TEST_MS,
  );

  it(
    'two processes on one database: one sends, none twice (PostgreSQL); a second process cannot open the embedded database',
    async () => {
      graph.sent.length = 0;
      const env = await storage();
      const one = await server(env, 'one');
      if (process.env.TEST_DB !== 'postgres') {
        const two = await startSourceServer('two', env);
        cleanups.push(() => two.stop());
        const status = await two.exited;
        expect(status.code).toBe(1);
        expect(two.output()).toContain('Another Disparo server');
        return;
      }
      const two = await server(env, 'two');
      const id = await startCloudCampaign(await signIn(one.url, ADMIN));
      const other = await signIn(two.url, ADMIN);
      await waitFor(
        () => readCampaign(other, id),
        (c) => c.status === 'completed',
        60_000,
        100,
      );
      expect(sentTo()).toHaveLength(RECIPIENTS);
      expect(duplicates(sentTo())).toBe(0);
    },
    PROCESS_TEST_MS,
  );
});

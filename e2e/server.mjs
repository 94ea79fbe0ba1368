// Starts the built server for the browser tests on a fresh PostgreSQL database, which the tests
// may also reach (to expire a demo, for instance) through the URL written to e2e/.state.json.
// The database is dropped when the server stops.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const base = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const name = `disparo_e2e_${randomBytes(5).toString('hex')}`;
const url = new URL(base);
url.pathname = `/${name}`;

const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
writeFileSync(new URL('./.state.json', import.meta.url), JSON.stringify({ databaseUrl: url.toString() }));

// A local fake of the Graph API (WhatsApp Cloud API) with one phone number the tests configure.
const { register } = await import('tsx/esm/api');
register();
const { FakeGraphApi } = await import('../server/testing/fake-graph-api.ts');
const graph = await new FakeGraphApi().start();
graph.phones.set('109000000000001', {
  token: 'EAAG-e2e-token',
  display_phone_number: '551130009999',
  verified_name: 'Loja E2E',
  quality_rating: 'GREEN',
  code_verification_status: 'VERIFIED',
  status: 'CONNECTED',
  businessAccountId: '209000000000001',
});

const dataDir = mkdtempSync(join(tmpdir(), 'disparo-e2e-'));
const server = spawn(process.execPath, ['dist/server/main.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: process.env.E2E_PORT || '5180',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: url.toString(),
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'admin-e2e-senha',
    LOGIN_RATE_LIMIT: '1000',
    WHATSAPP_DRIVER: 'simulator',
    GRAPH_API_URL: graph.url,
    LOG_LEVEL: 'warn',
    SUPPORT_WHATSAPP: '+55 11 97777-6666',
  },
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await graph.stop();
  await new Promise((r) => setTimeout(r, 1000));
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  } catch (err) {
    console.error('could not drop the e2e database', err);
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
server.on('exit', (code) => stop(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

// Starts the built server for the browser tests on a fresh PostgreSQL database, which the tests
// may also reach (to expire a demo, for instance) through the URL written to e2e/.state.json.
// The database is dropped when the server stops.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchDisparo } from '../scripts/launch-server.mjs';

// A local fake of the Graph API (WhatsApp Cloud API) with the phone numbers the tests configure:
// one per account that configures one (a phone number id sends for one account only).
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
graph.phones.set('109000000000002', {
  token: 'EAAG-e2e-token',
  display_phone_number: '551130009998',
  verified_name: 'Loja E2E Backup',
  quality_rating: 'GREEN',
  code_verification_status: 'VERIFIED',
  status: 'CONNECTED',
  businessAccountId: '209000000000002',
});

// A real SMTP server on loopback receives the app's e-mails; each one is written as JSON to a
// folder the specs read (e2e/password-reset.spec.ts).
const { SmtpSink } = await import('../server/testing/smtp-sink.ts');
const mailDir = mkdtempSync(join(tmpdir(), 'disparo-e2e-mail-'));
const smtp = await new SmtpSink().start();
let mailCount = 0;
smtp.onMail = (mail) => {
  const { raw: _raw, ...parsed } = mail;
  writeFileSync(join(mailDir, `${Date.now()}-${mailCount++}.json`), JSON.stringify(parsed));
};
const stopMail = async () => {
  await smtp.stop();
  rmSync(mailDir, { recursive: true, force: true });
};

const server = await launchDisparo({
  name: 'disparo e2e',
  port: Number(process.env.E2E_PORT || 5180),
  dataDirPrefix: 'disparo-e2e-',
  postgres: {
    serverUrl: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    prefix: 'disparo_e2e',
  },
  env: {
    ...process.env,
    NODE_ENV: 'test',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'admin-e2e-senha',
    LOGIN_RATE_LIMIT: '1000',
    WHATSAPP_DRIVER: 'simulator',
    GRAPH_API_URL: graph.url,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    SUPPORT_WHATSAPP: '+55 11 97777-6666',
  },
}).catch(async (err) => {
  await graph.stop();
  await stopMail();
  throw err;
});
writeFileSync(new URL('./.state.json', import.meta.url), JSON.stringify({ databaseUrl: server.databaseUrl, mailDir }));

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  try {
    await server.stop();
  } catch (err) {
    console.error('could not drop the e2e database', err);
  }
  await graph.stop();
  await stopMail();
  process.exit(code);
}
server.exited.then(({ code }) => stop(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

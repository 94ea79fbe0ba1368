import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { BACKUP_FORMAT, BACKUP_MAX_FILE_MB, BACKUP_VERSION } from '../contract/backup';
import { unlimitedCustomer } from './lib/contacts';
import { expectStatus, type Response, request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { type DisparoServer, startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: restoring a backup as large as a restore accepts (BACKUP_MAX_FILE_MB, 50 MiB) while
 * the server keeps answering. The file is what `GET /api/backup` writes for an account of 100,000
 * contacts and campaigns to them whose report lines fill the rest (sent, delivered, read, failed
 * and never sent, each sent within its campaign's hours). Meanwhile `/api/health` is asked one
 * request after another (a monitor's probe, 10 ms apart) and, as information, another account's
 * contact list, which needs the database: on the embedded database it waits for the restore's
 * transaction. Targets: health p99 under 100 ms and never over 500 ms, during the restore and the
 * 3 s after it (the vacuum that follows a large restore); every contact, campaign and sent line
 * restored and counted in /api/metrics.
 */
export const name = 'restore';

const MAX_HEALTH_P99_MS = 100;
const MAX_HEALTH_MS = 500;
const AFTER_MS = 3_000;

const DDD = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '91'];
const FIRST = ['Ana', 'João', 'Maria', 'José', 'Antônio', 'Francisca', 'Luíza', 'Carlos', 'Paulo', 'Conceição'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Ferreira', 'Araújo', 'Gonçalves', 'Melo'];
const STATUSES = ['read', 'read', 'delivered', 'delivered', 'delivered', 'sent', 'sent', 'failed', 'queued', 'read'];

interface BackupText {
  data: Buffer;
  contacts: number;
  campaigns: number;
  lines: number;
  /** Lines sent or later (sent, delivered, read): what /api/metrics counts as sent. */
  sent: number;
}

/**
 * A backup in the export's shape, at most `maxBytes` long: `contacts` contacts, then campaigns of
 * `perCampaign` lines to them, one a day, until the next line would not fit.
 */
function backupText(contacts: number, perCampaign: number, maxBytes: number): BackupText {
  const day0 = Date.UTC(2026, 0, 5, 12);
  const iso = (ms: number) => new Date(ms).toISOString();
  const phone = (i: number) => `55${DDD[i % 10]}9${String(10_000_000 + ((i * 7919) % 90_000_000))}`;
  const person = (i: number) => `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 10]} ${i}`;
  const parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    parts.push(s);
    size += Buffer.byteLength(s);
  };
  const head = { format: BACKUP_FORMAT, version: BACKUP_VERSION, exportedAt: iso(Date.now()) };
  push(`${JSON.stringify(head).slice(0, -1)},"contacts":[`);
  for (let i = 0; i < contacts; i++) {
    const contact = {
      name: person(i),
      phone: `+${phone(i)}`,
      ...(i % 4 === 0 && { email: `contato${i}@example.com` }),
      tags: i % 5 === 0 ? ['cliente', 'vip'] : ['lead'],
      isActive: i % 20 !== 0,
      optedOut: i % 50 === 7,
      isWhatsAppActive: true,
      whatsappCheckedAt: iso(day0 - 86_400_000),
      createdAt: iso(day0 - 30 * 86_400_000 + i * 1000),
    };
    push(`${i ? ',' : ''}${JSON.stringify(contact)}`);
  }
  push('],"campaigns":[');
  const tail = ']}]}';
  let campaigns = 0;
  let lines = 0;
  let sent = 0;
  for (let c = 0; size + tail.length < maxBytes; c++) {
    const start = day0 + c * 86_400_000;
    const campaign = {
      name: `Campanha ${c + 1}`,
      message: 'Olá {{nome}}, temos novidades para você!',
      status: 'completed',
      startedAt: iso(start),
      finishedAt: iso(start + 8 * 3_600_000),
      createdAt: iso(start - 3_600_000),
    };
    push(`${c ? ']},' : ''}${JSON.stringify(campaign).slice(0, -1)},"recipients":[`);
    campaigns++;
    for (let k = 0; k < perCampaign; k++) {
      const i = (c * 7 + k) % contacts;
      const status = STATUSES[(k * 3 + c) % STATUSES.length];
      const at = start + Math.floor((k * 8 * 3_600_000) / perCampaign);
      const line = {
        recipient: phone(i),
        kind: 'contact',
        name: person(i),
        status,
        attempts: status === 'queued' ? 0 : 1,
        queuedAt: iso(start),
        ...(status !== 'queued' && status !== 'failed' && { sentAt: iso(at) }),
        ...((status === 'delivered' || status === 'read') && { deliveredAt: iso(at + 3_000) }),
        ...(status === 'read' && { readAt: iso(at + 600_000) }),
        ...(status === 'failed' && { failedAt: iso(at), error: 'Número não está no WhatsApp.' }),
      };
      const text = `${k ? ',' : ''}${JSON.stringify(line)}`;
      if (size + Buffer.byteLength(text) + tail.length > maxBytes) break;
      push(text);
      lines++;
      if (status === 'sent' || status === 'delivered' || status === 'read') sent++;
    }
  }
  push(tail);
  return { data: Buffer.from(parts.join('')), contacts, campaigns, lines, sent };
}

/** POST /api/backup/restore with the file as multipart field `file`, on its own connection. */
function uploadBackup(baseUrl: string, cookie: string, data: Buffer): Promise<Response> {
  const boundary = `----bench${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\nContent-Type: application/json\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL('/api/backup/restore', baseUrl),
      {
        method: 'POST',
        agent: false,
        timeout: 600_000,
        headers: {
          cookie,
          origin: new URL(baseUrl).origin,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('restore timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks `path` one request after another, `gapMs` apart, until `stop()` says so; each answer's time and when it started. */
async function poll(
  url: string,
  path: string,
  gapMs: number,
  stop: () => boolean,
  cookie?: string,
): Promise<Array<{ at: number; ms: number }>> {
  const samples: Array<{ at: number; ms: number }> = [];
  while (!stop()) {
    const at = performance.now();
    const res = await request(url, 'GET', path, { cookie, timeoutMs: 120_000 });
    if (res.status !== 200) throw new Error(`${path} during the restore: HTTP ${res.status} ${res.body.slice(0, 200)}`);
    samples.push({ at, ms: performance.now() - at });
    await sleep(gapMs);
  }
  return samples;
}

async function restoreWhileProbing(server: DisparoServer, file: BackupText) {
  const cookie = await unlimitedCustomer(server, 301);
  const bystander = await unlimitedCustomer(server, 302);
  // Code paths compiled first, as on a server that has been running: a small restore elsewhere.
  const warm = backupText(2_000, 2_000, 2 * 1024 * 1024);
  expectStatus(await uploadBackup(server.url, await unlimitedCustomer(server, 303), warm.data), 200, 'warm-up restore');

  let restoring = true;
  let probing = true;
  const health = poll(server.url, '/api/health', 10, () => !probing);
  const list = poll(server.url, '/api/contacts?page=1&limit=50', 200, () => !restoring, bystander);
  const started = performance.now();
  const res = await uploadBackup(server.url, cookie, file.data);
  const ended = performance.now();
  restoring = false;
  await sleep(AFTER_MS);
  probing = false;
  const healthSamples = await health;
  const listSamples = await list;
  expectStatus(res, 200, 'restore');
  return { cookie, res, started, ended, healthSamples, listSamples };
}

export async function run(): Promise<BenchResult> {
  const contacts = envInt('BENCH_RESTORE_CONTACTS', 100_000, 1_000, 200_000);
  const perCampaign = envInt('BENCH_RESTORE_LINES_PER_CAMPAIGN', 50_000, 1_000, 200_000);
  // The largest file a restore accepts, less room for nothing but rounding.
  const limitBytes = BACKUP_MAX_FILE_MB * 1024 * 1024;
  const maxBytes = Math.min(limitBytes - 1024, envInt('BENCH_RESTORE_BYTES', limitBytes - 1024, 100_000, limitBytes));
  const file = backupText(contacts, perCampaign, maxBytes);
  console.log(
    `  backup: ${fmt(file.data.length / 1024 / 1024)} MiB (limit ${BACKUP_MAX_FILE_MB} MiB), ${fmt(file.contacts)} contacts, ` +
      `${file.campaigns} campaigns with ${fmt(file.lines)} report lines (${fmt(file.sent)} sent or later)`,
  );

  return withServer(startDisparo, async (server) => {
    const r = await restoreWhileProbing(server, file);
    const restoreMs = r.ended - r.started;
    const during = r.healthSamples.filter((s) => s.at < r.ended).map((s) => s.ms);
    const withAfter = r.healthSamples.map((s) => s.ms);
    const h = summarize(during);
    const all = summarize(withAfter);
    const l = summarize(r.listSamples.map((s) => s.ms));
    const answer = JSON.parse(r.res.body) as {
      contacts: { added: number };
      campaigns: { added: number };
    };
    const metrics = JSON.parse(
      expectStatus(await request(server.url, 'GET', '/api/metrics', { cookie: r.cookie }), 200, 'GET /api/metrics')
        .body,
    ) as { messagesSent: number };

    console.log(
      `  restore: ${fmt(restoreMs / 1000)} s (${fmt((file.lines + file.contacts) / (restoreMs / 1000), 0)} rows/s)`,
    );
    console.log(
      `  /api/health during the restore: ${h.count} answers, p50 ${fmt(h.p50)} ms, p99 ${fmt(h.p99)} ms, max ${fmt(h.max)} ms` +
        ` (target p99 < ${MAX_HEALTH_P99_MS} ms: ${h.p99 < MAX_HEALTH_P99_MS ? 'met' : 'NOT met'});` +
        ` with the ${AFTER_MS / 1000} s after it: p99 ${fmt(all.p99)} ms, max ${fmt(all.max)} ms`,
    );
    console.log(
      `  another account's contact list meanwhile (needs the database): ${l.count} answers, p50 ${fmt(l.p50)} ms, max ${fmt(l.max)} ms`,
    );
    console.log(
      `  restored: ${fmt(answer.contacts.added)} contacts, ${answer.campaigns.added} campaigns; /api/metrics messagesSent ${fmt(metrics.messagesSent)}`,
    );

    const checks = [
      ceiling('/api/health p99 during the restore', h.p99, MAX_HEALTH_P99_MS, 'ms'),
      ceiling('/api/health max during and after the restore', all.max, MAX_HEALTH_MS, 'ms'),
      ceiling(
        'contacts, campaigns or sent lines not restored',
        Math.abs(answer.contacts.added - file.contacts) +
          Math.abs(answer.campaigns.added - file.campaigns) +
          Math.abs(metrics.messagesSent - file.sent),
        1,
        '',
      ),
    ];
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        backupMiB: Number((file.data.length / 1024 / 1024).toFixed(2)),
        contacts: file.contacts,
        reportLines: file.lines,
        restoreMs: Math.round(restoreMs),
        healthP50Ms: Number(h.p50.toFixed(1)),
        healthP99Ms: Number(h.p99.toFixed(1)),
        healthMaxMs: Number(all.max.toFixed(1)),
        databaseRequestMaxMs: Number(l.max.toFixed(1)),
      },
    };
  });
}

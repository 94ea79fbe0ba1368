import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { POLL_INTERVALS_MS } from '../contract/constants';
import type { Conversation } from '../contract/conversations';
import { createDatabase, type FreshDatabase } from '../scripts/launch-server.mjs';
import { accountSql } from '../server/db/account-scope';
import { openDatabase } from '../server/db/client';
import { rowsOf } from '../server/db/rows';
import { login } from './lib/accounts';
import { unlimitedCustomer } from './lib/contacts';
import { expectStatus, request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { type ChildServer, cpuMs, type DisparoServer, startDisparoOn } from './lib/server';
import { envInt, type LatencySummary, median, summarize } from './lib/stats';

/**
 * Benchmark: the team inbox (docs/decisions/045-team-members.md), one account of 20 logins.
 *
 * 1. The 2-second WhatsApp-session poll with the whole team signed in: the owner (registered,
 *    approved, on the Premium plan) invites 19 people (`POST /api/team/invitations`), each accepts
 *    (`POST /api/auth/accept-invitation`) and signs in. `GET /api/whatsapp-session` is polled at the
 *    web app's pace (every 2 s from a random moment, a beat skipped while the previous poll waits) by
 *    the owner alone, before the others sign in, then by all 20; then under load, as
 *    `session-poll` measures it (autocannon, 50 connections, alternating 2 s slices): the owner's
 *    cookie alone against the 20 cookies in turn. Figures and ratios only: whether a member's poll
 *    costs what the owner's does.
 * 2. The conversation list (`GET /api/conversations`, 100 a page as the page asks) of that account
 *    with 10,000 conversations (`BENCH_TEAM_CONVERSATIONS`) written straight into the database (the
 *    server stopped): two numbers, two queues, 8,000 of them with a contact, a mix of open, pending
 *    and resolved, 11 of the logins as assignees and 30 % unassigned, three messages each. One
 *    request at a time, the filters in turn: none, `assignee=me` (an agent's), `assignee=none`,
 *    `status=resolved`, `queueId=`, and `search=` (names, accents, digits, no match). Target: p95
 *    under 50 ms for each; every answer checked against the seeded rows.
 *
 * Knobs: BENCH_TEAM_POLL_SECONDS (30, each paced run), BENCH_POLL_SECONDS (10, the load part),
 * BENCH_WARMUP_SECONDS (2), BENCH_TEAM_CONVERSATIONS (10000), BENCH_TEAM_LIST_REQUESTS (100 per filter).
 */
export const name = 'team';

const PATH = '/api/whatsapp-session';
const EXPECTED_BODY = JSON.stringify({ phoneNumber: null, isConnected: false, state: 'disconnected', qr: null });
const POLL_MS = POLL_INTERVALS_MS.whatsappSession;
/** The owner's 19 people: the account has 20 logins, which the Premium plan allows (50). */
const MEMBERS = 19;
/** The first members are managers, the rest agents. */
const MANAGERS = 2;
/** Logins conversations are assigned to: the owner and the first 10 members (the other 9 have none). */
const ASSIGNEES = 11;
/** The agent whose `assignee=me` is measured (the fourth login: an agent with ~1/11 of the assigned). */
const ME = 3;
const CONNECTIONS = 50;
const SLICE_SECONDS = 2;
/** What the Conversas page asks for (web/features/conversations/conversation-view.ts, CONVERSATIONS_LIMIT). */
const LIST_LIMIT = 100;
const MAX_P95_MS = 50;
const SEARCHES = ['maria', 'Conceição', 'silva 12', '9987', 'zzz'];
const FIRST = ['Ana', 'João', 'Maria', 'José', 'Antônio', 'Francisca', 'Luíza', 'Carlos', 'Paulo', 'Conceição'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Ferreira', 'Araújo', 'Gonçalves', 'Melo'];
const DDD = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '91'];
const TEXTS = [
  'Olá, gostaria de saber o preço',
  'Obrigado!',
  'Qual o horário de funcionamento?',
  'Meu pedido não chegou',
  'Pode me mandar o catálogo?',
];

interface Login {
  id: string;
  username: string;
  password: string;
  role: 'owner' | 'manager' | 'agent';
  cookie: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** A Postgres array literal of plain words (names, ids): one parameter instead of one per element. */
const pgArray = (items: readonly string[]) => `{${items.map((s) => `"${s}"`).join(',')}}`;

/** A small seeded generator (mulberry32), so that two runs start their polls at the same moments. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The owner (registered, approved, moved to Premium, signed in) and 19 members who accepted an
 * invitation each, as the web app does it: the invitation's link carries the token. The members are
 * not signed in yet.
 */
async function createTeam(server: DisparoServer): Promise<{ owner: Login; members: Login[] }> {
  const base = server.url;
  const ownerCookie = await unlimitedCustomer(server, 1, 'premium');
  const me = JSON.parse(
    expectStatus(await request(base, 'GET', '/api/auth/me', { cookie: ownerCookie }), 200, 'GET /api/auth/me').body,
  ) as { id: string; username: string };
  const owner: Login = {
    id: me.id,
    username: me.username,
    password: 'bench-customer-password-1',
    role: 'owner',
    cookie: ownerCookie,
  };
  const members: Login[] = [];
  for (let i = 1; i <= MEMBERS; i++) {
    const role = i <= MANAGERS ? 'manager' : 'agent';
    const invited = JSON.parse(
      expectStatus(
        await request(base, 'POST', '/api/team/invitations', {
          cookie: ownerCookie,
          json: {
            name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / 10) % LAST.length]} Equipe ${i}`,
            email: `membro${i}@bench.example`,
            role,
          },
        }),
        200,
        `invite member ${i}`,
      ).body,
    ) as { inviteUrl: string };
    const token = new URL(invited.inviteUrl).searchParams.get('token');
    if (!token) throw new Error(`invitation ${i} has no token in ${invited.inviteUrl}`);
    const username = `benchmembro${i}`;
    const password = `bench-member-password-${i}`;
    expectStatus(
      await request(base, 'POST', '/api/auth/accept-invitation', { json: { token, username, password } }),
      200,
      `accept invitation ${i}`,
    );
    members.push({ id: '', username, password, role, cookie: '' });
  }
  const team = JSON.parse(
    expectStatus(await request(base, 'GET', '/api/team', { cookie: ownerCookie }), 200, 'GET /api/team').body,
  ) as { members: Array<{ id: string; username: string; role: string }> };
  for (const m of members) {
    const listed = team.members.find((t) => t.username === m.username);
    if (!listed || listed.role !== m.role) throw new Error(`${m.username} is not a ${m.role} in GET /api/team`);
    m.id = listed.id;
  }
  return { owner, members };
}

/** Signs a member in and checks it works for the account, with its role, and sees the account's number. */
async function signIn(base: string, m: Login): Promise<void> {
  m.cookie = await login(base, m.username, m.password);
  const me = JSON.parse(
    expectStatus(
      await request(base, 'GET', '/api/auth/me', { cookie: m.cookie }),
      200,
      `GET /api/auth/me as ${m.username}`,
    ).body,
  ) as { id: string; teamRole?: string };
  if (me.teamRole !== m.role) throw new Error(`${m.username} signed in as ${JSON.stringify(me)}, not as a ${m.role}`);
  const poll = expectStatus(
    await request(base, 'GET', PATH, { cookie: m.cookie }),
    200,
    `GET ${PATH} as ${m.username}`,
  );
  if (poll.body !== EXPECTED_BODY) throw new Error(`GET ${PATH} as ${m.username} answered ${poll.body}`);
}

interface Paced {
  ms: number[];
  /** Latencies of each login's polls, in the order of the logins. */
  byLogin: number[][];
  due: number;
  skipped: number;
  failed: number;
  examples: string[];
  seconds: number;
}

/**
 * Every login polls as its browser does: every 2 s, from a random moment within the first interval,
 * skipping a beat while its previous poll waits (TanStack Query never stacks them).
 */
async function pacedPolls(base: string, logins: readonly Login[], seconds: number, seed: number): Promise<Paced> {
  const next = random(seed);
  const out: Paced = { ms: [], byLogin: logins.map(() => []), due: 0, skipped: 0, failed: 0, examples: [], seconds };
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    logins.map(async (who, i) => {
      const offset = next() * POLL_MS;
      const inFlight: Promise<void>[] = [];
      let busy = false;
      for (let beat = 0; ; beat++) {
        const at = started + offset + beat * POLL_MS;
        if (at >= end) break;
        await sleep(at - performance.now());
        out.due++;
        if (busy) {
          out.skipped++;
          continue;
        }
        busy = true;
        const sent = performance.now();
        inFlight.push(
          request(base, 'GET', PATH, { cookie: who.cookie, timeoutMs: 10_000 })
            .then(
              (res) => {
                const ms = performance.now() - sent;
                out.ms.push(ms);
                out.byLogin[i].push(ms);
                if (res.status !== 200 || res.body !== EXPECTED_BODY) {
                  out.failed++;
                  if (out.examples.length < 3)
                    out.examples.push(`${who.username}: ${res.status} ${res.body.slice(0, 120)}`);
                }
              },
              (err: Error) => {
                out.failed++;
                if (out.examples.length < 3) out.examples.push(`${who.username}: ${err.message}`);
              },
            )
            .finally(() => {
              busy = false;
            }),
        );
      }
      await Promise.all(inFlight);
    }),
  );
  return out;
}

/** What autocannon answers with `skipAggregateResult` (latencies still encoded, mergeable). */
interface RawResult {
  totalCompletedRequests: number;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count?: number }>;
}

const aggregateResult = (
  autocannon as unknown as {
    aggregateResult(results: RawResult[], opts: autocannon.Options): autocannon.Result;
  }
).aggregateResult;

/**
 * Each connection sends the cookies in turn: one cookie is the owner alone, 20 the whole team. Every
 * answer's body is compared (autocannon's `expectBody` does not combine with `requests`).
 */
function loadOptions(
  url: string,
  seconds: number,
  side: Pick<LoadSide, 'cookies' | 'wrongBodies'>,
): autocannon.Options {
  const onResponse = (status: number, body: string) => {
    if (status === 200 && body !== EXPECTED_BODY) side.wrongBodies++;
  };
  return {
    url: `${url}${PATH}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: side.cookies.map((cookie) => ({ method: 'GET', path: PATH, headers: { cookie }, onResponse })),
    timeout: 10,
  };
}

interface LoadSide {
  label: string;
  cookies: string[];
  slices: RawResult[];
  cpuMs: number;
  /** 200 answers whose body is not the expected one. */
  wrongBodies: number;
}

interface LoadFigures {
  rps: number;
  total: number;
  p50: number;
  p97_5: number;
  p99: number;
  failures: number;
  cpuUsPerRequest: number;
}

function loadFigures(server: ChildServer, side: LoadSide): LoadFigures {
  // aggregateResult adds status counts into the first slice's objects: give it copies.
  const copies = side.slices.map((s) => ({ ...s, statusCodeStats: structuredClone(s.statusCodeStats) }));
  const merged = aggregateResult(copies, loadOptions(server.url, SLICE_SECONDS, side));
  const total = side.slices.reduce((n, s) => n + s.totalCompletedRequests, 0);
  const seconds = side.slices.reduce((n, s) => n + s.duration, 0);
  return {
    rps: total / seconds,
    total,
    p50: merged.latency.p50,
    p97_5: merged.latency.p97_5,
    p99: merged.latency.p99,
    failures: side.slices.reduce((n, s) => n + s.errors + s.non2xx, side.wrongBodies),
    cpuUsPerRequest: (side.cpuMs * 1000) / total,
  };
}

/** The poll under load: the owner's cookie alone, then the team's 20 in turn, in alternating slices. */
async function pollUnderLoad(server: ChildServer, sides: [LoadSide, LoadSide], rounds: number): Promise<number[]> {
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? sides : [sides[1], sides[0]];
    const rps = new Map<LoadSide, number>();
    for (const side of order) {
      const cpuBefore = cpuMs(server.pid);
      const raw = (await autocannon({
        ...loadOptions(server.url, SLICE_SECONDS, side),
        skipAggregateResult: true,
      })) as unknown as RawResult;
      side.cpuMs += cpuMs(server.pid) - cpuBefore;
      side.slices.push(raw);
      rps.set(side, raw.totalCompletedRequests / raw.duration);
    }
    const alone = rps.get(sides[0]) ?? Number.NaN;
    const team = rps.get(sides[1]) ?? Number.NaN;
    ratios.push(team / alone);
    console.log(
      `    round ${r + 1}: owner alone ${fmt(alone, 0)} req/s, 20 logins ${fmt(team, 0)} req/s, ratio ${fmt(team / alone)}`,
    );
  }
  return ratios;
}

interface Seeded {
  queueIds: [string, string];
  total: number;
  mine: number;
  unassigned: number;
  resolved: number;
  inQueue: number;
  seconds: number;
}

/**
 * `count` conversations of the account straight in SQL, with their contacts (4 in 5), numbers,
 * queues and three messages each. The most recent fifth is open or pending; of the older ones 80 %
 * are resolved. 30 % have no assignee; the rest are spread over the owner and the first 10 members.
 * Queue 'Vendas' holds 3/7 (on its number), 'Suporte' 2/7 (on the other), 2/7 are in none.
 */
async function seedConversations(
  databaseUrl: string | undefined,
  dataDir: string,
  ownerId: string,
  logins: readonly Login[],
  count: number,
): Promise<Seeded> {
  const started = performance.now();
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const { db } = database;
    const [sales, support] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into connections (user_id, kind, label, is_default)
        values (${ownerId}, 'cloud', 'Vendas', true), (${ownerId}, 'cloud', 'Suporte', false)
        returning id`),
    );
    const members = logins.filter((l) => l.role !== 'owner').map((l) => l.id);
    const [qSales, qSupport] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into queues (user_id, name, connection_ids, member_ids)
        values (${ownerId}, 'Vendas', ${pgArray([sales.id])}::uuid[], ${pgArray(members.slice(0, 10))}::uuid[]),
               (${ownerId}, 'Suporte', ${pgArray([support.id])}::uuid[], ${pgArray(members.slice(10))}::uuid[])
        returning id`),
    );
    const assignees = logins.slice(0, ASSIGNEES).map((l) => l.id);
    const phone = sql`'55' || (${pgArray(DDD)}::text[])[1 + g % 10] || '9' || lpad((10000000 + (g::bigint * 7919) % 90000000)::text, 8, '0')`;
    await db.execute(sql`
      insert into contacts (user_id, name, phone)
      select ${ownerId}::uuid,
        (${pgArray(FIRST)}::text[])[1 + g % 10] || ' ' || (${pgArray(LAST)}::text[])[1 + (g / 10) % 10] || ' ' || g,
        '+' || ${phone}
      from generate_series(1, ${count}) g where g % 5 <> 0`);
    await db.execute(sql`
      insert into conversations (user_id, phone, connection_id, name, last_message_at, last_message_text,
        last_direction, last_inbound_at, unread, status, assignee_id, queue_id)
      select ${ownerId}::uuid, ${phone}, case when q = 2 then ${support.id}::uuid else ${sales.id}::uuid end,
        -- The contact's name wins; without a contact, the WhatsApp profile's.
        case when g % 5 = 0 then 'Cliente WhatsApp ' || g end,
        t, (${pgArray(TEXTS)}::text[])[1 + g % 5], d, t,
        case when s <> 'resolved' and d = 'in' then 1 + g % 3 else 0 end, s,
        case when (g / 7) % 10 < 3 then null else (${pgArray(assignees)}::uuid[])[1 + g % ${ASSIGNEES}] end,
        case q when 1 then ${qSales.id}::uuid when 2 then ${qSupport.id}::uuid end
      from generate_series(1, ${count}) g,
        lateral (select now() - interval '90 days' * (g::float / ${count + 1}) as t,
          case when g % 4 = 0 then 'out' else 'in' end as d,
          case when g % 7 < 3 then 1 when g % 7 < 5 then 2 else 0 end as q,
          case when g <= ${Math.floor(count / 5)} then (case when g % 3 = 0 then 'pending' else 'open' end)
               when g % 10 = 0 then 'pending' when g % 10 = 5 then 'open' else 'resolved' end as s) x`);
    await db.execute(sql`
      insert into conversation_messages (user_id, phone, connection_id, direction, source, text, status, created_at)
      select v.user_id, v.phone, v.connection_id, m.direction, m.source, m.text, m.status, v.last_message_at - m.back
      from conversations v,
        (values ('in', 'contact', 'Oi', 'received', interval '10 minutes'),
                ('out', 'bot', 'Olá! Como posso ajudar?', 'delivered', interval '9 minutes'),
                ('in', 'contact', 'Quero saber mais', 'received', interval '0 minutes')) m(direction, source, text, status, back)
      where ${accountSql(ownerId, 'v.user_id')}`);
    await db.execute(sql`analyze`);
    const [counts] = rowsOf<Omit<Seeded, 'queueIds' | 'seconds'>>(
      await db.execute(sql`
        select count(*)::int as total,
          (count(*) filter (where assignee_id = ${logins[ME].id}))::int as mine,
          (count(*) filter (where assignee_id is null))::int as unassigned,
          (count(*) filter (where status = 'resolved'))::int as resolved,
          (count(*) filter (where queue_id = ${qSales.id}))::int as "inQueue"
        from conversations where ${accountSql(ownerId)}`),
    );
    return { ...counts, queueIds: [qSales.id, qSupport.id], seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

interface ListCase {
  label: string;
  /** The query strings it asks, in turn (one for a filter, several for the searches). */
  queries: string[];
  /** How many rows the first page must hold (the searches: any up to the page). */
  expected?: number;
  /** Whether a row answered under this filter belongs there. */
  fits: (c: Conversation, query: string) => boolean;
  ms: number[];
  /** Latencies per query string (the searches). */
  byQuery: Map<string, number[]>;
}

function matchesSearch(c: Conversation, query: string): boolean {
  const term = new URLSearchParams(query).get('search') ?? '';
  const digits = term.replace(/\D/g, '');
  return (c.name ?? '').toLowerCase().includes(term.toLowerCase()) || (digits.length >= 3 && c.phone.includes(digits));
}

/** The first answer of each query of a filter, against the seeded rows: how many are wrong. */
async function wrongAnswers(base: string, cookie: string, c: ListCase): Promise<number> {
  let wrong = 0;
  for (const q of c.queries) {
    const res = await request(base, 'GET', `/api/conversations?limit=${LIST_LIMIT}${q ? `&${q}` : ''}`, { cookie });
    const rows = res.status === 200 ? (JSON.parse(res.body) as { conversations: Conversation[] }).conversations : [];
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1].lastMessageAt >= r.lastMessageAt);
    const size =
      c.expected === undefined ? rows.length <= LIST_LIMIT : rows.length === Math.min(LIST_LIMIT, c.expected);
    const misfits = rows.filter((r) => !c.fits(r, q)).length;
    if (res.status !== 200 || !sorted || !size || misfits > 0) {
      wrong++;
      console.log(
        `    wrong answer to ${q || 'no filter'}: HTTP ${res.status}, ${rows.length} rows (expected ${c.expected ?? '≤ page'}), ` +
          `${misfits} not in the filter, ${sorted ? 'sorted' : 'not sorted'}`,
      );
    }
  }
  return wrong;
}

export async function run(): Promise<BenchResult> {
  const pollSeconds = envInt('BENCH_TEAM_POLL_SECONDS', 30, 4, 600);
  const loadSeconds = envInt('BENCH_POLL_SECONDS', 10, SLICE_SECONDS, 30);
  const warmupS = envInt('BENCH_WARMUP_SECONDS', 2, 1, 10);
  const conversations = envInt('BENCH_TEAM_CONVERSATIONS', 10_000, 500, 200_000);
  const listRequests = envInt('BENCH_TEAM_LIST_REQUESTS', 100, 20, 5_000);
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-bench-team-'));
  let fresh: FreshDatabase | undefined;
  let server: DisparoServer | undefined;
  const start = async () => {
    const started = await startDisparoOn(dataDir, fresh?.url);
    return { ...started, dataDir, admin: { username: 'benchadmin', password: 'bench-admin-password-1' } };
  };
  try {
    fresh = postgresUrl ? await createDatabase(postgresUrl, 'disparo_bench_team') : undefined;

    // 1. The poll.
    server = await start();
    const setupStarted = performance.now();
    const { owner, members } = await createTeam(server);
    console.log(
      `  owner ${owner.username} (Premium) invited ${MEMBERS} people (${MANAGERS} managers, ${MEMBERS - MANAGERS} agents); ` +
        `each accepted, in ${fmt((performance.now() - setupStarted) / 1000, 1)} s`,
    );
    const anonymous = await request(server.url, 'GET', PATH);
    if (anonymous.status !== 401) throw new Error(`GET ${PATH} without a cookie answered ${anonymous.status}`);
    console.log(`  warm-up: ${warmupS} s at ${CONNECTIONS} connections with the owner's cookie`);
    await autocannon(loadOptions(server.url, warmupS, { cookies: [owner.cookie], wrongBodies: 0 }));

    console.log(`  at the web app's pace (every ${POLL_MS / 1000} s from a random moment), ${pollSeconds} s each:`);
    const alone = await pacedPolls(server.url, [owner], pollSeconds, 1);
    for (const m of members) await signIn(server.url, m);
    const logins = [owner, ...members];
    const team = await pacedPolls(server.url, logins, pollSeconds, 2);
    const aloneS = summarize(alone.ms);
    const teamS = summarize(team.ms);
    const ownerInTeam = summarize(team.byLogin[0]);
    const membersInTeam = summarize(team.byLogin.slice(1).flat());
    const line = (label: string, s: LatencySummary, p?: Paced) =>
      `    ${label.padEnd(30)} ${fmt(s.count).padStart(5)} polls  p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}  p99 ${fmt(s.p99)}  ` +
      `max ${fmt(s.max)} ms${p ? `  (failed ${p.failed}, skipped ${p.skipped} of ${p.due} due)` : ''}`;
    console.log(line('owner alone signed in', aloneS, alone));
    console.log(line('20 logins of the account', teamS, team));
    console.log(line('  of which the owner', ownerInTeam));
    console.log(line('  of which the 19 members', membersInTeam));
    for (const e of [...alone.examples, ...team.examples]) console.log(`    failure: ${e}`);
    const pacedP50Ratio = teamS.p50 / aloneS.p50;
    const pacedP95Ratio = teamS.p95 / aloneS.p95;
    console.log(
      `    20 logins ÷ owner alone: p50 ${fmt(pacedP50Ratio)}×, p95 ${fmt(pacedP95Ratio)}× ` +
        `(the owner alone made ${aloneS.count} polls: its p95 is nearly its maximum)`,
    );

    const rounds = Math.ceil(loadSeconds / SLICE_SECONDS);
    console.log(
      `  under load, as session-poll: ${rounds} rounds of ${SLICE_SECONDS} s per side, alternating, ${CONNECTIONS} connections`,
    );
    const sides: [LoadSide, LoadSide] = [
      { label: 'owner alone', cookies: [owner.cookie], slices: [], cpuMs: 0, wrongBodies: 0 },
      { label: '20 logins in turn', cookies: logins.map((l) => l.cookie), slices: [], cpuMs: 0, wrongBodies: 0 },
    ];
    await autocannon(loadOptions(server.url, warmupS, { cookies: sides[1].cookies, wrongBodies: 0 }));
    const roundRatios = await pollUnderLoad(server, sides, rounds);
    const [aloneLoad, teamLoad] = sides.map((s) => loadFigures(server as ChildServer, s));
    for (const [side, f] of [
      [sides[0], aloneLoad],
      [sides[1], teamLoad],
    ] as const) {
      console.log(
        `    ${side.label.padEnd(18)} ${fmt(f.rps, 0)} req/s (${fmt(f.total)} requests), p50 ${fmt(f.p50)} ms, ` +
          `p97.5 ${fmt(f.p97_5)} ms, p99 ${fmt(f.p99)} ms; errors + non-2xx + wrong bodies ${f.failures}; ` +
          `server CPU ${fmt(f.cpuUsPerRequest, 1)} µs/request`,
      );
    }
    const loadRatio = median(roundRatios);
    console.log(
      `    20 logins ÷ owner alone: req/s ${fmt(loadRatio)} (median of rounds), p50 ${fmt(teamLoad.p50 / aloneLoad.p50)}×, ` +
        `p99 ${fmt(teamLoad.p99 / aloneLoad.p99)}×, server CPU per request ${fmt(teamLoad.cpuUsPerRequest / aloneLoad.cpuUsPerRequest)}×`,
    );
    await server.stop();
    server = undefined;

    // 2. The conversation list.
    const seeded = await seedConversations(fresh?.url, dataDir, owner.id, logins, conversations);
    console.log(
      `  seeded ${fmt(seeded.total)} conversations (${fmt(seeded.resolved)} resolved, ${fmt(seeded.unassigned)} unassigned, ` +
        `${fmt(seeded.mine)} of ${logins[ME].username}'s, ${fmt(seeded.inQueue)} in queue Vendas), their contacts and ` +
        `${fmt(seeded.total * 3)} messages in ${fmt(seeded.seconds, 1)} s`,
    );
    server = await start();
    const me = logins[ME];
    me.cookie = await login(server.url, me.username, me.password);
    const [salesQueue] = seeded.queueIds;
    const filters: Array<Omit<ListCase, 'ms' | 'byQuery'>> = [
      { label: 'no filter (Todas)', queries: [''], expected: seeded.total, fits: () => true },
      {
        label: 'assignee=me (Minhas)',
        queries: ['assignee=me'],
        expected: seeded.mine,
        fits: (c) => c.assigneeId === me.id,
      },
      {
        label: 'assignee=none (Sem responsável)',
        queries: ['assignee=none'],
        expected: seeded.unassigned,
        fits: (c) => c.assigneeId === null,
      },
      {
        label: 'status=resolved (Resolvidas)',
        queries: ['status=resolved'],
        expected: seeded.resolved,
        fits: (c) => c.status === 'resolved',
      },
      {
        label: 'queueId= (queue Vendas)',
        queries: [`queueId=${salesQueue}`],
        expected: seeded.inQueue,
        fits: (c) => c.queueId === salesQueue,
      },
      {
        label: `search= (${SEARCHES.length} terms in turn)`,
        queries: SEARCHES.map((s) => `search=${encodeURIComponent(s)}`),
        fits: matchesSearch,
      },
    ];
    const cases: ListCase[] = filters.map((c) => ({ ...c, ms: [], byQuery: new Map(c.queries.map((q) => [q, []])) }));

    let wrong = 0;
    for (const c of cases) wrong += await wrongAnswers(server.url, me.cookie, c);
    const path = (q: string) => `/api/conversations?limit=${LIST_LIMIT}${q ? `&${q}` : ''}`;
    // Warm-up, then the filters in turn, one request at a time (as an agent clicking through the tabs).
    for (let i = 0; i < 10; i++)
      for (const c of cases)
        await request(server.url, 'GET', path(c.queries[i % c.queries.length]), { cookie: me.cookie });
    let errors = 0;
    for (let i = 0; i < listRequests; i++) {
      for (const c of cases) {
        const q = c.queries[i % c.queries.length];
        const t = performance.now();
        const res = await request(server.url, 'GET', path(q), { cookie: me.cookie });
        const ms = performance.now() - t;
        if (res.status !== 200) errors++;
        c.ms.push(ms);
        c.byQuery.get(q)?.push(ms);
      }
    }
    const all = summarize(cases[0].ms);
    console.log(
      `  GET /api/conversations?limit=${LIST_LIMIT} as agent ${me.username}, ${fmt(listRequests)} requests per filter ` +
        `(${fmt(seeded.total)} conversations):`,
    );
    const listFigures = cases.map((c) => ({ c, s: summarize(c.ms) }));
    for (const { c, s } of listFigures) {
      console.log(
        `    ${c.label.padEnd(50)} p50 ${fmt(s.p50).padStart(6)}  p95 ${fmt(s.p95).padStart(6)}  max ${fmt(s.max).padStart(6)} ms  ` +
          `p50 ${fmt(s.p50 / all.p50)}× no filter's  ${s.p95 < MAX_P95_MS ? 'meets target' : 'over target'} (p95 < ${MAX_P95_MS} ms)`,
      );
      if (c.queries.length > 1) {
        for (const [q, ms] of c.byQuery) {
          const qs = summarize(ms);
          console.log(
            `      ${decodeURIComponent(q).padEnd(48)} p50 ${fmt(qs.p50).padStart(6)}  p95 ${fmt(qs.p95).padStart(6)}  ` +
              `max ${fmt(qs.max).padStart(6)} ms`,
          );
        }
      }
    }

    const checks = [
      ceiling('failed or wrong polls', alone.failed + team.failed + aloneLoad.failures + teamLoad.failures, 1, ''),
      ...listFigures.map(({ c, s }) => ceiling(`conversation list p95, ${c.label}`, s.p95, MAX_P95_MS, 'ms')),
      ceiling('failed list requests or wrong answers', errors + wrong, 1, ''),
    ];
    printChecks(checks);
    const info: Record<string, number | string> = {
      engine: fresh ? 'PostgreSQL' : 'PGlite',
      logins: logins.length,
      'paced seconds': pollSeconds,
      'poll p50 ms, owner alone': Number(aloneS.p50.toFixed(2)),
      'poll p95 ms, owner alone': Number(aloneS.p95.toFixed(2)),
      'poll p50 ms, 20 logins': Number(teamS.p50.toFixed(2)),
      'poll p95 ms, 20 logins': Number(teamS.p95.toFixed(2)),
      'poll p50 ratio, 20 logins ÷ owner alone': Number(pacedP50Ratio.toFixed(3)),
      'poll p95 ratio, 20 logins ÷ owner alone': Number(pacedP95Ratio.toFixed(3)),
      'load req/s, owner alone': Math.round(aloneLoad.rps),
      'load req/s, 20 logins': Math.round(teamLoad.rps),
      'load req/s ratio (median of rounds)': Number(loadRatio.toFixed(3)),
      'load round ratios': roundRatios.map((r) => r.toFixed(2)).join(' '),
      'load p99 ms, owner alone': aloneLoad.p99,
      'load p99 ms, 20 logins': teamLoad.p99,
      'server CPU µs/request, owner alone': Number(aloneLoad.cpuUsPerRequest.toFixed(1)),
      'server CPU µs/request, 20 logins': Number(teamLoad.cpuUsPerRequest.toFixed(1)),
      conversations: seeded.total,
      'list requests per filter': listRequests,
    };
    for (const { c, s } of listFigures) {
      info[`${c.label} p50 ms`] = Number(s.p50.toFixed(2));
      info[`${c.label} p95 ms`] = Number(s.p95.toFixed(2));
    }
    return { name, checks, info };
  } finally {
    await server?.stop();
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

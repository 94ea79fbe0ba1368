import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { botMsg } from '../../contract/bot';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_WHATSAPP_SETTINGS } from '../../contract/constants';
import { msg } from '../../contract/messages';
import { rowsOf } from '../db/rows';
import { campaignRecipients, campaigns, type UserRow, users } from '../db/schema';
import { recordActivity } from '../records/activity';
import { notify } from '../records/notify';
import { cloudWebhookBody } from '../testing/cloud-account';
import { FakeGraphApi } from '../testing/fake-graph-api';
import { multipart } from '../testing/multipart';
import { pathSpellings } from '../testing/path-spellings';
import { pdfText } from '../testing/pdf-text';
import { listen, type RawResponse, rawRequest } from '../testing/raw-http';
import { EXAMPLES as ROUTE_EXAMPLES } from '../testing/route-examples';
import { connectSimulator, createTestApp, createUser, loginAs, type TestContext, waitFor } from '../testing/test-app';
import { signBody } from '../whatsapp/cloud-api/webhook';

// Hundreds of real HTTP calls per test: on a loaded two-core machine one can pass the default 30 s.
vi.setConfig({ testTimeout: 180_000 });

/**
 * Tenant isolation, generated from the route table and replayed over a real socket with every
 * spelling of each path. Account A owns one of every resource the API has an id for; account B,
 * another active customer, calls every route with A's ids in the path, the query and the body.
 * Whatever B does, A's rows and connection stay exactly as they were, B's answers carry nothing of
 * A's (no id, phone number or name), and B's own data never comes to point at A's. Admin routes
 * refuse every non-admin account; an expired demo is signed out on every route.
 *
 * A new route fails the classification test until it is placed here: its path parameters mapped
 * to an owner's resource, every id-holding field of its schemas given a value and an expectation,
 * every body given a valid example (so A's id is the only thing wrong in a request).
 */

let ctx: TestContext;
let port: number;
let origin: string;
let graph: FakeGraphApi;

/** Written into every name and text of account A: B's answers and rows must never contain it. */
const MARK = `sigilo${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** E.164 digits of A's two contacts; the first one wrote to A's WhatsApp (a conversation). */
const A_PHONES = ['5521990000001', '5521990000002'];
/** A's number at the (fake) Graph API, its Cloud API channel. */
const A_GRAPH_PHONE = '10100000000001';
const B_GRAPH_PHONE = '10200000000002';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

/** What both accounts own: a contact, a group, an upload and a saved message (by id). */
interface SeededAccount {
  user: UserRow;
  cookie: string;
  contact: string;
  group: string;
  upload: string;
  savedMessage: string;
  quickReply: string;
  queue: string;
}
interface Owner extends SeededAccount {
  /** A member of A's team (an agent) and an invitation still open. */
  member: string;
  invitation: string;
  /** Files kept in the media store, not in a row: a PDF uploaded and a PDF a contact sent. */
  files: string[];
  /** A draft that uses the saved message (and so the upload), a paused one with queued recipients, a sent one. */
  campaigns: { draft: string; paused: string; completed: string };
  autoReply: string;
  notification: string;
  /** Its two numbers: the personal one and the Cloud API one. */
  connections: string[];
  webhookKey: string;
  verifyToken: string;
  appSecret: string;
}
interface Intruder extends SeededAccount {
  member: string;
  invitation: string;
  campaign: string;
  connection: string;
  autoReply: string;
  graphToken: string;
  graphPhone: string;
}
let a: Owner;
let b: Intruder;
const roleCookies: Record<'demo' | 'pending' | 'inactive', string> = { demo: '', pending: '', inactive: '' };

// ---------------------------------------------------------------------------------------------
// Requests

interface Answer extends RawResponse {
  label: string;
}

type Body = undefined | { json: unknown } | { multipart: { filename: string; data: Buffer | string } };

async function call(cookie: string | undefined, method: string, path: string, body?: Body): Promise<Answer> {
  const headers: Record<string, string> = { origin };
  if (cookie) headers.cookie = cookie;
  let payload: string | Buffer | undefined;
  if (body && 'json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body && 'multipart' in body) {
    const form = multipart(body.multipart.filename, body.multipart.data);
    Object.assign(headers, form.headers);
    payload = form.payload;
  }
  const res = await rawRequest(port, method, path, headers, payload);
  return { ...res, label: `${method} ${path}` };
}

async function json<T = Record<string, unknown>>(
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await call(cookie, method, path, body === undefined ? undefined : { json: body });
  if (res.status >= 300) throw new Error(`${res.label} → ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as T;
}

/** The plain path and its odd spellings (see path-spellings.ts), ids kept as they are. */
const spelled = (path: string, keep: string[]) => [path, ...pathSpellings(path, keep)];

const withQuery = (path: string, query: string | undefined) => (query ? `${path}?${query}` : path);

// ---------------------------------------------------------------------------------------------
// Snapshots

/**
 * Columns that move with the clock or with the account's own requests, not with anyone else's:
 * a connection's lease is renewed every few seconds by the process that holds it.
 */
const VOLATILE = ['last_seen_at', 'expires_at', 'lease_until'];

/**
 * Every row of the account in every table that has a `user_id`, its `users` row, and its live
 * WhatsApp connection: what another account's requests must never change.
 */
async function snapshot(user: UserRow): Promise<Record<string, string[]>> {
  const db = ctx.database.db;
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(
      sql`select distinct table_name from information_schema.columns where column_name = 'user_id' and table_schema = current_schema() order by 1`,
    ),
  ).map((r) => r.table_name);
  expect(tables.length).toBeGreaterThan(15);
  const drop = sql.raw(VOLATILE.map((c) => ` - '${c}'`).join(''));
  const out: Record<string, string[]> = {};
  for (const table of [...tables, 'users']) {
    // The account's own row and its team members' logins.
    const owner =
      table === 'users' ? sql`(x.id = ${user.id} or x.account_id = ${user.id})` : sql`x.user_id = ${user.id}`;
    const rows = rowsOf<{ row: string }>(
      await db.execute(sql`select (to_jsonb(x)${drop})::text as row from ${sql.identifier(table)} x where ${owner}`),
    );
    out[table] = rows.map((r) => r.row).sort();
  }
  // What lives outside the database: the WhatsApp connection, what its number sent, what went to Meta for it.
  const { state, isConnected, phoneNumber } = ctx.app.deps.registry.status(user);
  const driver = ctx.app.deps.connections.personalDriver(ctx.app.deps.registry.primaryOf(user.id) ?? '') as {
    outbox?: Array<{ providerMessageId: string }>;
  };
  const phoneId = user.id === a?.user.id ? A_GRAPH_PHONE : undefined;
  out.whatsapp = [
    JSON.stringify({ state, isConnected, phoneNumber }),
    ...(driver?.outbox ?? []).map((m) => m.providerMessageId),
    ...graph.requests.filter((r) => phoneId && r.method !== 'GET' && r.path.includes(phoneId)).map((r) => r.path),
  ];
  return out;
}

/** What of A's must never appear in an answer to B nor in B's rows: its ids, phone numbers and names. */
function secretsOf(shot: Record<string, string[]>): string[] {
  const text = Object.values(shot).flat().join('\n');
  const ids = new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? []);
  return [
    ...ids,
    ...A_PHONES,
    ...A_PHONES.map((p) => p.slice(2)),
    MARK,
    A_GRAPH_PHONE,
    a.webhookKey,
    a.verifyToken,
  ].map((s) => s.toLowerCase());
}
let secrets: string[] = [];

function expectNothingOfA(res: Answer | { label: string; body: string; headers?: unknown }, extra = ''): void {
  const seen = `${JSON.stringify(res.headers ?? {})}\n${res.body}`.toLowerCase();
  const found = secrets.find((s) => seen.includes(s));
  expect(found, `${res.label}${extra} answers something of A's: ${found} in ${res.body.slice(0, 300)}`).toBeUndefined();
}

/** A's data is as it was, and B's rows hold no reference to it. */
async function expectIsolation(before: Record<string, string[]>): Promise<void> {
  expect(await snapshot(a.user)).toEqual(before);
  const mine = JSON.stringify(await snapshot(b.user)).toLowerCase();
  const found = secrets.find((s) => mine.includes(s));
  expect(found, `B's own data came to hold ${found}`).toBeUndefined();
}

/** Waits until the account's data stops moving (receipts, the chatbot's replies). */
async function settled(user: UserRow): Promise<Record<string, string[]>> {
  let last = JSON.stringify(await snapshot(user));
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const now = JSON.stringify(await snapshot(user));
    if (now === last) return JSON.parse(now);
    last = now;
  }
  throw new Error('the account data never settled');
}

// ---------------------------------------------------------------------------------------------
// The route table, classified

/** Routes whose calls do not belong to an account's data, and why. */
const OUTSIDE: Record<string, string> = {
  'GET /api/health': 'public: whether the server and its database answer, the same for everyone',
  'GET /api/ready': 'public: whether this process takes requests now (database, migrations, draining), no id',
  'GET /api/public-config': 'public: product name and sign-up switches, the same for everyone',
  'POST /api/auth/login': 'public: signing in takes a username and password, no id',
  'POST /api/auth/login/2fa': 'public: completes only the sign-in whose challenge cookie it carries, no id',
  'POST /api/auth/logout': 'public: ends the caller’s own session, whatever it is (covered for the expired demo)',
  'POST /api/auth/register': 'public: creates a new account, no id',
  'POST /api/auth/demo-signup': 'public: creates a new demo account, no id',
  'POST /api/auth/signup': 'public: creates a new pending account, no id',
  'POST /api/auth/forgot-password':
    'public: takes an e-mail address, answers the same whether or not an account has it, e-mails only that account',
  'POST /api/auth/reset-password': 'public: acts only on the account whose e-mailed link it is given, no id',
  'POST /api/auth/confirm-email': 'public: confirms only the account whose e-mailed link it is given, no id',
  'GET /api/auth/invitation': 'public: shows only the invitation whose e-mailed link it is given, no id',
  'POST /api/auth/accept-invitation': 'public: joins only the team whose e-mailed link it is given, no id',
  'GET /api/whatsapp-business/webhook/:accountKey':
    'public: Meta’s subscription check, answered only for the account’s verify token (forged below)',
  'POST /api/whatsapp-business/webhook/:accountKey':
    'public: Meta’s deliveries, applied only with the account’s app-secret signature (forged below)',
};

/** Whose resource each path parameter names: A's ids for the matrix, B's own where B edits its own. */
const PATH_OWNERS: Record<string, { a: () => string[]; b?: () => string }> = {
  '/api/campaigns/:id': {
    a: () => Object.values(a.campaigns),
    b: () => b.campaign,
  },
  '/api/contacts/:id': { a: () => [a.contact], b: () => b.contact },
  '/api/groups/:id': { a: () => [a.group], b: () => b.group },
  '/api/messages/:id': { a: () => [a.savedMessage], b: () => b.savedMessage },
  '/api/quick-replies/:id': { a: () => [a.quickReply], b: () => b.quickReply },
  '/api/queues/:id': { a: () => [a.queue], b: () => b.queue },
  '/api/uploads/:id': { a: () => [a.upload, ...a.files], b: () => b.upload },
  '/api/connections/:id': { a: () => a.connections, b: () => b.connection },
  '/api/bot-config/auto-replies/:id': { a: () => [a.autoReply], b: () => b.autoReply },
  // B's contact Carla (B's own conversation with her, on B's number).
  '/api/conversations/:phone': { a: () => [A_PHONES[0]], b: () => '5521980000001' },
  '/api/team/invitations/:id': { a: () => [a.invitation], b: () => b.invitation },
  '/api/team/:id': { a: () => [a.member], b: () => b.member },
  '/api/admin/users/:id': { a: () => [a.user.id] },
  // Jobs span accounts; the loop over admin routes needs one id to show a non-admin gets 403.
  '/api/admin/jobs/:id': { a: () => ['00000000-0000-4000-8000-000000000000'] },
  '/api/whatsapp-business/webhook/:accountKey': { a: () => [a.webhookKey] },
};
const ownerOf = (url: string) => {
  const key = Object.keys(PATH_OWNERS).find((k) => url === k || url.startsWith(`${k}/`));
  return key ? PATH_OWNERS[key] : undefined;
};
/** The route's path addressing B's own resource (where B sends A's id in a body or a query), and that id. */
/** B's single rule of the single-rule routes, made again when a whole bot save has replaced it. */
async function ensureOwnRule(): Promise<void> {
  const rules = (await json<{ autoReplies: Array<{ id: string }> }>(b.cookie, 'GET', '/api/bot-config')).autoReplies;
  if (rules.some((r) => r.id === b.autoReply)) return;
  b.autoReply = (
    await json<{ rule: { id: string } }>(b.cookie, 'POST', '/api/bot-config/auto-replies', {
      trigger: `horario-${rules.length}-${Date.now()}`,
      response: 'Das 9h às 18h',
    })
  ).rule.id;
}

const ownPath = (url: string): { path: string; keep: string[] } => {
  if (!url.includes(':')) return { path: url, keep: [] };
  const own = ownerOf(url)?.b;
  if (!own) throw new Error(`${url}: name a resource of B's in PATH_OWNERS`);
  return { path: url.replace(/:\w+/, own()), keep: [own()] };
};

/**
 * Fields of a body or query that hold an id (or a reference to an upload), by route and place:
 * - refused: A's value answers exactly as an id that never existed (a 4xx), and is not followed;
 * - ignored: the route works on the caller's own rows only, so A's value is left out (a 2xx);
 * - external: an id of WhatsApp or Meta, not of anything stored here (with the reason).
 */
type IdUse =
  | { expect: 'refused'; values: () => unknown[]; unknown: () => unknown[] }
  | { expect: 'ignored'; values: () => unknown[]; reason: string }
  | { expect: 'external'; reason: string };

const uploadRefs = (id: string) => [`upload:${id}`, `/api/uploads/${id}`];
const refusedUpload: IdUse = {
  expect: 'refused',
  values: () => [a.upload, ...a.files].flatMap(uploadRefs),
  unknown: () => [a.upload, ...a.files].flatMap(() => uploadRefs(randomUUID())),
};
const refusedSavedMessage: IdUse = {
  expect: 'refused',
  values: () => [a.savedMessage],
  unknown: () => [randomUUID()],
};
const refusedUploadId: IdUse = { expect: 'refused', values: () => [a.upload], unknown: () => [randomUUID()] };
const refusedNumbers: IdUse = {
  expect: 'refused',
  values: () => [a.connections],
  unknown: () => [[randomUUID()]],
};
const refusedNumber: IdUse = {
  expect: 'refused',
  values: () => [a.connections[0]],
  unknown: () => [randomUUID()],
};
const metaIds: IdUse = {
  expect: 'external',
  reason: 'Meta’s ids, checked at the Graph API with the caller’s own token',
};
const whatsappGroup: IdUse = {
  expect: 'external',
  reason: 'a WhatsApp group id: several accounts may belong to the same WhatsApp group',
};

// A rule or a member works one of the account's own queues: another account's queue is an unknown one.
const refusedQueue: IdUse = { expect: 'refused', values: () => [a.queue], unknown: () => [randomUUID()] };

// The example rules are text rules, which keep no file: a named one, A's or not, is left out (a file
// rule's own file is refused as unknown: bot-config tests, resolveRuleMedia).
const textRuleMedia: IdUse = {
  expect: 'ignored',
  values: () => [a.upload, ...a.files].flatMap(uploadRefs),
  reason: 'a text rule keeps no file: the one named is left out',
};

const ID_FIELDS: Record<string, IdUse> = {
  'POST /api/campaigns body connectionIds': refusedNumbers,
  'PUT /api/campaigns/:id body connectionIds': refusedNumbers,
  'POST /api/queues body connectionIds': refusedNumbers,
  'PUT /api/queues/:id body connectionIds': refusedNumbers,
  // Another account's people are refused as unknown ones: a queue is worked by its own team.
  'POST /api/queues body memberIds': {
    expect: 'refused',
    values: () => [[a.member], [a.user.id]],
    unknown: () => [[randomUUID()], [randomUUID()]],
  },
  'PUT /api/queues/:id body memberIds': {
    expect: 'refused',
    values: () => [[a.member], [a.user.id]],
    unknown: () => [[randomUUID()], [randomUUID()]],
  },
  'GET /api/conversations query queueId': {
    expect: 'ignored',
    values: () => [a.queue],
    reason: 'filters the caller’s own conversations: another account’s queue matches none of them',
  },
  'POST /api/campaigns body savedMessageId': refusedSavedMessage,
  'POST /api/campaigns body imageUrl': refusedUpload,
  'PUT /api/campaigns/:id body savedMessageId': refusedSavedMessage,
  'PUT /api/campaigns/:id body imageUrl': refusedUpload,
  'POST /api/messages body uploadId': refusedUploadId,
  'POST /api/messages body imageUrl': refusedUpload,
  'PUT /api/messages/:id body uploadId': refusedUploadId,
  'PUT /api/messages/:id body imageUrl': refusedUpload,
  'POST /api/bot-config body autoReplies[].id': {
    expect: 'ignored',
    values: () => [a.autoReply],
    reason: 'rules keep their id only within the account; another account’s id gets a new one',
  },
  'POST /api/bot-config body autoReplies[].imageUrl': refusedUpload,
  // A file sent or kept by name (`upload:<id>` or `/api/uploads/<id>`): another account's is an unknown one.
  'POST /api/campaigns body mediaUrl': refusedUpload,
  'PUT /api/campaigns/:id body mediaUrl': refusedUpload,
  'POST /api/messages body mediaUrl': refusedUpload,
  'PUT /api/messages/:id body mediaUrl': refusedUpload,
  'POST /api/quick-replies body mediaUrl': refusedUpload,
  'PUT /api/quick-replies/:id body mediaUrl': refusedUpload,
  'POST /api/conversations/:phone/messages body mediaUrl': refusedUpload,
  'POST /api/bot-config body autoReplies[].mediaUrl': textRuleMedia,
  'POST /api/bot-config/auto-replies body mediaUrl': textRuleMedia,
  'PUT /api/bot-config/auto-replies/:id body mediaUrl': textRuleMedia,
  // A rule hands conversations to one of the account's own queues: another account's queue is an unknown one.
  'POST /api/bot-config body autoReplies[].queueId': refusedQueue,
  'POST /api/bot-config/auto-replies body queueId': refusedQueue,
  'PUT /api/bot-config/auto-replies/:id body queueId': refusedQueue,
  'PATCH /api/team/:id body queueIds': {
    expect: 'refused',
    values: () => [[a.queue]],
    unknown: () => [[randomUUID()]],
  },
  'POST /api/bot-config body autoReplies[].buttons[].id': {
    expect: 'external',
    reason: 'a button’s id is the editor’s label for it inside the rule, not a stored resource',
  },
  'POST /api/bot-config/auto-replies body imageUrl': refusedUpload,
  'PUT /api/bot-config/auto-replies/:id body imageUrl': refusedUpload,
  'POST /api/bot-config/auto-replies body buttons[].id': {
    expect: 'external',
    reason: 'a button’s id is the editor’s label for it inside the rule, not a stored resource',
  },
  'PUT /api/bot-config/auto-replies/:id body buttons[].id': {
    expect: 'external',
    reason: 'a button’s id is the editor’s label for it inside the rule, not a stored resource',
  },
  'POST /api/contacts/bulk body ids': {
    expect: 'ignored',
    values: () => [[a.contact]],
    reason: 'tags, untags or deletes those of the ids that are the caller’s own contacts',
  },
  'POST /api/notifications/read body ids': {
    expect: 'ignored',
    values: () => [[a.notification]],
    reason: 'marks those of the ids that are the caller’s own notifications',
  },
  'GET /api/conversations query connectionId': {
    expect: 'ignored',
    values: () => [a.connections[0]],
    reason: 'filters the caller’s own conversations: another account’s number matches none of them',
  },
  // One conversation per number: another account's number is refused as an unknown one.
  'GET /api/conversations/:phone query connectionId': refusedNumber,
  'POST /api/conversations/:phone/messages query connectionId': refusedNumber,
  'POST /api/conversations/:phone/takeover query connectionId': refusedNumber,
  'POST /api/conversations/:phone/release query connectionId': refusedNumber,
  'POST /api/conversations/:phone/assign query connectionId': refusedNumber,
  'POST /api/conversations/:phone/status query connectionId': refusedNumber,
  'POST /api/conversations/:phone/notes query connectionId': refusedNumber,
  // Another account's member (or owner) is refused as an unknown one: nobody outside the team is assignable.
  'POST /api/conversations/:phone/assign body memberId': {
    expect: 'refused',
    values: () => [a.member, a.user.id],
    unknown: () => [randomUUID(), randomUUID()],
  },
  // The simulator's routes act on one of the caller's own numbers only.
  'POST /api/whatsapp/simulator/inbound body connectionId': refusedNumber,
  'POST /api/whatsapp/simulator/inbound body reaction.providerMessageId': {
    expect: 'external',
    reason:
      'a WhatsApp message id the simulated phone reacts to; it is looked up in the caller’s own conversation only',
  },
  'POST /api/whatsapp/simulator/restrict body connectionId': refusedNumber,
  'GET /api/activity query userId': {
    expect: 'ignored',
    values: () => [a.user.id],
    reason: 'only administrators choose whose log they read',
  },
  'POST /api/whatsapp-business/configure body phoneNumberId': metaIds,
  'POST /api/connections body phoneNumberId': metaIds,
  'POST /api/connections body businessAccountId': metaIds,
  'POST /api/connections body appId': metaIds,
  'POST /api/whatsapp-business/configure body businessAccountId': metaIds,
  'POST /api/whatsapp-business/configure body appId': metaIds,
  'POST /api/groups body whatsappGroupId': whatsappGroup,
  'PUT /api/groups/:id body whatsappGroupId': whatsappGroup,
};

let seq = 0;
const unique = () => `${Date.now().toString(36)}${seq++}`;

/**
 * A valid body for every route that takes one (server/testing/route-examples.ts), so that an id is
 * the only thing a request gets wrong; where B acts on its own account, with what is B's own.
 */
const EXAMPLES: Record<string, () => unknown> = {
  ...ROUTE_EXAMPLES,
  // B's own address: B stays signed in as it was.
  'PUT /api/settings/profile': () => ({ name: 'Outra Loja', email: b.user.email, phone: '+55 11 97777-6666' }),
  // B's own number at the fake Graph API: the configuration succeeds and B's channel is its own.
  'POST /api/whatsapp-business/configure': () => ({ accessToken: b.graphToken, phoneNumberId: b.graphPhone }),
  // B's own contact: the action is carried out, on B's row only.
  'POST /api/contacts/bulk': () => ({ action: 'tag', ids: [b.contact], tag: 'lote' }),
};

/** Query strings for B's own calls: searches for A's names and numbers, exports as text. */
const QUERIES: Record<string, () => string> = {
  'GET /api/contacts': () => `q=${MARK}`,
  'GET /api/campaigns/audience': () => `targetType=groups&groups=${encodeURIComponent(`Grupo ${MARK}`)}`,
  'GET /api/conversations': () => `search=${A_PHONES[0]}`,
  'GET /api/contacts/export': () => 'format=csv',
  'GET /api/contacts/import-template': () => 'format=csv',
  'GET /api/campaigns/:id/recipients/export': () => 'format=csv',
  'GET /api/notifications': () => 'limit=100',
  'GET /api/whatsapp-business/health': () => 'fresh=1',
};

/** Reads of B's that cannot answer 2xx in this setup, and why; every other read of B's must. */
const B_CANNOT_READ: Record<string, string> = {
  'GET /api/users/verify-list': 'checking numbers needs a connected WhatsApp, and B has none',
};

/** File uploads (no JSON body schema): the file each one gets, and why it holds no id or which. */
const MULTIPART: Record<string, { reason: string; file: () => { filename: string; data: Buffer | string } }> = {
  'POST /api/uploads': { reason: 'an image, no id', file: () => ({ filename: 'foto.png', data: PNG }) },
  'POST /api/contacts/import': {
    reason: 'rows of name, phone, e-mail and tags, no id',
    file: () => ({ filename: 'contatos.csv', data: 'Nome,Telefone\nCarla Importada,21980000007\n' }),
  },
  'POST /api/backup/restore': {
    reason: 'a backup refers to uploads by id: A’s must be dropped, never linked',
    file: () => ({
      filename: 'backup.json',
      data: JSON.stringify({
        format: 'disparo-backup',
        version: 1,
        exportedAt: new Date().toISOString(),
        savedMessages: [
          {
            title: 'Restaurada',
            content: 'Oi',
            hasImage: true,
            uploadId: a.upload,
            imageFile: 'x.png',
          },
        ],
        campaigns: [
          {
            name: 'Restaurada',
            message: 'Oi',
            status: 'completed',
            imageUrl: `upload:${a.upload}`,
            createdAt: new Date().toISOString(),
          },
        ],
      }),
    }),
  },
};

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const accountRoutes = () => ctx.app.deps.routes.filter((r) => r.access === 'customer' || r.access === 'session');

// ---------------------------------------------------------------------------------------------
// Schemas

/** Field names that hold an id, or an image that may be a reference to an upload. */
const ID_NAME = /(?:^ids?|Ids?|^imageUrl|^mediaUrl)$/;

type ZodDef = Record<string, unknown> & { type?: string };
const defOf = (schema: unknown) => (schema as { _zod?: { def: ZodDef } } | undefined)?._zod?.def;

/** Every id-holding field of a schema, as a path (`autoReplies[].id`), through wrappers, unions and pipes. */
function idFields(schema: unknown, prefix = ''): string[] {
  const def = defOf(schema);
  if (!def) return [];
  const out: string[] = [];
  switch (def.type) {
    case 'object':
      for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
        if (ID_NAME.test(name)) out.push(`${prefix}${name}`);
        out.push(...idFields(field, `${prefix}${name}.`));
      }
      break;
    case 'array':
      out.push(...idFields(def.element, prefix.replace(/\.$/, '[].')));
      break;
    case 'pipe':
      out.push(...idFields(def.in, prefix), ...idFields(def.out, prefix));
      break;
    case 'union':
      for (const option of def.options as unknown[]) out.push(...idFields(option, prefix));
      break;
    case 'intersection':
      out.push(...idFields(def.left, prefix), ...idFields(def.right, prefix));
      break;
    case 'record':
      out.push(...idFields(def.valueType, prefix));
      break;
    default:
      if ('innerType' in def) out.push(...idFields(def.innerType, prefix));
  }
  return [...new Set(out)];
}

/** A copy of `body` with the field at `path` (`autoReplies[].id`: in the first element) set to `value`. */
function withField(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const steps = path.split('.');
  let node: Record<string, unknown> = copy;
  steps.forEach((step, i) => {
    const name = step.replace('[]', '');
    if (i === steps.length - 1) {
      node[name] = value;
      return;
    }
    const next = node[name];
    if (step.endsWith('[]')) {
      if (!Array.isArray(next) || !next.length) throw new Error(`the example has no element at ${path}`);
      node = next[0] as Record<string, unknown>;
    } else {
      if (!next || typeof next !== 'object') throw new Error(`the example has no object at ${path}`);
      node = next as Record<string, unknown>;
    }
  });
  return copy;
}

interface RouteSchema {
  body?: unknown;
  querystring?: unknown;
  consumes?: string[];
}
const schemaOf = (r: { schema?: unknown }) => (r.schema ?? {}) as RouteSchema;
const idFieldKeys = (r: { method: string; url: string; schema?: unknown }) => [
  ...idFields(schemaOf(r).body).map((f) => `${routeKey(r)} body ${f}`),
  ...idFields(schemaOf(r).querystring).map((f) => `${routeKey(r)} query ${f}`),
];
const bodyFor = (r: { method: string; url: string; schema?: unknown }): Body => {
  const upload = MULTIPART[routeKey(r)];
  if (upload) return { multipart: upload.file() };
  if (!schemaOf(r).body) return undefined;
  const example = EXAMPLES[routeKey(r)];
  if (!example) throw new Error(`no example body for ${routeKey(r)}`);
  return { json: example() };
};

// ---------------------------------------------------------------------------------------------
// The two accounts

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  ctx = await createTestApp(
    { WHATSAPP_DRIVER: 'simulator', GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0' },
    undefined,
    {
      simulatorTimings: { qrMs: 20, detectMs: 20, deliveredMs: 20, readMs: 40 },
      dispatcher: { tickMs: 20, timeScale: 0.001 },
    },
  );
  port = await listen(ctx);
  origin = `http://127.0.0.1:${port}`;
  for (const [phoneId, who] of [
    [A_GRAPH_PHONE, 'a'],
    [B_GRAPH_PHONE, 'b'],
  ] as const) {
    graph.addPhone(
      phoneId,
      `EAAG-${who}-${MARK}`,
      who === 'a' ? '551130000001' : '551130000002',
      who === 'a' ? `Loja ${MARK}` : 'Outra Loja',
    );
  }

  // Account A: one of everything, through its own API where the API makes it.
  const userA = await createUser(ctx, {
    name: `Loja ${MARK}`,
    username: MARK,
    email: `${MARK}@example.com`,
    company: `Empresa ${MARK}`,
    // Room for a personal and a Cloud number.
    planType: 'professional',
  });
  const cookieA = await loginAs(ctx, userA);
  await json(cookieA, 'PUT', '/api/settings/whatsapp', { ...DEFAULT_WHATSAPP_SETTINGS, respectBusinessHours: false });
  await json(cookieA, 'PUT', '/api/settings/notifications', {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    pushNotifications: false,
  });
  await connectSimulator(ctx, userA.id, cookieA);
  const bot = await json<{ config: { autoReplies: Array<{ id: string }> } }>(cookieA, 'POST', '/api/bot-config', {
    isEnabled: true,
    welcomeMessage: `Bem-vindo à ${MARK}`,
    autoReplies: [{ trigger: `preco ${MARK}`, response: `Tabela ${MARK}` }],
  });
  const contact = await json<{ contact: { id: string } }>(cookieA, 'POST', '/api/contacts', {
    name: `Ana ${MARK}`,
    phone: A_PHONES[0].slice(2),
    tags: [MARK],
  });
  await json(cookieA, 'POST', '/api/contacts', { name: `Bruno ${MARK}`, phone: A_PHONES[1].slice(2) });
  // Linked to a WhatsApp group: a campaign may only aim at such a group.
  const group = await json<{ group: { id: string } }>(cookieA, 'POST', '/api/groups', {
    name: `Grupo ${MARK}`,
    whatsappGroupId: '120363000000000101@g.us',
  });
  const upload = JSON.parse(
    (await call(cookieA, 'POST', '/api/uploads', { multipart: { filename: `${MARK}.png`, data: PNG } })).body,
  ) as { id: string };
  const saved = await json<{ savedMessage: { id: string } }>(cookieA, 'POST', '/api/messages', {
    title: `Modelo ${MARK}`,
    content: `Oferta ${MARK}`,
    hasImage: true,
    uploadId: upload.id,
  });
  const draft = await json<{ id: string }>(cookieA, 'POST', '/api/campaigns', {
    name: `Rascunho ${MARK}`,
    message: '',
    savedMessageId: saved.savedMessage.id,
    targetType: 'groups',
    targetGroups: [`Grupo ${MARK}`],
  });
  const sent = await json<{ id: string }>(cookieA, 'POST', '/api/campaigns', {
    name: `Enviada ${MARK}`,
    message: `Oi {{nome}}, novidades da ${MARK}`,
    targetType: 'all',
    imageUrl: `upload:${upload.id}`,
  });
  await json(cookieA, 'POST', `/api/campaigns/${sent.id}/send`);
  await waitFor(
    async () => (await ctx.database.db.select().from(campaigns).where(eq(campaigns.id, sent.id)))[0].status,
    (s) => s === 'completed',
    15_000,
  );
  const [paused] = await ctx.database.db
    .insert(campaigns)
    .values({ userId: userA.id, name: `Pausada ${MARK}`, message: `Oi ${MARK}`, status: 'paused' })
    .returning();
  await ctx.database.db.insert(campaignRecipients).values(
    A_PHONES.map((phone, i) => ({
      campaignId: paused.id,
      userId: userA.id,
      recipient: phone,
      name: `${i ? 'Bruno' : 'Ana'} ${MARK}`,
    })),
  );
  await json(cookieA, 'POST', '/api/whatsapp/simulator/inbound', { from: A_PHONES[0], text: `Olá ${MARK}` });
  await ctx.app.deps.chatbot.idle();
  await json(cookieA, 'POST', `/api/conversations/${A_PHONES[0]}/messages`, { text: `Resposta ${MARK}` });
  const PDF = Buffer.from(`%PDF-1.4\n${MARK}\n%%EOF\n`);
  const document = JSON.parse(
    (await call(cookieA, 'POST', '/api/uploads', { multipart: { filename: `${MARK}.pdf`, data: PDF } })).body,
  ) as { id: string };
  await json(cookieA, 'POST', '/api/whatsapp/simulator/inbound', {
    from: A_PHONES[0],
    media: {
      kind: 'document',
      mimeType: 'application/pdf',
      fileName: `${MARK}.pdf`,
      dataBase64: PDF.toString('base64'),
    },
  });
  const received = await waitFor(
    async () =>
      (
        await json<{ messages: Array<{ media?: { url: string; state?: string } }> }>(
          cookieA,
          'GET',
          `/api/conversations/${A_PHONES[0]}`,
        )
      ).messages.find((m) => m.media?.state === 'ready')?.media?.url,
    Boolean,
    10_000,
  );
  await ctx.app.deps.chatbot.idle();
  await notify(ctx.database.db, ctx.app.log, userA.id, {
    kind: 'contacts_imported',
    title: `Aviso ${MARK}`,
    body: `Importação ${MARK}`,
  });
  await recordActivity(ctx.database.db, ctx.app.log, {
    userId: userA.id,
    actorId: userA.id,
    kind: 'bot_changed',
    detail: `Regra ${MARK}`,
  });
  const appSecret = `segredo-${MARK}`;
  const cloud = await json<{ config: { webhookPath: string; verifyToken: string } }>(
    cookieA,
    'POST',
    '/api/whatsapp-business/configure',
    {
      accessToken: `EAAG-a-${MARK}`,
      phoneNumberId: A_GRAPH_PHONE,
      appSecret,
    },
  );
  const numbers = await json<{ connections: Array<{ id: string }> }>(cookieA, 'GET', '/api/connections');
  expect(numbers.connections).toHaveLength(2);
  const notices = await json<{ notifications: Array<{ id: string; title: string }> }>(
    cookieA,
    'GET',
    '/api/notifications?limit=100',
  );
  const memberA = await createUser(ctx, {
    name: `Atendente ${MARK}`,
    accountType: 'regular',
    planType: userA.planType,
    accountId: userA.id,
    teamRole: 'agent',
  });
  const invitationA = await json<{ invitation: { id: string } }>(cookieA, 'POST', '/api/team/invitations', {
    name: `Convidado ${MARK}`,
    email: `convidado-${MARK}@exemplo.com`,
    role: 'manager',
  });
  a = {
    user: userA,
    cookie: cookieA,
    member: memberA.id,
    invitation: invitationA.invitation.id,
    contact: contact.contact.id,
    group: group.group.id,
    upload: upload.id,
    files: [document.id, (received as string).split('/').at(-1) as string],
    savedMessage: saved.savedMessage.id,
    quickReply: (
      await json<{ quickReply: { id: string } }>(cookieA, 'POST', '/api/quick-replies', {
        shortcut: 'pix',
        text: `Chave Pix ${MARK}`,
      })
    ).quickReply.id,
    queue: (
      await json<{ queue: { id: string } }>(cookieA, 'POST', '/api/queues', {
        name: 'Financeiro',
        outOfHoursMessage: `Voltamos amanhã ${MARK}`,
      })
    ).queue.id,
    campaigns: { draft: draft.id, paused: paused.id, completed: sent.id },
    autoReply: bot.config.autoReplies[0].id,
    notification: notices.notifications.find((n) => n.title === `Aviso ${MARK}`)?.id as string,
    connections: numbers.connections.map((c) => c.id),
    webhookKey: cloud.config.webhookPath.split('/').at(-1) as string,
    verifyToken: cloud.config.verifyToken,
    appSecret,
  };

  // Account B: another active customer with a little of its own.
  const userB = await createUser(ctx, { name: 'Outra Loja', planType: 'professional' });
  const cookieB = await loginAs(ctx, userB);
  const own = {
    contact: (
      await json<{ contact: { id: string } }>(cookieB, 'POST', '/api/contacts', { name: 'Carla', phone: '21980000001' })
    ).contact.id,
    group: (await json<{ group: { id: string } }>(cookieB, 'POST', '/api/groups', { name: 'Equipe B' })).group.id,
    upload: (
      JSON.parse(
        (await call(cookieB, 'POST', '/api/uploads', { multipart: { filename: 'b.png', data: PNG } })).body,
      ) as { id: string }
    ).id,
    savedMessage: (
      await json<{ savedMessage: { id: string } }>(cookieB, 'POST', '/api/messages', {
        title: 'Modelo B',
        content: 'Oi',
      })
    ).savedMessage.id,
    quickReply: (
      await json<{ quickReply: { id: string } }>(cookieB, 'POST', '/api/quick-replies', { shortcut: 'oi', text: 'Oi!' })
    ).quickReply.id,
    queue: (await json<{ queue: { id: string } }>(cookieB, 'POST', '/api/queues', { name: 'Vendas B' })).queue.id,
    campaign: (await json<{ id: string }>(cookieB, 'POST', '/api/campaigns', { name: 'Campanha B', message: 'Oi' })).id,
    connection: (
      await json<{ connection: { id: string } }>(cookieB, 'POST', '/api/connections', {
        kind: 'personal',
        label: 'Vendas B',
      })
    ).connection.id,
    autoReply: (
      await json<{ rule: { id: string } }>(cookieB, 'POST', '/api/bot-config/auto-replies', {
        trigger: 'horario',
        response: 'Das 9h às 18h',
      })
    ).rule.id,
  };
  const memberB = await createUser(ctx, {
    name: 'Atendente B',
    accountType: 'regular',
    planType: userB.planType,
    accountId: userB.id,
    teamRole: 'agent',
  });
  const invitationB = await json<{ invitation: { id: string } }>(cookieB, 'POST', '/api/team/invitations', {
    name: 'Convidado B',
    email: `convidado.b.${Date.now()}@example.com`,
    role: 'agent',
  });
  b = {
    user: userB,
    cookie: cookieB,
    ...own,
    member: memberB.id,
    invitation: invitationB.invitation.id,
    graphToken: `EAAG-b-${MARK}`,
    graphPhone: B_GRAPH_PHONE,
  };

  const roles = {
    demo: { accountType: 'demo', planType: 'demo', demoExpiresAt: new Date(Date.now() + 3_600_000) },
    pending: { accountType: 'pending', isActive: false },
    inactive: { accountType: 'active', isActive: false },
  } as const;
  for (const [role, overrides] of Object.entries(roles)) {
    roleCookies[role as keyof typeof roles] = await loginAs(ctx, await createUser(ctx, overrides));
  }

  secrets = secretsOf(await settled(userA));
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  await graph?.stop();
});

// ---------------------------------------------------------------------------------------------

describe('the route table', () => {
  it('places every route: in the account matrix, the admin matrix, or outside with a reason', () => {
    const routes = ctx.app.deps.routes;
    expect(routes.length).toBeGreaterThan(60);
    const seen = new Set<string>();
    for (const r of routes) {
      const key = routeKey(r);
      seen.add(key);
      if (r.access === 'public') expect(OUTSIDE[key], `${key} is public: say why in OUTSIDE`).toBeDefined();
      else expect(['customer', 'session', 'admin'], `${key} access`).toContain(r.access);
      if (r.url.includes(':')) expect(ownerOf(r.url), `${key}: whose resource its parameter names`).toBeDefined();
      if (schemaOf(r).consumes?.includes('multipart/form-data')) {
        expect(MULTIPART[key], `${key} takes a file: say what it holds in MULTIPART`).toBeDefined();
      } else if (schemaOf(r).body) {
        expect(EXAMPLES[key], `${key}: a valid example body`).toBeDefined();
      }
      for (const field of idFieldKeys(r))
        expect(ID_FIELDS[field], `${field}: how an id there is treated`).toBeDefined();
    }
    const allFields = new Set(routes.flatMap(idFieldKeys));
    for (const key of Object.keys(ID_FIELDS)) expect(allFields, `stale ID_FIELDS entry ${key}`).toContain(key);
    for (const key of [
      ...Object.keys(OUTSIDE),
      ...Object.keys(EXAMPLES),
      ...Object.keys(MULTIPART),
      ...Object.keys(QUERIES),
      ...Object.keys(B_CANNOT_READ),
    ]) {
      expect(seen, `stale entry ${key}`).toContain(key);
    }
    // The detector sees what it must: an id nested in a list, an id in a query, an upload reference.
    expect(allFields).toContain('POST /api/bot-config body autoReplies[].id');
    expect(allFields).toContain('GET /api/activity query userId');
    expect(allFields).toContain('PUT /api/campaigns/:id body imageUrl');
  });
});

describe('account B with account A’s ids', () => {
  it('is refused on every route that names A’s resource in its path, through every spelling', async () => {
    const before = await snapshot(a.user);
    let calls = 0;
    for (const r of accountRoutes().filter((x) => x.url.includes(':'))) {
      const owner = ownerOf(r.url);
      for (const id of owner?.a() ?? []) {
        const path = r.url.replace(/:\w+/, id);
        const query = QUERIES[routeKey(r)]?.();
        // Every spelling of the path, and the id itself in capitals (the database compares uuids without case).
        const paths = [
          ...spelled(path, [id]),
          ...(id === id.toUpperCase() ? [] : [path.replace(id, id.toUpperCase())]),
        ];
        for (const p of paths) {
          const res = await call(b.cookie, r.method, withQuery(p, query), bodyFor(r));
          calls++;
          expect([403, 404], `${res.label} → ${res.status} ${res.body.slice(0, 200)}`).toContain(res.status);
          expectNothingOfA(res);
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
    await expectIsolation(before);
  });

  it('finds no id of A’s through a body or a query: refused as unknown, or left out', async () => {
    const before = await snapshot(a.user);
    let refused = 0;
    let ignored = 0;
    for (const r of accountRoutes()) {
      for (const key of idFieldKeys(r)) {
        const use = ID_FIELDS[key];
        if (use.expect === 'external') continue;
        const [, , where, field] = key.split(' ');
        // A whole bot save earlier in the loop gives B's rules new ids: the single-rule routes work on
        // one of B's that exists now, so a refusal is the field's and not the path's.
        if (r.url.includes('/auto-replies/:id')) await ensureOwnRule();
        const { path, keep } = ownPath(r.url);
        const request = (value: unknown, p: string) => {
          if (where === 'query') return call(b.cookie, r.method, `${p}?${field}=${encodeURIComponent(String(value))}`);
          return call(b.cookie, r.method, p, { json: withField((bodyFor(r) as { json: unknown }).json, field, value) });
        };
        const values = use.values();
        for (const [i, value] of values.entries()) {
          const baseline = use.expect === 'refused' ? await request(use.unknown()[i], path) : undefined;
          if (baseline) {
            expect(baseline.body, `${baseline.label}: B's own rule is there`).not.toContain(botMsg.ruleNotFound);
            expect(baseline.status, `${baseline.label} ${field}: an unknown id`).toBeGreaterThanOrEqual(400);
            expect(baseline.status, `${baseline.label} ${field}: an unknown id`).toBeLessThan(500);
          }
          for (const p of spelled(path, keep)) {
            const res = await request(value, p);
            const label = `${res.label} ${where} ${field}=${JSON.stringify(value)}`;
            if (baseline) {
              refused++;
              expect({ status: res.status, body: res.body }, `${label} answers as an unknown id`).toEqual({
                status: baseline.status,
                body: baseline.body,
              });
            } else {
              ignored++;
              expect(res.status, `${label} → ${res.body.slice(0, 200)}`).toBeLessThan(300);
            }
            expectNothingOfA(res, ` (${where} ${field})`);
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
    expect(ignored).toBeGreaterThan(30);
    await expectIsolation(before);
  });

  it('sees nothing of A’s in its lists, searches, totals, exports and own writes, and changes none of it', async () => {
    const before = await snapshot(a.user);
    let calls = 0;
    const routes = accountRoutes().filter((r) => !r.url.includes(':'));
    expect(routes.length).toBeGreaterThan(40);
    for (const r of routes) {
      const query = QUERIES[routeKey(r)]?.();
      for (const p of spelled(r.url, [])) {
        const res = await call(b.cookie, r.method, withQuery(p, query), bodyFor(r));
        calls++;
        expect(res.status, `${res.label} → ${res.status} ${res.body.slice(0, 200)}`).toBeLessThan(500);
        if (r.method === 'GET' && !B_CANNOT_READ[routeKey(r)]) {
          expect(res.status, `${res.label} → ${res.status} ${res.body.slice(0, 200)}`).toBeLessThan(300);
        }
        expectNothingOfA(res);
        if (String(res.headers['content-type']).startsWith('application/pdf')) {
          const pdf = await fetch(`${origin}${withQuery(r.url, query)}`, { headers: { cookie: b.cookie } });
          expectNothingOfA({
            label: `${res.label} (PDF text)`,
            body: pdfText(Buffer.from(await pdf.arrayBuffer())).text,
          });
        }
      }
    }
    expect(calls).toBeGreaterThan(600);
    await expectIsolation(before);
  });

  it('would notice a leak: A’s own answers trip the answer check, a change to A’s rows the snapshot', async () => {
    for (const path of [`/api/contacts?q=${MARK}`, '/api/conversations', `/api/campaigns/${a.campaigns.completed}`]) {
      const own = await call(a.cookie, 'GET', path);
      expect(own.status).toBe(200);
      expect(() => expectNothingOfA(own), path).toThrow();
    }
    const before = await snapshot(a.user);
    const db = ctx.database.db;
    await db.update(campaigns).set({ status: 'cancelled' }).where(eq(campaigns.id, a.campaigns.paused));
    await expect(expectIsolation(before)).rejects.toThrow();
    await db.update(campaigns).set({ status: 'paused' }).where(eq(campaigns.id, a.campaigns.paused));
    await expectIsolation(before);
  });

  it('cannot feed A’s WhatsApp webhook nor read its verify token', async () => {
    const before = await snapshot(a.user);
    const delivery = cloudWebhookBody('waba', {
      messaging_product: 'whatsapp',
      metadata: { phone_number_id: A_GRAPH_PHONE },
      contacts: [{ wa_id: A_PHONES[1], profile: { name: 'Forjado' } }],
      messages: [{ from: A_PHONES[1], id: `wamid.${unique()}`, timestamp: '1', type: 'text', text: { body: 'x' } }],
    });
    const path = `/api/whatsapp-business/webhook/${a.webhookKey}`;
    for (const p of spelled(path, [a.webhookKey])) {
      for (const signature of [undefined, signBody(delivery, 'outro-segredo'), 'sha256=00']) {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (signature) headers['x-hub-signature-256'] = signature;
        const res = await rawRequest(port, 'POST', p, headers, delivery);
        expect(res.status, `POST ${p} signed ${signature}`).toBe(403);
      }
      const verify = await rawRequest(
        port,
        'GET',
        `${p}?hub.mode=subscribe&hub.verify_token=adivinha&hub.challenge=42`,
      );
      expect(verify.status, `GET ${p}`).toBe(403);
      expect(verify.body).not.toContain('42');
    }
    await expectIsolation(before);
  });
});

describe('admin routes', () => {
  it('refuse a customer, a demo, a pending and a deactivated account on every spelling, and change nothing', async () => {
    const everyone = async () =>
      rowsOf<{ row: string }>(
        await ctx.database.db.execute(sql`select (to_jsonb(u) - 'last_seen_at')::text as row from users u order by id`),
      ).map((r) => r.row);
    const before = { a: await snapshot(a.user), users: await everyone() };
    const admin = ctx.app.deps.routes.filter((r) => r.access === 'admin');
    expect(admin.length).toBeGreaterThanOrEqual(4);
    const callers = { customer: b.cookie, ...roleCookies };
    for (const r of admin) {
      const ids = r.url.includes(':') ? (ownerOf(r.url)?.a() ?? []) : [''];
      for (const id of ids) {
        const path = id ? r.url.replace(/:\w+/, id) : r.url;
        for (const [role, cookie] of Object.entries(callers)) {
          for (const p of spelled(path, id ? [id] : [])) {
            const res = await call(cookie, r.method, p, bodyFor(r));
            expect(res.status, `${res.label} as ${role} → ${res.body.slice(0, 200)}`).toBe(403);
            expect(['FORBIDDEN', 'DEMO_READ_ONLY'], `${res.label} as ${role}`).toContain(res.json().code);
            expectNothingOfA(res, ` as ${role}`);
          }
        }
      }
    }
    expect({ a: await snapshot(a.user), users: await everyone() }).toEqual(before);
  });
});

describe('an expired demo', () => {
  it('is signed out on every route and spelling, and gets none of its own data back', async () => {
    const signup = await call(undefined, 'POST', '/api/auth/demo-signup', {
      json: { name: `Visitante ${MARK}`, whatsappNumber: '+55 11 98888-7777', email: 'visita@example.com' },
    });
    expect(signup.status).toBe(201);
    const { credentials } = signup.json() as { credentials: { username: string; password: string } };
    const [demo] = await ctx.database.db.select().from(users).where(eq(users.username, credentials.username));
    const cookie = await loginAs(ctx, credentials, credentials.password);
    const token = cookie.slice('disparo_session='.length);
    const shot = await snapshot(demo);
    const names = [demo.name, demo.username, demo.email];
    const demoSecrets = [
      ...new Set(
        Object.values(shot)
          .flat()
          .join('\n')
          .match(/[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi) ?? [],
      ),
      ...names,
    ].map((s) => s.toLowerCase());
    expect(demoSecrets.length).toBeGreaterThan(10);
    const idOf = (table: string) => (JSON.parse(shot[table][0] ?? '{}') as { id?: string }).id ?? randomUUID();
    const demoIds: Record<string, string> = {
      '/api/campaigns/': idOf('campaigns'),
      '/api/contacts/': idOf('contacts'),
      '/api/groups/': idOf('groups'),
      '/api/conversations/': '5511999990000',
    };

    // The demo's time runs out in a moment (the account changed: cached sessions are dropped, as
    // the app does on every change of an account)...
    const expiresAt = Date.now() + 1500;
    await ctx.database.db
      .update(users)
      .set({ demoExpiresAt: new Date(expiresAt) })
      .where(eq(users.id, demo.id));
    ctx.app.deps.sessions.clearCache();
    // ...meanwhile it is served, its session now in the cache the 2-second poll reads...
    expect((await call(cookie, 'GET', '/api/whatsapp-session')).status).toBe(200);
    expect((await call(cookie, 'GET', '/api/campaigns')).body).toContain(idOf('campaigns'));
    expect(ctx.app.deps.sessions.cached(token)).toBeTruthy();
    // ...and once the time is up, the cached session serves nothing more.
    await new Promise((r) => setTimeout(r, expiresAt - Date.now() + 50));
    const leaks = (res: Answer) => {
      const seen = `${JSON.stringify(res.headers)}\n${res.body}`.toLowerCase();
      return demoSecrets.find((s) => seen.includes(s));
    };
    expect(ctx.app.deps.sessions.cached(token), 'the session is still cached').toBeTruthy();
    const poll = await call(cookie, 'GET', '/api/whatsapp-session');
    expect(poll.status).toBe(401);
    expect(leaks(poll)).toBeUndefined();
    let calls = 0;
    for (const r of ctx.app.deps.routes) {
      if (r.access === 'public') continue;
      const prefix = Object.keys(demoIds).find((k) => r.url.startsWith(k));
      const id = prefix ? demoIds[prefix] : randomUUID();
      const path = r.url.replace(/:\w+/, id);
      for (const p of spelled(path, [id])) {
        const res = await call(cookie, r.method, withQuery(p, QUERIES[routeKey(r)]?.()), bodyFor(r));
        calls++;
        expect(res.status, `${res.label} → ${res.body.slice(0, 200)}`).toBe(401);
        expect(res.json(), res.label).toMatchObject({ code: 'UNAUTHENTICATED', message: msg.auth.demoExpired });
        expect(leaks(res), res.label).toBeUndefined();
      }
    }
    expect(calls).toBeGreaterThan(1000);

    // Public routes answer as they answer anyone: never with the demo's data, never signing it back in.
    for (const r of ctx.app.deps.routes.filter((x) => x.access === 'public' && !x.url.includes(':'))) {
      if (r.url === '/api/auth/logout') continue;
      const res = await call(cookie, r.method, r.url, bodyFor(r));
      expect(res.status, `${res.label} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(leaks(res), res.label).toBeUndefined();
    }
    const again = await call(undefined, 'POST', '/api/auth/login', { json: credentials });
    expect(again.status).toBe(403);
    expect(again.json()).toMatchObject({ code: 'DEMO_EXPIRED' });
    expect(again.headers['set-cookie']).toBeUndefined();
    const out = await call(cookie, 'POST', '/api/auth/logout');
    expect(out.status).toBeLessThan(300);
    expect((await call(cookie, 'GET', '/api/whatsapp-session')).status).toBe(401);
    const { users: _u, sessions: _s, ...data } = shot;
    const { users: _u2, sessions, ...after } = await snapshot(demo);
    expect(sessions).toEqual([]);
    expect(after).toEqual(data);
  });
});

import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ZodType } from 'zod';
import { rowsOf } from '../db/rows';
import { notify } from '../records/notify';
import { EXAMPLES, seedRouteTargets, withPathIds } from '../testing/route-examples';
import { createTestApp, createUser, loginAs, type TestContext } from '../testing/test-app';

// Hundreds of real HTTP calls per test: on a loaded two-core machine one can pass the default 30 s.
vi.setConfig({ testTimeout: 180_000 });

/**
 * Every route's body, query and path fields, driven from its contract schema with hostile values:
 * control characters, lone surrogates, 1 MB strings, wrong types, prototype-pollution keys. The
 * answer is a 2xx or a 4xx with a Portuguese message a person can act on — never a 5xx — and
 * another customer's data stays exactly as it was.
 */
let ctx: TestContext;
let base: string;
let cookies: Record<string, string>;
let ids: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ base, cookies, ids } = await seedRouteTargets(ctx));

  // Another customer with data of its own, which no hostile request may touch.
  const other = await createUser(ctx);
  ids.other = other.id;
  const otherCookie = await loginAs(ctx, other);
  for (const [url, body] of [
    ['/api/contacts', { name: 'Vizinha', phone: '21998760000', tags: ['vip'] }],
    ['/api/groups', { name: 'Clientes' }],
    ['/api/campaigns', { name: 'Promo', message: 'Olá {{nome}}' }],
    ['/api/messages', { title: 'Modelo', content: 'Oi' }],
    ['/api/bot-config', { welcomeMessage: 'Olá!', autoReplies: [{ keyword: 'preço', response: 'Tabela' }] }],
  ] as const) {
    expect((await send('POST', url, otherCookie, body)).status, url).toBe(200);
  }
  await notify(ctx.database.db, ctx.app.log, other.id, { kind: 'contacts_imported', title: 'Aviso', body: 'Aviso' });
  otherBefore = await accountRows(other.id);
  expect(otherBefore.length).toBeGreaterThan(7);
});

let otherBefore: string[] = [];
/** Every row of an account in every table with a `user_id`, and its `users` row (clock-driven columns left out). */
async function accountRows(userId: string): Promise<string[]> {
  const db = ctx.database.db;
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(
      sql`select distinct table_name from information_schema.columns where column_name = 'user_id' and table_schema = current_schema()`,
    ),
  ).map((r) => r.table_name);
  const rows: string[] = [];
  for (const table of [...tables, 'users']) {
    const owner = sql.raw(table === 'users' ? 'x.id' : 'x.user_id');
    const found = await db.execute(
      sql`select ${table}::text || ' ' || (to_jsonb(x) - 'last_seen_at' - 'expires_at')::text as row from ${sql.identifier(table)} x where ${owner} = ${userId}`,
    );
    rows.push(...rowsOf<{ row: string }>(found).map((r) => r.row));
  }
  return rows.sort();
}

afterEach(async () => {
  expect(await accountRows(ids.other), 'another customer’s data').toEqual(otherBefore);
});

const pathIds = (url: string) => withPathIds(url, ids);
afterAll(() => ctx.close());

const MEGABYTE = 'a'.repeat(1024 * 1024);
/** Stands for a 1 MB string in generated values (so a failure report does not print a megabyte). */
const HUGE = '<1 MB>';
const control = fc.constantFrom('\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f');
const surrogate = fc.constantFrom('\ud800', '\udfff', '\udbff\u0041');
const hostileText = fc.oneof(
  fc.tuple(fc.string({ maxLength: 8 }), control, fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.tuple(fc.string({ maxLength: 8 }), surrogate).map(([a, s]) => `${a}${s}`),
  fc.constant(HUGE),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', '<script>alert(1)</script>', "'; drop table users; --"),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const hostileValue = fc.oneof(hostileText, wrongType);

/** The field names of an object schema (zod 4 keeps them in `shape`); none for anything else. */
function fieldsOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

const hostileBody = (fields: string[], example: () => Record<string, unknown>) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fc.constantFrom(...fields), hostileValue).map(([f, v]) => ({ ...example(), [f]: v })),
    },
    { weight: 1, arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] }) },
    { weight: 1, arbitrary: hostileText.map((v) => ({ ...example(), unexpectedField: v })) },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => ({ ...example(), ...JSON.parse('{"__proto__":{"isAdmin":true}}') })),
    },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => ({ ...example(), constructor: { prototype: { polluted: 1 } } })),
    },
    { weight: 1, arbitrary: wrongType },
  );

/** One value of each hostile kind, sent in every field of every route on top of the random runs. */
const SWEEP: unknown[] = [
  'Nul\u0000 Teste',
  'Esc\u001b[31m',
  'Sur\ud800rogate',
  'C1\u0085',
  HUGE,
  42,
  -1.5,
  true,
  null,
  [],
  {},
  ['a', 1],
];

/** Percent-encodes every UTF-8 byte (a lone surrogate becomes U+FFFD, as a client would send it). */
const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const ENGLISH = /\b(expected|received|invalid input|must be|is required|unexpected|undefined)\b/i;

async function send(method: string, url: string, cookie: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { cookie, origin: base, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body, (_k, v) => (v === HUGE ? MEGABYTE : v)),
  });
  const text = await res.text();
  return { status: res.status, text };
}

function expectHandled(res: { status: number; text: string }, label: string): void {
  expect(res.status, `${label} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 400) {
    const body = JSON.parse(res.text) as { success: boolean; message: string };
    if (res.status === 401 || res.status === 403) return;
    expect(body.success, `${label} → ${res.status} ${res.text.slice(0, 200)}`).toBe(false);
    expect(body.message, label).toMatch(/\p{L}{3}/u);
    expect(body.message, label).not.toMatch(ENGLISH);
  }
}

/** Signing out would end the session the rest of the suite uses. */
const SKIP = new Set(['POST /api/auth/logout']);

describe('hostile input on every route', () => {
  it('answers every body with a 2xx or a pt-BR 4xx, never a 5xx', async () => {
    const routes = ctx.app.deps.routes.filter((r) => !SKIP.has(`${r.method} ${r.url}`));
    let withBody = 0;
    for (const r of routes) {
      const cookie = r.access === 'admin' ? cookies.admin : cookies.customer;
      const url = pathIds(r.url);
      const fields = fieldsOf(r.schema?.body as ZodType | undefined);
      if (r.method === 'GET' || r.method === 'DELETE') continue;
      withBody++;
      const example = EXAMPLES[`${r.method} ${r.url}`];
      if (fields.length) expect(example, `an example body for ${r.method} ${r.url}`).toBeDefined();
      for (const field of fields) {
        for (const value of SWEEP) {
          const body = { ...example(), [field]: value };
          expectHandled(
            await send(r.method, url, cookie, body),
            `${r.method} ${r.url} ${field}=${JSON.stringify(value)}`,
          );
        }
      }
      await fc.assert(
        fc.asyncProperty(hostileBody(fields.length ? fields : ['x'], example ?? (() => ({}))), async (body) => {
          expectHandled(
            await send(r.method, url, cookie, body),
            `${r.method} ${r.url} ${JSON.stringify(body).slice(0, 80)}`,
          );
        }),
        { numRuns: fields.length ? 25 : 5, seed: 20261123 },
      );
    }
    expect(withBody).toBeGreaterThan(10);
  });

  it('answers hostile query strings and path parameters with a 2xx or a pt-BR 4xx', async () => {
    const routes = ctx.app.deps.routes.filter((r) => !SKIP.has(`${r.method} ${r.url}`));
    for (const r of routes) {
      const cookie = r.access === 'admin' ? cookies.admin : cookies.customer;
      const queryFields = fieldsOf(r.schema?.querystring);
      const hasParams = r.url.includes(':');
      if (!queryFields.length && !hasParams) continue;
      await fc.assert(
        fc.asyncProperty(hostileText, hostileText, async (param, value) => {
          const path = r.url.replace(/:(\w+)/g, () => pct(param.slice(0, 500)));
          const query = queryFields
            .map((f) => `${f}=${pct(value === HUGE ? MEGABYTE.slice(0, 4000) : value)}`)
            .join('&');
          const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
          expectHandled(await send(r.method, query ? `${path}?${query}` : path, cookie, body), `${r.method} ${r.url}`);
        }),
        { numRuns: 15, seed: 20261123 },
      );
      // Bytes that are not UTF-8 at all.
      for (const raw of ['%00', '%C3%28', '%FF%FE', '%ED%A0%80', '%E2%82']) {
        const path = r.url.replace(/:(\w+)/g, raw);
        const query = queryFields.map((f) => `${f}=${raw}`).join('&');
        const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
        expectHandled(
          await send(r.method, query ? `${path}?${query}` : path, cookie, body),
          `${r.method} ${r.url} ${raw}`,
        );
      }
    }
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, mediaUploads, savedMessages } from '../db/schema';
import { listen, rawRequest } from '../testing/raw-http';
import { createTestApp, newCustomer, type TestContext } from '../testing/test-app';

/**
 * The campaign, saved-message and upload routes attacked over a real socket, as an outsider would:
 * another account's ids through odd spellings of the path, a NUL byte in an id, bodies far over
 * the limits. Each answer is a 4xx with a Portuguese message, and the owner's data is untouched.
 */
let ctx: TestContext;
let port: number;
let owner: { id: string; campaign: string; message: string; upload: string };
let intruder: string;

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

beforeAll(async () => {
  ctx = await createTestApp();
  port = await listen(ctx);
  const a = await newCustomer(ctx);
  const b = await newCustomer(ctx);
  intruder = b.cookie;
  const db = ctx.database.db;
  const [c] = await db.insert(campaigns).values({ userId: a.user.id, name: 'Segredo', message: 'Oi' }).returning();
  const [m] = await db
    .insert(savedMessages)
    .values({ userId: a.user.id, title: 'Privada', content: 'Texto' })
    .returning();
  const [u] = await db
    .insert(mediaUploads)
    .values({ userId: a.user.id, fileName: 'foto.png', mimeType: 'image/png', size: PNG.length, data: PNG })
    .returning();
  owner = { id: a.user.id, campaign: c.id, message: m.id, upload: u.id };
});
afterAll(() => ctx.close());

const as = (cookie: string, extra: Record<string, string> = {}) => ({
  cookie,
  origin: `http://127.0.0.1:${port}`,
  ...extra,
});

/** Odd spellings of one path that the router must treat as that path. */
const spellings = (path: string) => [
  path,
  path.replace('/api/', '/%61pi/'),
  path.replace('/api/', '//api/'),
  path.replace('/api/', '/api/./'),
  path.toUpperCase().replace(/\/([0-9A-F-]{36})/, (m) => m.toLowerCase()),
  `${path}/`,
  path.replace(/\/([^/]+)$/, '/x/%252e%252e/$1'),
];

function expectPortuguese4xx(res: { status: number; json(): Record<string, unknown> }, path: string) {
  expect(res.status, path).toBeGreaterThanOrEqual(400);
  expect(res.status, path).toBeLessThan(500);
  expect(String(res.json().message), path).toMatch(/[a-zà-ú]/i);
}

describe('another account’s ids over real HTTP, in any spelling', () => {
  it('never reads, changes or deletes the owner’s campaign, saved message or upload', async () => {
    const targets: Array<[string, string, string?]> = [
      ['GET', `/api/campaigns/${owner.campaign}`],
      ['PUT', `/api/campaigns/${owner.campaign}`, JSON.stringify({ name: 'Roubada' })],
      ['POST', `/api/campaigns/${owner.campaign}/send`],
      ['POST', `/api/campaigns/${owner.campaign}/duplicate`],
      ['GET', `/api/campaigns/${owner.campaign}/recipients`],
      ['GET', `/api/campaigns/${owner.campaign}/recipients/export`],
      ['DELETE', `/api/campaigns/${owner.campaign}`],
      ['GET', `/api/messages/${owner.message}`],
      ['PUT', `/api/messages/${owner.message}`, JSON.stringify({ title: 'X', content: 'Y' })],
      ['DELETE', `/api/messages/${owner.message}`],
      ['GET', `/api/uploads/${owner.upload}`],
    ];
    for (const [method, path, body] of targets) {
      for (const spelled of spellings(path)) {
        const headers = as(intruder, body ? { 'content-type': 'application/json' } : {});
        const res = await rawRequest(port, method, spelled, headers, body);
        expect(res.status, `${method} ${spelled}`).toBe(404);
        expect(res.body, `${method} ${spelled}`).not.toContain('Segredo');
        expect(res.body, `${method} ${spelled}`).not.toContain('Privada');
      }
    }
    const db = ctx.database.db;
    expect(await db.select().from(campaigns).where(eq(campaigns.userId, owner.id))).toHaveLength(1);
    const [c] = await db.select().from(campaigns).where(eq(campaigns.id, owner.campaign));
    expect(c.name).toBe('Segredo');
    expect(c.status).toBe('draft');
    expect(await db.select().from(savedMessages).where(eq(savedMessages.id, owner.message))).toHaveLength(1);
  });
});

describe('malformed requests over real HTTP', () => {
  it('a NUL byte or garbage in an id is a 4xx in Portuguese, never a 500', async () => {
    for (const path of [
      `/api/campaigns/${owner.campaign}%00`,
      '/api/campaigns/%00/send',
      '/api/messages/%C0%80',
      '/api/uploads/..%2F..%2Fetc%2Fpasswd',
      `/api/campaigns/${owner.campaign}/recipients?status=%00&page=-1&limit=99999999`,
    ]) {
      const res = await rawRequest(port, 'GET', path, as(intruder));
      expectPortuguese4xx(res, path);
    }
  });

  it('a campaign body far over the limits is refused in Portuguese and nothing is stored', async () => {
    const huge = JSON.stringify({ name: 'Grande', message: 'x'.repeat(3 * 1024 * 1024) });
    const res = await rawRequest(
      port,
      'POST',
      '/api/campaigns',
      as(intruder, { 'content-type': 'application/json' }),
      huge,
    );
    expectPortuguese4xx(res, 'huge campaign');
    const nul = await rawRequest(
      port,
      'POST',
      '/api/campaigns/preview',
      as(intruder, { 'content-type': 'application/json' }),
      JSON.stringify({ message: 'Oi\u0000{{nome}}' }),
    );
    expectPortuguese4xx(nul, 'NUL in message');
  });

  it('an upload over 5 MB is refused in Portuguese while the server keeps answering', async () => {
    const boundary = '----ataque';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="grande.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.alloc(6 * 1024 * 1024, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await rawRequest(
      port,
      'POST',
      '/%61pi/uploads',
      as(intruder, { 'content-type': `multipart/form-data; boundary=${boundary}` }),
      body,
    );
    expect(res.status).toBe(413);
    expect(String(res.json().message)).toMatch(/Imagem muito grande/);
    const health = await rawRequest(port, 'GET', '/api/health');
    expect(health.status).toBe(200);
  });
});

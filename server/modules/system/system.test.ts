import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { DataDirLockedError, lockDataDir } from '../../db/data-dir-lock';
import { users } from '../../db/schema';
import { appPerFile } from '../../testing/app-per-file';
import { createTestApp, createUser, loginAs, TEST_PASSWORD } from '../../testing/test-app';
import { ensureAdmin, verifyPassword } from '../auth';

const ctx = appPerFile(() =>
  createTestApp({ PUBLIC_URL: 'https://app.disparo.example', SUPPORT_EMAIL: 'contato@empresa.com.br' }),
);

describe('system routes', () => {
  it('answers health once the database is ready', async () => {
    const res = await ctx.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('answers unknown /api paths with a JSON 404, signed in or not', async () => {
    for (const url of ['/api/nada', '/api/auth/nada', '/api']) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });

  it('documents every route in OpenAPI at /api/docs', async () => {
    const res = await ctx.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const r of ctx.app.deps.routes) {
      expect(paths, r.url).toContain(r.url.replace(/:(\w+)/g, '{$1}'));
    }
    expect((await ctx.app.inject('/api/docs')).statusCode).toBeLessThan(400);
  });

  it('gives the browser the public configuration with the support e-mail masked', async () => {
    const res = await ctx.app.inject('/api/public-config');
    expect(res.json()).toMatchObject({ productName: 'Disparo', supportEmailMasked: 'co****@empresa.com.br' });
    expect(res.body).not.toContain('contato@');
  });

  it('never answers a stack trace', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/at .*\.ts|Error:/);
  });
});

describe('readiness', () => {
  // Its own app: draining the registry takes this process out of the work for good.
  const own = appPerFile();

  it('is ready while the database answers, the migrations are applied and the process takes work', async () => {
    const res = await own.app.inject('/api/ready');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true, checks: { database: true, migrations: true, registry: true } });
  });

  it('is not ready when the database query fails, and is again once it answers', async () => {
    const execute = vi.spyOn(own.app.deps.db, 'execute').mockRejectedValue(new Error('connection refused'));
    const res = await own.app.inject('/api/ready');
    execute.mockRestore();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ready: false, checks: { database: false, registry: true } });
    expect((await own.app.inject('/api/ready')).statusCode).toBe(200);
  });

  it('is not ready once the process drains, while health still answers', async () => {
    await own.app.deps.cluster.processes.drain();
    const res = await own.app.inject('/api/ready');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false, checks: { database: true, migrations: true, registry: false } });
    expect((await own.app.inject('/api/health')).statusCode).toBe(200);
  });
});

describe('cross-site request guard', () => {
  const login = (headers: Record<string, string>) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'alguem', password: 'errada123' },
      headers,
    });

  it('refuses a state-changing request from another site', async () => {
    const cases: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of cases) {
      const res = await login(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().code).toBe('CROSS_SITE');
    }
  });

  it('lets same-origin and non-browser requests through', async () => {
    expect((await login({ origin: 'http://localhost:80', host: 'localhost:80' })).statusCode).toBe(401);
    expect((await login({ origin: 'https://app.disparo.example' })).statusCode).toBe(401);
    expect((await login({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(401);
    expect((await login({})).statusCode).toBe(401);
  });

  it('lets reads from anywhere through (they change nothing)', async () => {
    const res = await ctx.app.inject({ url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('configuration', () => {
  const root = mkdtempSync(join(tmpdir(), 'disparo-cfg-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = () => mkdtempSync(join(root, 'data-'));

  it('has safe defaults for a local run and keeps generated secrets in DATA_DIR', () => {
    const dir = dataDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a).toMatchObject({
      PORT: 5000,
      HOST: '0.0.0.0',
      PRODUCT_NAME: 'Disparo',
      GRAPH_API_VERSION: 'v26.0',
      WHATSAPP_DRIVER: 'baileys',
    });
    expect(a.SESSION_SECRET).toHaveLength(64);
    expect(a.ENCRYPTION_KEY).toHaveLength(32);
    expect(existsSync(join(dir, 'session-secret'))).toBe(true);
    const b = loadConfig({ DATA_DIR: dir });
    expect(b.SESSION_SECRET).toBe(a.SESSION_SECRET);
    expect(b.ENCRYPTION_KEY.equals(a.ENCRYPTION_KEY)).toBe(true);
  });

  it('lists every bad key at once', () => {
    try {
      loadConfig({
        DATA_DIR: dataDir(),
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        WHATSAPP_DRIVER: 'outro',
        ENCRYPTION_KEY: 'curta',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const keys = (err as ConfigError).problems.map((p) => p.split(':')[0]);
      expect(keys.sort()).toEqual(['DATABASE_URL', 'ENCRYPTION_KEY', 'PORT', 'WHATSAPP_DRIVER']);
    }
  });

  it('reads WORKERS as a positive integer or auto (one per CPU core), one by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).WORKERS).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, WORKERS: '3' }).WORKERS).toBe(3);
    expect(loadConfig({ DATA_DIR: dir, WORKERS: 'auto' }).WORKERS).toBe(availableParallelism());
    for (const WORKERS of ['0', '-2', '1.5', 'many']) {
      expect(() => loadConfig({ DATA_DIR: dir, WORKERS }), WORKERS).toThrow(
        /WORKERS: must be a positive integer or auto/,
      );
    }
  });

  it('refuses a short or default session secret in production', () => {
    for (const SESSION_SECRET of ['curto', 'change-me']) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', SESSION_SECRET })).toThrow(
        /SESSION_SECRET/,
      );
    }
    expect(
      loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) }).isProduction,
    ).toBe(true);
  });
});

describe('data directory lock', () => {
  it('refuses a second owner while the first runs, and takes over a stale lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'disparo-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'server.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    writeFileSync(join(dir, 'server.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, 'server.lock'))).toBe(true);
    release();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });
});

describe('administrator from the configuration', () => {
  const log = { info: () => {}, warn: () => {} };

  it('creates the admin at start and resets its password to the configured one', async () => {
    await ensureAdmin(ctx.database.db, { username: 'chefe', password: 'primeira-senha' }, log);
    await ensureAdmin(ctx.database.db, { username: 'chefe', password: 'segunda-senha' }, log);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, 'chefe'));
    expect(row).toMatchObject({ accountType: 'admin', planType: 'admin', isActive: true });
    expect(await verifyPassword(row.passwordHash, 'segunda-senha')).toBe(true);
    const cookie = await loginAs(ctx, row, 'segunda-senha');
    expect((await ctx.app.inject({ url: '/api/admin/users', headers: { cookie } })).statusCode).toBe(200);
  });

  it('generates a password when none is configured, answers it once and logs no line with it', async () => {
    const lines: string[] = [];
    const record = (...args: unknown[]) => lines.push(JSON.stringify(args));
    const password = (await ensureAdmin(
      ctx.database.db,
      { username: 'gerado' },
      { info: record, warn: record },
    )) as string;
    expect(password).toMatch(/^\S{12,}$/);
    expect(lines.join('\n')).toContain('generated password');
    expect(lines.join('\n')).not.toContain(password);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.username, 'gerado'));
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
    expect(await verifyPassword(row.passwordHash, TEST_PASSWORD)).toBe(false);
    // A restart finds it: nothing generated, nothing to print.
    expect(await ensureAdmin(ctx.database.db, { username: 'gerado' }, { info: record, warn: record })).toBeNull();
  });

  it('keeps a customer created before a restart', async () => {
    const u = await createUser(ctx);
    await ensureAdmin(ctx.database.db, { username: 'chefe' }, log);
    expect((await ctx.database.db.select().from(users).where(eq(users.id, u.id))).length).toBe(1);
  });
});

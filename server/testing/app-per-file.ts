import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/client';
import type { UserRow, users } from '../db/schema';
import { FakeGraphApi } from './fake-graph-api';
import { createSimulatorTestApp, createTestApp, newCustomer, type TestContext } from './test-app';
import { createTestDatabase } from './test-db';

/**
 * One app for a whole test file: built before its first test, closed after its last. The context is
 * filled in by then, so a file reads its fields inside tests and hooks, never at its top level.
 */
export function appPerFile<T extends TestContext = TestContext>(
  create: () => Promise<T> = () => createTestApp() as Promise<T>,
): T {
  const ctx = {} as T;
  beforeAll(async () => {
    Object.assign(ctx, await create());
  });
  afterAll(() => ctx.close?.());
  return ctx;
}

/** The same on the simulator driver with a fast clock (`createSimulatorTestApp`, which takes the arguments). */
export const simulatorAppPerFile = (...args: Parameters<typeof createSimulatorTestApp>) =>
  appPerFile(() => createSimulatorTestApp(...args));

/**
 * One signed-in account for a whole test file (`newCustomer` with `overrides`), made once the app
 * of `appPerFile` is up; read its fields inside tests and hooks.
 */
export function accountPerFile(
  ctx: TestContext,
  overrides: Partial<typeof users.$inferInsert> = {},
): { user: UserRow; cookie: string } {
  const account = {} as { user: UserRow; cookie: string };
  beforeAll(async () => {
    Object.assign(account, await newCustomer(ctx, overrides));
  });
  return account;
}

/**
 * One app for the file on a fake Graph API started with it (`graph`), its links on
 * https://app.example.com; `env` and `options` as `createTestApp` takes them. The app closes first.
 */
export function appWithGraphPerFile(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[2] = {},
): { ctx: TestContext; graph: FakeGraphApi } {
  const graph = new FakeGraphApi();
  const ctx = {} as TestContext;
  beforeAll(async () => {
    await graph.start();
    const all = { GRAPH_API_URL: graph.url, GRAPH_API_VERSION: 'v26.0', PUBLIC_URL: 'https://app.example.com', ...env };
    Object.assign(ctx, await createTestApp(all, undefined, options));
  });
  afterAll(async () => {
    await ctx.close?.();
    await graph.stop();
  });
  return { ctx, graph };
}

/** One migrated test database for a whole test file (no app): opened before its first test, closed after its last. */
export function databasePerFile(): Database {
  const database = {} as Database;
  beforeAll(async () => {
    Object.assign(database, await createTestDatabase());
  });
  afterAll(() => database.close?.());
  return database;
}

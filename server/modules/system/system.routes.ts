import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { healthResponse } from '../../../contract/health';
import { maskEmail, publicConfigResponse } from '../../../contract/public-config';
import { type Db, migrationsFolder } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { AppDeps } from '../../deps';
import { routeSpec } from '../../plugins/route-spec';

const readyResponse = z.object({
  ready: z.boolean(),
  checks: z.object({ database: z.boolean(), migrations: z.boolean(), registry: z.boolean() }),
});

/** How long the readiness probe waits for the database before calling it away. */
const READY_DB_TIMEOUT_MS = 2_000;

/** Settles like `promise`, or rejects after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether the database holds every migration this build ships (a newer build may have added more):
 * drizzle's table against the journal. Once true it stays true, so the probe asks only until then.
 */
function migrationsCheck(db: Db): () => Promise<boolean> {
  let applied = false;
  let expected: number | undefined;
  return async () => {
    if (applied) return true;
    expected ??= (
      JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
    ).entries.length;
    const [row] = rowsOf<{ n: number }>(
      await within(db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`), READY_DB_TIMEOUT_MS),
    );
    applied = Number(row?.n ?? 0) >= expected;
    return applied;
  };
}

export const systemRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, mail, db, cluster }) => {
  const spec = routeSpec('system', 'public');
  app.get('/health', spec('Liveness once the database is ready', { response: { 200: healthResponse } }), async () => ({
    ok: true as const,
  }));

  // For a load balancer: whether this process should be given requests now. Unlike health, a
  // draining process (SIGTERM) or one whose database does not answer says no.
  const migrationsApplied = migrationsCheck(db);
  app.get(
    '/ready',
    spec('Readiness: the database answers, migrations are applied, this process takes work', {
      response: { 200: readyResponse, 503: readyResponse },
    }),
    async (request, reply) => {
      const database = await within(db.execute(sql`select 1`), READY_DB_TIMEOUT_MS).then(
        () => true,
        (err: unknown) => {
          request.log.warn({ err }, 'readiness: the database did not answer');
          return false;
        },
      );
      const migrations = database && (await migrationsApplied().catch(() => false));
      const registry = cluster.processes.isJoined && !cluster.processes.isDraining;
      const ready = database && migrations && registry;
      return reply.code(ready ? 200 : 503).send({ ready, checks: { database, migrations, registry } });
    },
  );

  const publicConfig = {
    productName: config.PRODUCT_NAME,
    supportWhatsapp: config.SUPPORT_WHATSAPP,
    supportEmailMasked: maskEmail(config.SUPPORT_EMAIL),
    paymentUrls: {
      basic: config.PAYMENT_URL_BASIC,
      professional: config.PAYMENT_URL_PROFESSIONAL,
      enterprise: config.PAYMENT_URL_ENTERPRISE,
      premium: config.PAYMENT_URL_PREMIUM,
    },
    whatsappDriver: config.WHATSAPP_DRIVER,
    emailAvailable: mail.mailer.available,
  };
  app.get(
    '/public-config',
    spec('Product name, support contacts and payment links', { response: { 200: publicConfigResponse } }),
    async () => publicConfig,
  );
};

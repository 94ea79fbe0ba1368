import { buildApp } from './app';
import { runClusterPrimary } from './cluster-primary';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError, lockDataDir } from './db/data-dir-lock';
import { collectStartupGarbage } from './lib/startup-memory';
import { loggerOptions, type SerializedError, serializeError } from './logger';
import { adminPasswordNotice, ensureAdmin } from './modules/auth';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // WORKERS > 1 on PostgreSQL: this process only forks and watches the workers, which run this main.
  if (runClusterPrimary(config)) return;

  let unlock = () => {};
  if (!config.DATABASE_URL) {
    try {
      unlock = lockDataDir(config.DATA_DIR);
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    }
  }

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB,
  });
  await database.migrate();

  const app = await buildApp({
    config,
    db: database.db,
    logger: loggerOptions(config.LOG_LEVEL),
    // The embedded database has one process: what a previous run left mid-send is reconciled at once.
    dispatcher: { exclusive: database.kind === 'pglite' },
    // On PostgreSQL the other processes hear this one's changes (LISTEN/NOTIFY).
    databaseUrl: config.DATABASE_URL,
  });
  // Processes started together on PostgreSQL take turns: one creates the administrator, the others find it.
  const generatedAdminPassword = await database.exclusive(() =>
    ensureAdmin(
      database.db,
      {
        username: config.ADMIN_USERNAME,
        password: config.ADMIN_PASSWORD,
        requireTwoFactor: config.ADMIN_REQUIRE_TWO_FACTOR,
      },
      app.log,
    ),
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
    } finally {
      unlock();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Saved WhatsApp connections come back in the background; the app answers meanwhile.
  void app.deps.connections.restore().catch((err) => app.log.error({ err }, 'WhatsApp restore failed'));
  // What start-up allocated is garbage now: an idle server should not carry it (docs: Operations → Memory).
  setImmediate(collectStartupGarbage);
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  app.log.info(
    `${config.PRODUCT_NAME} is running on ${url} (${database.kind === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL'})`,
  );
  // Last, so it is what a person starting the server sees; plain text, not inside a JSON log line.
  if (generatedAdminPassword) {
    process.stderr.write(
      `${adminPasswordNotice({ username: config.ADMIN_USERNAME, password: generatedAdminPassword, url: config.PUBLIC_URL?.replace(/\/+$/, '') ?? url })}\n`,
    );
  }
}

main().catch((err) => {
  // A startup failure may be a failed query (the administrator's insert): its values stay out.
  for (let e: SerializedError | undefined = serializeError(err); e; e = e.cause as SerializedError | undefined) {
    console.error(e.stack || `${e.type}: ${e.message}`);
  }
  process.exit(1);
});

import { ProcessRegistry } from '../cluster/process-registry';
import { openPostgres } from '../db/client';
import { JobRunner } from '../jobs/runner';
import { effectJob } from './effect-job';

/**
 * A process that runs jobs and nothing else, for server/jobs/processes.test.ts:
 * `node --import tsx server/testing/job-worker.ts <DATABASE_URL> <name>`. It joins the process
 * registry and runs the test's effect jobs on short leases; it prints `ready` once it takes work and
 * `started <key>` when a run begins, and may be killed at any point.
 */
const [url, name] = process.argv.slice(2);
if (!url || !name) throw new Error('usage: job-worker.ts <DATABASE_URL> <name>');

const database = openPostgres(url, 3);
const registry = new ProcessRegistry(database.db, { id: name, beatMs: 200, deadAfterMs: 1_000 });
await registry.join();
const runner = new JobRunner({ db: database.db, processId: registry.id, pollMs: 100, leaseMs: 1_500 });
runner.register(effectJob(name, (key) => console.log(`started ${key}`)));
await runner.start();
console.log('ready');

process.on('SIGTERM', async () => {
  await runner.stop();
  await registry.leave();
  await database.close();
  process.exit(0);
});

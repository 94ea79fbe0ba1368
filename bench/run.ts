/**
 * Disparo benchmark suite: `npm run bench` (builds first), or `node --import tsx bench/run.ts [name…]`
 * against an existing dist/server/main.js. Runs every benchmark in sequence, prints a summary table
 * and exits with 1 when any target is missed or a benchmark fails to run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import * as campaigns from './campaigns.bench';
import * as chatbot from './chatbot.bench';
import * as chatbotWebhook from './chatbot-webhook.bench';
import * as cluster from './cluster.bench';
import * as contactsImport from './contacts-import.bench';
import * as contactsList from './contacts-list.bench';
import * as fileUploads from './file-uploads.bench';
import * as inboundMedia from './inbound-media.bench';
import * as landingBundle from './landing-bundle.bench';
import { agent } from './lib/http';
import { type BenchResult, summaryTable } from './lib/report';
import { repoRoot } from './lib/server';
import * as login from './login.bench';
import * as memory from './memory.bench';
import * as metrics from './metrics.bench';
import * as numberFigures from './number-figures.bench';
import * as numbers from './numbers.bench';
import * as restore from './restore.bench';
import * as sessionPoll from './session-poll.bench';
import * as team from './team.bench';
import * as usersPolling from './users-polling.bench';
import * as webhookStatuses from './webhook-statuses.bench';

const benchmarks: Array<{ name: string; run: () => Promise<BenchResult> }> = [
  sessionPoll,
  login,
  landingBundle,
  contactsImport,
  contactsList,
  campaigns,
  chatbot,
  chatbotWebhook,
  inboundMedia,
  fileUploads,
  metrics,
  restore,
  usersPolling,
  team,
  webhookStatuses,
  memory,
  cluster,
  numbers,
  numberFigures,
];

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !benchmarks.some((b) => b.name === w));
  if (unknown.length) {
    console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${benchmarks.map((b) => b.name).join(', ')}`);
    return 2;
  }
  const selected = wanted.length ? benchmarks.filter((b) => wanted.includes(b.name)) : benchmarks;
  console.log(
    `Disparo benchmarks on Node ${process.version}, ${cpus().length} CPU(s): ${selected.map((b) => b.name).join(', ')}`,
  );

  const startedAll = Date.now();
  const results: BenchResult[] = [];
  for (const bench of selected) {
    console.log(`\n== ${bench.name} ==`);
    const started = Date.now();
    try {
      results.push(await bench.run());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`  ${bench.name} failed to run: ${err instanceof Error ? (err.stack ?? message) : message}`);
      results.push({ name: bench.name, checks: [], info: {}, error: message });
    }
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  agent.destroy();

  const passed = results.every((r) => !r.error && r.checks.every((c) => c.pass));
  console.log(`\n== summary (${((Date.now() - startedAll) / 1000).toFixed(1)} s) ==\n${summaryTable(results)}`);
  console.log(passed ? '\nAll targets met.' : '\nSome targets were missed.');

  const outDir = join(repoRoot, 'bench', 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'results.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, passed, results }, null, 2)}\n`,
  );
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);

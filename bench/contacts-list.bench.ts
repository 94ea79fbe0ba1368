import { performance } from 'node:perf_hooks';
import { contactRows, toCsvText, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { request } from './lib/http';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { startDisparo, withServer } from './lib/server';
import { envInt, summarize } from './lib/stats';

/**
 * Benchmark: listing and searching one page of contacts in an account of 100,000 (imported through
 * the API). Requests go one at a time, as a person paging and typing would; p95 must stay under 50 ms.
 */
export const name = 'contacts-list';

const MAX_P95_MS = 50;
const SEARCHES = ['maria', 'Conceição', 'silva 12', '9987', '(21) 9', '+55 11', 'araujo', 'zzz'];

export async function run(): Promise<BenchResult> {
  const rows = envInt('BENCH_LIST_ROWS', 100_000, 1_000, 200_000);
  const requests = envInt('BENCH_LIST_REQUESTS', 400, 50, 5_000);
  return withServer(startDisparo, async (server) => {
    const cookie = await unlimitedCustomer(server, 201);
    const res = await uploadContacts(server.url, cookie, 'contatos.csv', Buffer.from(toCsvText(contactRows(rows))));
    if (res.body.imported !== rows) throw new Error(`expected ${rows} contacts, imported ${res.body.imported}`);
    console.log(`  account with ${rows} contacts`);

    const paths: string[] = [];
    const pages = Math.ceil(rows / 50);
    for (let i = 0; i < requests; i++) {
      if (i % 2 === 0) paths.push(`/api/contacts?page=${1 + ((i * 7919) % pages)}&limit=50`);
      else paths.push(`/api/contacts?q=${encodeURIComponent(SEARCHES[i % SEARCHES.length])}&page=1&limit=50`);
    }
    // The account's first search loads its search index (server/modules/contacts/search-index.ts).
    const coldStarted = performance.now();
    const cold = await request(server.url, 'GET', '/api/contacts?q=silva&page=1&limit=50', { cookie });
    const coldMs = performance.now() - coldStarted;
    if (cold.status !== 200) throw new Error(`first search answered ${cold.status}`);
    console.log(`  first search of the account (loads its search index): ${fmt(coldMs)} ms`);
    // Warm-up.
    for (const p of paths.slice(0, 20)) await request(server.url, 'GET', p, { cookie });

    const pageMs: number[] = [];
    const searchMs: number[] = [];
    let errors = 0;
    for (const [i, p] of paths.entries()) {
      const started = performance.now();
      const r = await request(server.url, 'GET', p, { cookie });
      const ms = performance.now() - started;
      if (r.status !== 200) errors++;
      (i % 2 === 0 ? pageMs : searchMs).push(ms);
    }
    const all = summarize([...pageMs, ...searchMs]);
    const pagesS = summarize(pageMs);
    const searchS = summarize(searchMs);
    console.log(`  pages: p50 ${fmt(pagesS.p50)} ms, p95 ${fmt(pagesS.p95)} ms, max ${fmt(pagesS.max)} ms`);
    console.log(`  searches: p50 ${fmt(searchS.p50)} ms, p95 ${fmt(searchS.p95)} ms, max ${fmt(searchS.max)} ms`);

    const checks = [
      ceiling('list/search page p95 (100k contacts)', all.p95, MAX_P95_MS, 'ms'),
      ceiling('failed requests', errors, 1, ''),
    ];
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        rows,
        requests,
        'first search ms': Number(coldMs.toFixed(1)),
        'page p95 ms': Number(pagesS.p95.toFixed(2)),
        'search p95 ms': Number(searchS.p95.toFixed(2)),
        'p95 ms': Number(all.p95.toFixed(2)),
      },
    };
  });
}

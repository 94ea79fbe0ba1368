import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { repoRoot, startDisparo, withServer } from './lib/server';
import { median } from './lib/stats';

/**
 * Benchmark 3: what a visitor's browser pays for the landing page '/'.
 * - JavaScript: the entry scripts of dist/web/index.html (and their modulepreloads), everything they
 *   import statically, plus the landing page's lazy chunk and its static imports; gzipped size
 *   (level 9, what a compressing proxy would send) must stay under 150 KB.
 * - LCP: the built server on a fresh database, '/' opened in Chromium (playwright-core with
 *   /usr/bin/chromium or CHROMIUM_PATH) in a fresh context each run; the largest contentful paint
 *   from a buffered PerformanceObserver, median of the runs, must stay under 1.5 s. Skipped (info
 *   only) when no Chromium is installed.
 */
export const name = 'landing-bundle';

const MAX_JS_KB = 150;
const MAX_LCP_MS = 1500;
const LCP_RUNS = 5;
const LANDING_CHUNK = /^landing-page-[\w-]+\.js$/;

const webRoot = join(repoRoot, 'dist', 'web');

// Static imports of a built chunk: `import"./x.js"`, `from"./x.js"` (dynamic `import("./x.js")` excluded).
// The minifier may quote with ", ' or `.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g;

function chunkPath(fromFile: string, spec: string): string {
  return join(fromFile, '..', spec);
}

function staticClosure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(STATIC_IMPORT)) queue.push(chunkPath(file, m[1]));
  }
  return seen;
}

/** The JS files the built '/' page loads for a visitor, with their raw and gzipped sizes. */
export function landingScripts(): { files: Array<{ file: string; raw: number; gzip: number }>; landingChunk: string } {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const entries = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => join(webRoot, m[1]));
  if (!entries.length) throw new Error('no script in dist/web/index.html: run `npm run build` first');
  const entryGraph = staticClosure(entries);
  let landingChunk = '';
  for (const file of entryGraph) {
    for (const m of readFileSync(file, 'utf8').matchAll(DYNAMIC_IMPORT)) {
      if (LANDING_CHUNK.test(m[1].split('/').pop() ?? '')) landingChunk = chunkPath(file, m[1]);
    }
  }
  if (!landingChunk) throw new Error('the landing page chunk (landing-page-*.js) is not imported by the entry');
  const all = new Set([...entryGraph, ...staticClosure([landingChunk])]);
  const files = [...all].map((file) => {
    const buf = readFileSync(file);
    return { file: file.slice(webRoot.length + 1), raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
  files.sort((a, b) => b.gzip - a.gzip);
  return { files, landingChunk: landingChunk.slice(webRoot.length + 1) };
}

async function measureLcp(url: string): Promise<{ lcps: number[]; requested: string[] } | null> {
  const executablePath = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const lcps: number[] = [];
  const requested = new Set<string>();
  try {
    for (let i = 0; i < LCP_RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
      const page = await context.newPage();
      page.on('request', (r) => {
        if (r.resourceType() === 'script') requested.add(new URL(r.url()).pathname.replace(/^\//, ''));
      });
      await page.goto(`${url}/`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = Math.max(last, e.startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            setTimeout(() => resolve(last), 500);
          }),
      );
      lcps.push(lcp);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { lcps, requested: [...requested] };
}

export async function run(): Promise<BenchResult> {
  const { files, landingChunk } = landingScripts();
  const totalGzipKb = files.reduce((s, f) => s + f.gzip, 0) / 1024;
  const totalRawKb = files.reduce((s, f) => s + f.raw, 0) / 1024;
  console.log(`  landing chunk ${landingChunk}; ${files.length} script(s):`);
  for (const f of files.slice(0, 8)) console.log(`    ${f.file}: ${fmt(f.gzip / 1024)} KB gzipped`);
  const checks = [ceiling('landing JS (gzip)', Number(totalGzipKb.toFixed(1)), MAX_JS_KB, 'KB')];
  const info: Record<string, number | string> = {
    scripts: files.length,
    rawKb: Number(totalRawKb.toFixed(1)),
  };

  const browser = await withServer(
    () => startDisparo(),
    (server) => measureLcp(server.url),
  );
  if (browser) {
    const lcp = median(browser.lcps);
    console.log(`  LCP runs (ms): ${browser.lcps.map((v) => fmt(v, 0)).join(', ')}`);
    checks.push(ceiling('landing LCP (median)', Math.round(lcp), MAX_LCP_MS, 'ms'));
    // The browser must not load a script the size figure left out.
    const measured = new Set(files.map((f) => f.file));
    const unexpected = browser.requested.filter((f) => !measured.has(f));
    info.scriptsRequested = browser.requested.length;
    if (unexpected.length) {
      console.log(`  scripts loaded by '/' but not counted: ${unexpected.join(', ')}`);
      checks.push(ceiling('uncounted scripts loaded by /', unexpected.length, 1, ''));
    }
  } else {
    console.log('  no Chromium found: LCP not measured');
    info.lcp = 'not measured (no Chromium)';
  }
  printChecks(checks);
  return { name, checks, info };
}

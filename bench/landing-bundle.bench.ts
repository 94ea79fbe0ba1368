import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { repoRoot, startDisparo, withServer } from './lib/server';
import { median } from './lib/stats';

/**
 * Benchmark 3: what a visitor's browser pays for the landing page '/'.
 * - JavaScript: the entry scripts of dist/web/index.html (and their modulepreloads) and everything they
 *   import statically, the landing page included (it is part of the entry); gzipped size (level 9,
 *   what a compressing proxy would send) must stay under 150 KB.
 * - LCP: the built server on a fresh database, '/' opened in Chromium (playwright-core with
 *   /usr/bin/chromium or CHROMIUM_PATH) in a fresh context each run; the largest contentful paint
 *   from a buffered PerformanceObserver, median of the runs, must stay under 500 ms, and the page must
 *   not ask for more than 12 resources. Each run alternates with a floor: the hero heading alone, in a
 *   static page with the same stylesheet and font (served by the bench process), whose LCP is what
 *   the browser needs at least; the ratio is printed. Skipped (info only) when no Chromium is installed.
 */
export const name = 'landing-bundle';

const MAX_JS_KB = 150;
const MAX_LCP_MS = 500;
const MAX_REQUESTS = 12;
const LCP_RUNS = 7;

const webRoot = join(repoRoot, 'dist', 'web');

// Static imports of a built chunk: `import"./x.js"`, `from"./x.js"` (dynamic `import("./x.js")` excluded).
// The minifier may quote with ", ' or `.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;

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
export function landingScripts(): Array<{ file: string; raw: number; gzip: number }> {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const entries = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => join(webRoot, m[1]));
  if (!entries.length) throw new Error('no script in dist/web/index.html: run `npm run build` first');
  const files = [...staticClosure(entries)].map((file) => {
    const buf = readFileSync(file);
    return { file: file.slice(webRoot.length + 1), raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
  });
  files.sort((a, b) => b.gzip - a.gzip);
  return files;
}

/**
 * The floor: the landing page's hero heading with the built stylesheet and the preloaded font, no script.
 * Served from the bench process on its own port, the same way for every run.
 */
async function startFloorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const css = /<link rel="stylesheet"[^>]+href="([^"]+\.css)"/.exec(html)?.[1];
  const font = /<link[^>]+rel="preload"[^>]+href="([^"]+\.woff2)"/.exec(html)?.[1];
  if (!css) throw new Error('no stylesheet in dist/web/index.html');
  const page = `<!doctype html><html lang="pt-BR"><head><meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" />
${font ? `<link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin />` : ''}
<link rel="stylesheet" href="${css}" /><title>floor</title></head><body>
<section class="bg-gradient-to-b from-brand-soft to-background"><div class="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:py-20">
<h1 class="text-4xl font-bold tracking-tight text-balance sm:text-5xl">Campanhas de WhatsApp, chatbot e contatos em um só painel</h1>
</div></section></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
      return;
    }
    const file = join(webRoot, 'assets', basename(path));
    if (!path.startsWith('/assets/') || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'font/woff2' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface LcpRuns {
  lcps: number[];
  floorLcps: number[];
  /** Resources '/' asked for in each run (the document excluded). */
  requests: number[];
  requestedScripts: string[];
}

async function measureLcp(url: string): Promise<LcpRuns | null> {
  const executablePath = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const floorServer = await startFloorServer();
  const runs: LcpRuns = { lcps: [], floorLcps: [], requests: [], requestedScripts: [] };
  const requestedScripts = new Set<string>();
  const openOnce = async (pageUrl: string, onRequest?: (type: string, path: string) => void): Promise<number> => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
    try {
      const page = await context.newPage();
      if (onRequest) page.on('request', (r) => onRequest(r.resourceType(), new URL(r.url()).pathname));
      await page.goto(`${pageUrl}/`, { waitUntil: 'load' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      return await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = Math.max(last, e.startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            setTimeout(() => resolve(last), 500);
          }),
      );
    } finally {
      await context.close();
    }
  };
  try {
    for (let i = 0; i < LCP_RUNS; i++) {
      runs.floorLcps.push(await openOnce(floorServer.url));
      let requests = 0;
      runs.lcps.push(
        await openOnce(url, (type, path) => {
          if (type === 'document') return;
          requests++;
          if (type === 'script') requestedScripts.add(path.replace(/^\//, ''));
        }),
      );
      runs.requests.push(requests);
    }
  } finally {
    await floorServer.close();
    await browser.close();
  }
  runs.requestedScripts = [...requestedScripts];
  return runs;
}

export async function run(): Promise<BenchResult> {
  const files = landingScripts();
  const totalGzipKb = files.reduce((s, f) => s + f.gzip, 0) / 1024;
  const totalRawKb = files.reduce((s, f) => s + f.raw, 0) / 1024;
  console.log(`  ${files.length} script(s):`);
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
    const floorLcp = median(browser.floorLcps);
    console.log(`  LCP runs (ms): ${browser.lcps.map((v) => fmt(v, 0)).join(', ')}`);
    console.log(`  floor LCP runs (ms): ${browser.floorLcps.map((v) => fmt(v, 0)).join(', ')}`);
    console.log(`  LCP ÷ floor (medians): ${fmt(lcp / floorLcp)}; requests per run: ${browser.requests.join(', ')}`);
    info.floorLcpMs = Math.round(floorLcp);
    info.lcpOverFloor = Number((lcp / floorLcp).toFixed(2));
    checks.push(ceiling('landing LCP (median)', Math.round(lcp), MAX_LCP_MS, 'ms'));
    checks.push(ceiling('requests by / (most of a run)', Math.max(...browser.requests), MAX_REQUESTS + 1, ''));
    // The browser must not load a script the size figure left out.
    const measured = new Set(files.map((f) => f.file));
    const unexpected = browser.requestedScripts.filter((f) => !measured.has(f));
    info.scriptsRequested = browser.requestedScripts.length;
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

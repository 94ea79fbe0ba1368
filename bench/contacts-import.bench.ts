import { performance } from 'node:perf_hooks';
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { contactRows, toCsvText, toXlsxBuffer, unlimitedCustomer, uploadContacts } from './lib/contacts';
import { copyFloorMs } from './lib/copy-floor';
import { type BenchResult, ceiling, fmt, printChecks } from './lib/report';
import { rssMb, startDisparo, withServer } from './lib/server';
import { envInt, median } from './lib/stats';

/**
 * Benchmark: importing 100,000 contacts through the API. The CSV import is measured against the
 * database's own floor, a raw `COPY` of the same rows into the same table (keys, indexes, foreign
 * key) on the same engine, side by side: at most 1.5× that floor. The XLSX import at most 20× its
 * parse alone; the server's resident memory may grow by at most 300 MB during an import.
 */
export const name = 'contacts-import';

const MAX_COPY_RATIO = 1.5;
const MAX_XLSX_RATIO = 20;
const MAX_RSS_GROWTH_MB = 300;

function time(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

/** Median of three runs of the parse, after one warm-up. */
function parseMs(fn: () => unknown): number {
  fn();
  return median([time(fn), time(fn), time(fn)]);
}

async function measureImport(url: string, cookie: string, pid: number, filename: string, data: Buffer) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 25);
  const started = performance.now();
  const res = await uploadContacts(url, cookie, filename, data);
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  if (res.status !== 200) throw new Error(`${filename}: HTTP ${res.status}`);
  return { ms, imported: res.body.imported, errors: res.body.errors.length, growth: peak - before, before, peak };
}

export async function run(): Promise<BenchResult> {
  const rows = envInt('BENCH_IMPORT_ROWS', 100_000, 1_000, 200_000);
  return withServer(startDisparo, async (server) => {
    const csvCookie = await unlimitedCustomer(server, 101);
    const xlsxCookie = await unlimitedCustomer(server, 102);
    const warmCookie = await unlimitedCustomer(server, 103);

    const csv = Buffer.from(toCsvText(contactRows(rows)));
    const xlsx = toXlsxBuffer(contactRows(rows, rows));
    console.log(`  files: CSV ${fmt(csv.length / 1e6)} MB, XLSX ${fmt(xlsx.length / 1e6)} MB, ${rows} rows each`);

    // Load the parsers and code paths once in the server, so the import measures the work, not the first use.
    await uploadContacts(server.url, warmCookie, 'warm.csv', Buffer.from(toCsvText(contactRows(200, 500_000))));
    await uploadContacts(server.url, warmCookie, 'warm.xlsx', toXlsxBuffer(contactRows(200, 600_000)));

    const csvParse = parseMs(() =>
      Papa.parse(new TextDecoder('utf-8', { fatal: true }).decode(csv), { delimitersToGuess: [';', ',', '\t', '|'] }),
    );
    const xlsxParse = parseMs(() => {
      const book = XLSX.read(xlsx, { type: 'buffer', dense: true });
      XLSX.utils.sheet_to_json(book.Sheets[book.SheetNames[0]], { header: 1, raw: true });
    });
    console.log(`  parse alone: CSV ${fmt(csvParse)} ms, XLSX ${fmt(xlsxParse)} ms (median of 3)`);

    const floor = await copyFloorMs(contactRows(rows));
    console.log(`  the database's own COPY of the same rows into contacts: ${fmt(floor)} ms`);

    const c = await measureImport(server.url, csvCookie, server.pid, 'contatos.csv', csv);
    console.log(
      `  CSV import: ${fmt(c.ms)} ms, ${c.imported} imported, ${c.errors} errors, RSS ${fmt(c.before)} → ${fmt(c.peak)} MB`,
    );
    const x = await measureImport(server.url, xlsxCookie, server.pid, 'contatos.xlsx', xlsx);
    console.log(
      `  XLSX import: ${fmt(x.ms)} ms, ${x.imported} imported, ${x.errors} errors, RSS ${fmt(x.before)} → ${fmt(x.peak)} MB`,
    );

    const checks = [
      ceiling(
        `CSV import ÷ COPY of the same rows (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded'})`,
        c.ms / floor,
        MAX_COPY_RATIO,
        '×',
      ),
      ceiling('XLSX import ÷ XLSX parse', x.ms / xlsxParse, MAX_XLSX_RATIO, '×'),
      ceiling('server RSS growth during CSV import', c.growth, MAX_RSS_GROWTH_MB, 'MB'),
      ceiling('server RSS growth during XLSX import', x.growth, MAX_RSS_GROWTH_MB, 'MB'),
      ceiling('rows not imported', rows * 2 - c.imported - x.imported, 1, ''),
    ];
    printChecks(checks);
    return {
      name,
      checks,
      info: {
        rows,
        'CSV parse ms': Number(csvParse.toFixed(1)),
        'CSV import ms': Number(c.ms.toFixed(1)),
        'COPY floor ms': Number(floor.toFixed(1)),
        'CSV import ÷ parse': Number((c.ms / csvParse).toFixed(1)),
        'XLSX parse ms': Number(xlsxParse.toFixed(1)),
        'XLSX import ms': Number(x.ms.toFixed(1)),
        'CSV RSS growth MB': Number(c.growth.toFixed(1)),
        'XLSX RSS growth MB': Number(x.growth.toFixed(1)),
      },
    };
  });
}

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lazyModule } from './lazy-module';

const run = promisify(execFile);

/** The heavy libraries that only some requests need: an idle server must not hold them. */
const HEAVY = ['pdfkit', '@e965/xlsx', 'openai', 'nodemailer', '@aws-sdk/client-s3', '@aws-sdk/lib-storage'];

describe('lazyModule', () => {
  it('loads the package on the first call, once', () => {
    const load = lazyModule<typeof import('papaparse')>('papaparse');
    const first = load();
    expect(typeof first.parse).toBe('function');
    expect(load()).toBe(first);
  });

  it('the app, built, has loaded none of the heavy libraries', async () => {
    // A fresh process: this test runner's own module cache says nothing about the server's.
    const script = `
      const { createRequire } = await import('node:module');
      await import('./server/app.ts');
      const require = createRequire(import.meta.url);
      const heavy = ${JSON.stringify(HEAVY)};
      const loaded = heavy.filter((name) => {
        const main = require.resolve(name);
        return Object.keys(require.cache).some((f) => f === main);
      });
      console.log(JSON.stringify(loaded));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null')).toEqual([]);
  }, 90_000);
});

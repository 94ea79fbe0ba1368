import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Routes only declare, parse and call a use case (server/README.md): what an action does — the
 * events it records, the WhatsApp connections it uses — lives in the module's use-case files.
 */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['writes the activity log', /\brecordActivity\s*\(/],
  ['records an event', /(?<![\w.])record\s*\(/],
  ['writes a notification', /(?<![\w.])notify(Admins)?\s*\(/],
  ['reads a driver', /\bdrivers\s*\.\s*get\s*\(|\.driver\b|\bgetDriver\b/],
  ['uses the connection manager', /\bmanager\s*\.|\bconnections\s*\.\s*(directory|cloud|connect|disconnect|get)\b/],
  ['uses the connection registry', /\bregistry\s*\.\s*\w+\s*\(/],
  ['uses the Cloud API connections', /\bcloudApi\s*\.\s*\w+\s*\(/],
];

const modules = join(import.meta.dirname);

function routeFiles(): string[] {
  return readdirSync(modules, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(modules, d.name))
        .filter((f) => f.endsWith('.routes.ts'))
        .map((f) => join(d.name, f)),
    );
}

/** The code of a file without its comments and import statements (a path may name a service). */
function codeOf(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/^import[\s\S]*?from\s+['"][^'"]+['"];?$/gm, '');
}

function violations(source: string): string[] {
  const code = codeOf(source);
  return FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([what]) => what);
}

describe('route files', () => {
  it('the scan finds what it looks for, and not in comments, imports or longer names', () => {
    expect(violations('await recordActivity(db, log, e);')).toEqual(['writes the activity log']);
    expect(violations('await record(deps.db, event, deps);')).toEqual(['records an event']);
    expect(violations('const d = await drivers.get(userId); await d.send(x);')).toEqual(['reads a driver']);
    expect(violations('deps.connections.directory.channelChosen(a, b)')).toEqual(['uses the connection manager']);
    expect(violations('registry.status(user)')).toEqual(['uses the connection registry']);
    expect(violations('cloudApi.receiveWebhook(k, raw)')).toEqual(['uses the Cloud API connections']);
    expect(
      violations("import { record } from '../../records/events';\n// record(db) here\nrecorder(x); x.record(y);"),
    ).toEqual([]);
  });

  it('speak HTTP only: no event written, no driver or connection manager used', () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(15);
    const found = files.flatMap((f) =>
      violations(readFileSync(join(modules, f), 'utf8')).map((what) => `${f}: ${what}`),
    );
    expect(found).toEqual([]);
  });
});

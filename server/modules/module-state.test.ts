import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * A top-level statement (column 0) that keeps state across requests: a `let`, or a `Map`/`Set`
 * (weak ones too) not typed read-only. A constant set is declared `ReadonlySet`/`ReadonlyMap` and
 * built from a literal.
 */
const STATEFUL = [
  /^(export )?(let|var) /,
  /^(export )?const \w+\b(?!\s*:\s*Readonly(Set|Map)<)[^=]*=\s*new (Weak)?(Map|Set)\b/,
];

function moduleState(source: string): string[] {
  return source.split('\n').filter((line) => STATEFUL.some((pattern) => pattern.test(line)));
}

describe('module-level state', () => {
  it('the scan finds a top-level let, Map or Set, and lets read-only constants and class fields be', () => {
    const found = moduleState(
      [
        'let count = 0;',
        'export let last: string | undefined;',
        'const cache = new Map<string, number>();',
        'export const seen: Set<string> = new Set();',
        'const owners = new WeakMap<object, string>();',
        "const KINDS: ReadonlySet<string> = new Set(['a', 'b']);",
        "const NAMES: ReadonlyMap<string, string> = new Map([['a', 'b']]);",
        '  private readonly cache = new Map<string, number>();',
        '  let inside = 0;',
        'const LIMIT = 5;',
      ].join('\n'),
    );
    expect(found).toEqual([
      'let count = 0;',
      'export let last: string | undefined;',
      'const cache = new Map<string, number>();',
      'export const seen: Set<string> = new Set();',
      'const owners = new WeakMap<object, string>();',
    ]);
  });

  it('no file of server/modules keeps state at its top level: caches live in each app (AppState)', () => {
    const files = sources(MODULES);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      moduleState(readFileSync(file, 'utf8')).map((line) => `${relative(MODULES, file)}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });
});

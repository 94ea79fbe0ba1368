import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A file of the WhatsApp layer does one job: past this many lines it is split by job. */
const MAX_LINES = 400;

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('server/whatsapp file sizes', () => {
  it('counts lines as wc -l does', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount(`${'x\n'.repeat(MAX_LINES + 1)}`)).toBeGreaterThan(MAX_LINES);
  });

  it(`keeps every non-test file at ${MAX_LINES} lines or fewer`, () => {
    const files = sources(__dirname);
    expect(files.map((f) => relative(__dirname, f))).toContain('manager.ts');
    const long = files
      .map((file) => ({ file: relative(__dirname, file), lines: lineCount(readFileSync(file, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});

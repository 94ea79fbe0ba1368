import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeServer } from '../scripts/launch-server.mjs';
import { signIn } from './testing/http-session';
import { startSourceServer, untilHealthy } from './testing/source-server';

/**
 * A first start without ADMIN_PASSWORD: the generated password is printed as a plain, framed block a
 * person reads, not only inside a JSON log line; no log line carries it; it signs the administrator in.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups.length = 0;
});

async function firstStart(env: Record<string, string> = {}): Promise<NodeServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disparo-admin-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startSourceServer('admin-password', {
    DATA_DIR: dataDir,
    ADMIN_USERNAME: 'chefe',
    LOG_LEVEL: 'info',
    ...env,
  });
  cleanups.push(() => server.stop());
  expect(await untilHealthy(server), server.output()).toBe(true);
  return server;
}

/** The block appears after the server answers: wait for its closing frame. */
async function printedBlock(server: NodeServer): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const block = /\n(\+-+\+)\n[\s\S]*?\n\1\n/.exec(server.output())?.[0];
    if (block) return block;
    if (Date.now() > deadline) throw new Error(`no framed block in:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('administrator password generated at the first start', () => {
  it('is printed in a framed block, signs in, and is in no log line', async () => {
    const server = await firstStart();
    const block = await printedBlock(server);
    const password = /\| {3}Password: {3}(\S+)/.exec(block)?.[1] as string;
    expect(password, block).toMatch(/^\S{12,}$/);
    expect(block).toContain('|   Username:   chefe');
    expect(block).toContain(`|   Sign in at: ${server.url}/login`);
    expect(block).toContain('ADMIN_PASSWORD');
    // Every line of the frame has the same width: a person reads a box.
    const rows = block.trim().split('\n');
    expect(new Set(rows.map((r) => r.length)).size).toBe(1);

    const logLines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.some((l) => l.includes('generated password'))).toBe(true);
    for (const line of logLines) expect(line).not.toContain(password);

    await signIn(server.url, { username: 'chefe', password });
  }, 120_000);

  it('prints nothing of the kind when ADMIN_PASSWORD is set', async () => {
    const server = await firstStart({ ADMIN_PASSWORD: 'senha-escolhida-1' });
    await signIn(server.url, { username: 'chefe', password: 'senha-escolhida-1' });
    expect(server.output()).not.toMatch(/\+-{10,}\+/);
    expect(server.output()).not.toContain('senha-escolhida-1');
  }, 120_000);
});

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { createPgliteDataDir, DEFAULT_PGLITE_SHARED_BUFFERS_MB, pgliteStartParams } from './pglite-data-dir';
import { rowsOf } from './rows';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'disparo-pgdata-'));
  dirs.push(dir);
  return dir;
}

describe('the embedded database on a data directory', () => {
  it('is created at the first start, migrated, and found again with its rows at the next', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir });
    try {
      expect(existsSync(join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(readdirSync(dir)).toEqual(['pgdata']);
      expect(await createPgliteDataDir(join(dir, 'pgdata'), pgliteStartParams())).toBe(false);
      await first.migrate();
      const shown = rowsOf<{ shared_buffers: string }>(await first.db.execute(sql`show shared_buffers`));
      expect(shown[0].shared_buffers).toBe(`${DEFAULT_PGLITE_SHARED_BUFFERS_MB}MB`);
      await first.db.execute(sql`create table kept (v text)`);
      await first.db.execute(sql`insert into kept values ('persistido')`);
    } finally {
      await first.close();
    }

    const later = await openDatabase({ dataDir: dir, sharedBuffersMb: 16 });
    try {
      await later.migrate();
      expect(rowsOf<{ v: string }>(await later.db.execute(sql`select v from kept`))).toEqual([{ v: 'persistido' }]);
      const shown = rowsOf<{ shared_buffers: string }>(await later.db.execute(sql`show shared_buffers`));
      expect(shown[0].shared_buffers).toBe('16MB');
    } finally {
      await later.close();
    }
  }, 600_000);

  it('reports a creation that fails and leaves nothing half-made behind', async () => {
    const broken = join(dataDir(), 'pgdata');
    await expect(
      createPgliteDataDir(broken, [...pgliteStartParams(), '-c', 'shared_buffers=nonsense']),
    ).rejects.toThrow(/Could not create the embedded database/);
    expect(existsSync(broken)).toBe(false);
    expect(existsSync(`${broken}.creating`)).toBe(false);
  }, 600_000);
});

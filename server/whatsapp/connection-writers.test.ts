import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One writer per table where state lives: the `connections` rows are inserted, updated and deleted
 * by whatsapp/connection-store.ts alone (migrations are SQL files, not scanned). Test support
 * (server/testing/) seeds rows directly and is not the server's code.
 */
const SERVER = join(__dirname, '..');
const STORE = 'whatsapp/connection-store.ts';

/** Drizzle's `db.insert(connections)`, `tx.update(schema.connections)`, `.delete( connections )`. */
const DRIZZLE = /\.(?:insert|update|delete)\(\s*(?:schema\.)?connections\s*\)/g;
/** SQL, in a sql`` template or a string: `insert into connections`, `UPDATE "connections"`, `delete from public.connections`. */
const RAW = /\b(?:insert\s+into|update|delete\s+from)\s+(?:only\s+)?(?:"?public"?\.)?"?connections"?(?![\w"])/gi;

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && relative(SERVER, path) !== 'testing') files.push(...sources(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** Where a text writes `connections`: one `line: statement` per write. */
function writesIn(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [DRIZZLE, RAW]) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${line}: ${match[0].replace(/\s+/g, ' ')}`);
    }
  }
  return found;
}

describe('the connections table has one writer', () => {
  it('recognises a write of connections, in drizzle and in SQL, and no other table', () => {
    expect(writesIn('await db.insert(connections).values(v)')).toHaveLength(1);
    expect(writesIn('await tx\n  .update(connections)\n  .set({})')).toHaveLength(1);
    expect(writesIn('db.delete( schema.connections )')).toHaveLength(1);
    expect(writesIn('sql`UPDATE connections SET paused = true`')).toHaveLength(1);
    expect(writesIn('\'insert into "connections" (id) values ($1)\'')).toHaveLength(1);
    expect(writesIn('sql`\n  delete from\n  connections where id = $1`')).toHaveLength(1);
    expect(writesIn('update public.connections set active = false')).toHaveLength(1);
    expect(
      writesIn(
        [
          'db.update(connectionLeases)',
          'db.insert(connectionsArchive)',
          'update connection_leases set state = $1',
          'delete from connections_backup',
          'insert into whatsapp_connections (user_id) values ($1)',
          'select id from connections',
          'update sending_lanes set next_send_at = now() from connections',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('is written by whatsapp/connection-store.ts alone', () => {
    const writers: Record<string, string[]> = {};
    for (const file of sources(SERVER)) {
      const found = writesIn(readFileSync(file, 'utf8'));
      if (found.length) writers[relative(SERVER, file)] = found;
    }
    expect(Object.keys(writers)).toContain(STORE);
    delete writers[STORE];
    expect(writers).toEqual({});
  });
});

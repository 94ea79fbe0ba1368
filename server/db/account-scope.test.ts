import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getTableColumns, is } from 'drizzle-orm';
import { PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { accountSql, acrossAccounts, ofAccount } from './account-scope';
import * as schema from './schema';

const root = join(__dirname, '..', '..');
const grit = readFileSync(join(__dirname, 'lint', 'account-scope.grit'), 'utf8');

/** Tables with user_id that are the machinery's own, never a use case's account data. */
const MACHINERY = new Set([
  'emailConfirmationTokens', // looked up by the token's hash, then its row names the account
  'passwordResetTokens',
  'sessions', // the session store's, read by the access gate
  'twoFactorSecrets', // a login's own (its user_id is the login, a member's or an owner's)
  'loginChallenges', // looked up by the token's hash, like a session
  'jobs', // the job runner's; a job's account is a payload column
  'whatsappAuthKeys', // a driver's credentials, keyed by connection
  'whatsappConnectionLeases',
  'sendingLanes',
]);

describe('account scope', () => {
  it('the lint names every table with user_id that is not the machinery’s own', () => {
    const withUser = Object.entries(schema)
      .filter(([, t]) => is(t, PgTable) && 'userId' in getTableColumns(t as PgTable))
      .map(([name]) => name);
    const listed = [...(grit.split('$t <: or {')[1] ?? '').split('}')[0].matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(10);
    expect(new Set(listed)).toEqual(new Set(withUser.filter((name) => !MACHINERY.has(name))));
  });

  it('ofAccount and accountSql filter user_id; a column that is not user_id is refused', () => {
    const dialect = new PgDialect();
    const where = dialect.sqlToQuery(ofAccount(schema.contacts, { userId: 'a1' }, undefined));
    expect(where.sql).toBe('"contacts"."user_id" = $1');
    expect(where.params).toEqual(['a1']);
    const two = dialect.sqlToQuery(ofAccount(schema.contacts, 'a1', ofAccount(schema.groups, 'a1')));
    expect(two.params).toEqual(['a1', 'a1']);
    const raw = dialect.sqlToQuery(accountSql('a1', 'c.user_id'));
    expect([raw.sql, raw.params]).toEqual(['c.user_id = $1', ['a1']]);
    expect(() => accountSql('a1', 'c.user_id; drop table users')).toThrow();
    expect(() => accountSql('a1', 'id')).toThrow();
    expect(acrossAccounts(schema.contacts)).toBe(schema.contacts);
  });

  it('lint fails a hand-written filter, raw user_id SQL and a query that names no account', async () => {
    const file = join(root, 'server', 'modules', `scope-fixture-${process.pid}-${Date.now()}.ts`);
    writeFileSync(
      file,
      [
        "import { and, eq, sql } from 'drizzle-orm';",
        "import { acrossAccounts, ofAccount } from '../db/account-scope';",
        "import { contacts, groups } from '../db/schema';",
        'export async function f(db: any, id: string) {',
        '  await db.select().from(contacts).where(ofAccount(contacts, id, eq(contacts.id, id)));',
        '  await db.select().from(acrossAccounts(contacts)).where(eq(contacts.id, id));',
        '  await db.select().from(contacts).where(and(eq(contacts.userId, id), eq(contacts.id, id)));',
        `  await db.execute(sql\`select 1 from contacts where user_id = \${id}\`);`,
        '  await db.delete(groups).where(eq(groups.id, id));',
        '}',
        '',
      ].join('\n'),
    );
    try {
      const out = await promisify(execFile)(join(root, 'node_modules', '.bin', 'biome'), ['lint', file], {
        cwd: root,
      }).then(
        () => '',
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
      const flagged = [...out.matchAll(/scope-fixture-[\d-]+\.ts:(\d+):\d+ plugin/g)].map((m) => Number(m[1]));
      expect([...new Set(flagged)].sort((a, b) => a - b)).toEqual([7, 8, 9]);
    } finally {
      rmSync(file, { force: true });
    }
  }, 30_000);
});

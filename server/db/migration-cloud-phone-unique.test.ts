import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationFiles, migrationStatements } from '../testing/migration-files';

/**
 * 0021: one Cloud phone number id per connection. Two accounts that saved the same id at the same
 * moment (before the unique index) keep it on the oldest registration; the migration then holds.
 */
const files = migrationFiles;
const statements = migrationStatements;

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  for (const file of files.filter((f) => f < '0021')) for (const s of statements(file)) await db.exec(s);
});
afterAll(() => db?.close());

describe('0021: a Cloud phone number id is unique', () => {
  it('keeps the oldest of duplicated registrations, then refuses a second one', async () => {
    const users = ['a', 'b', 'c'];
    const connections: string[] = [];
    for (const [i, name] of users.entries()) {
      const {
        rows: [u],
      } = await db.query<{ id: string }>(
        `insert into users (username, email, name, password_hash, account_type, plan_type) values ($1, $2, $1, 'x', 'active', 'basic') returning id`,
        [name, `${name}@example.com`],
      );
      const {
        rows: [c],
      } = await db.query<{ id: string }>(
        `insert into connections (user_id, kind, label, is_default) values ($1, 'cloud', 'Oficial', true) returning id`,
        [u.id],
      );
      connections.push(c.id);
      await db.query(
        `insert into whatsapp_business_accounts (connection_id, user_id, phone_number_id, access_token, webhook_key, verify_token, created_at)
         values ($1, $2, $3, 'tok', $4, 'vt', now() - make_interval(mins => $5))`,
        [c.id, u.id, i < 2 ? '109000000000001' : '109000000000002', `${i}`.repeat(32), 10 - i],
      );
    }
    for (const s of statements(files.find((f) => f.startsWith('0021')) as string)) await db.exec(s);
    const { rows } = await db.query<{ connection_id: string }>(
      'select connection_id from whatsapp_business_accounts order by phone_number_id',
    );
    expect(rows.map((r) => r.connection_id)).toEqual([connections[0], connections[2]]);
    await expect(
      db.query(
        `insert into whatsapp_business_accounts (connection_id, user_id, phone_number_id, access_token, webhook_key, verify_token)
         select id, user_id, '109000000000002', 'tok', 'f', 'vt' from connections where id = $1`,
        [connections[1]],
      ),
    ).rejects.toThrow(/unique/);
  });
});

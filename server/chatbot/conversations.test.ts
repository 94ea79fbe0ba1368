import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactLimitFor } from '../../contract/plans';
import { rowsOf } from '../db/rows';
import { databasePerFile } from '../testing/app-per-file';
import { ensureContact } from './conversations';

const database = databasePerFile();

let seq = 0;
/** An account on `plan` holding `contacts` contacts. */
async function account(plan: string, contacts: number): Promise<string> {
  const n = `${process.pid}x${Date.now().toString(36)}x${seq++}`;
  const [user] = rowsOf<{ id: string }>(
    await database.db.execute(sql`
      insert into users (name, email, username, whatsapp_number, password_hash, account_type, plan_type, is_active)
      values ('Loja', ${`limit${n}@example.com`}, ${`limit${n}`}, '+55 11 90000-0000', 'x', 'active', ${plan}, true)
      returning id`),
  );
  await database.db.execute(sql`
    insert into contacts (user_id, name, phone, tags)
    select ${user.id}, 'Contato ' || i, '+55119' || lpad(i::text, 8, '0'), '{}' from generate_series(1, ${contacts}) i`);
  return user.id;
}

const count = async (userId: string) =>
  rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from contacts where user_id = ${userId}`),
  )[0].n;

describe('a number writing for the first time becomes a contact within the plan', () => {
  it('is refused once the plan is full, and added while it is not', async () => {
    const limit = contactLimitFor('demo') as number;
    const full = await account('demo', limit);
    expect(await ensureContact(database.db, full, '5521987650001', 'Nova')).toBeNull();
    expect(await count(full)).toBe(limit);

    const room = await account('demo', limit - 1);
    expect(await ensureContact(database.db, room, '5521987650001', 'Nova')).toMatchObject({ name: 'Nova' });
    expect(await count(room)).toBe(limit);
    // Full now: the next new number is refused, a known one is still found.
    expect(await ensureContact(database.db, room, '5521987650002', 'Outra')).toBeNull();
    expect(await ensureContact(database.db, room, '5521987650001', undefined)).toMatchObject({ name: 'Nova' });
  });

  it('is always added on an unlimited plan', async () => {
    expect(contactLimitFor('enterprise')).toBeNull();
    const unlimited = await account('enterprise', 200);
    expect(await ensureContact(database.db, unlimited, '5521987650003', 'Cliente')).toMatchObject({ name: 'Cliente' });
    expect(await count(unlimited)).toBe(201);
  });
});

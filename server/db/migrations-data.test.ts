import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../testing/app-per-file';
import { createUser } from '../testing/test-app';
import { contacts } from './schema';

/** The data migrations, run again on rows written the old way (each is safe to repeat). */
const migration = (file: string) => readFileSync(new URL(`./migrations/${file}`, import.meta.url), 'utf8');

const ctx = appPerFile();

describe('0012: contacts named by their own phone number', () => {
  it('become nameless; a real name, even a numeric one, stays', async () => {
    const user = await createUser(ctx);
    await ctx.database.db.insert(contacts).values([
      { userId: user.id, name: '+5511987650098', phone: '+5511987650098' },
      { userId: user.id, name: 'Ana Souza', phone: '+5511987650099' },
      { userId: user.id, name: '+5511900000000', phone: '+5511987650100' },
    ]);
    await ctx.database.db.execute(sql.raw(migration('0012_unnamed_contacts.sql')));
    const rows = await ctx.database.db
      .select({ name: contacts.name, phone: contacts.phone })
      .from(contacts)
      .where(sql`${contacts.userId} = ${user.id}`)
      .orderBy(contacts.phone);
    expect(rows).toEqual([
      { name: '', phone: '+5511987650098' },
      { name: 'Ana Souza', phone: '+5511987650099' },
      { name: '+5511900000000', phone: '+5511987650100' },
    ]);
  });
});

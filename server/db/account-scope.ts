import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The one way a query on account data names its account (docs/decisions/034-account-scope.md).
 *
 * Every table of `ACCOUNT_TABLES` carries `user_id`; a query on one either filters it here
 * (`ofAccount`, or `accountSql` inside raw SQL) or says it spans accounts on purpose
 * (`acrossAccounts`). `npm run lint` (server/db/lint/account-scope.grit) fails on a hand-written
 * `eq(table.userId, …)`, on `user_id =` typed into raw SQL, and on a select, update or delete of
 * an account table whose `where` names no account.
 */

/** The account a query is scoped to: its id, or what carries it (the request's `AccountContext`). */
export type AccountRef = string | { readonly userId: string };

export function accountIdOf(account: AccountRef): string {
  return typeof account === 'string' ? account : account.userId;
}

/** `table.user_id = account`, and the other conditions: the `where` of a query on account data. */
export function ofAccount(
  table: { userId: AnyPgColumn },
  account: AccountRef,
  ...conditions: (SQL | undefined)[]
): SQL {
  const mine = eq(table.userId, accountIdOf(account));
  return conditions.length === 0 ? mine : (and(mine, ...conditions) as SQL);
}

const COLUMN = /^(?:[a-z_][a-z0-9_]*\.)?user_id$/;

/** `user_id = $account` for raw SQL; `column` names an alias's (`'c.user_id'`). */
export function accountSql(account: AccountRef, column = 'user_id'): SQL {
  if (!COLUMN.test(column)) throw new Error(`accountSql: ${column} is not a user_id column`);
  return sql`${sql.raw(column)} = ${accountIdOf(account)}`;
}

/**
 * A query that spans accounts by design (an administrator's list, an engine's sweep over every
 * account's due work, a lookup by a globally unique key whose row then names its account). It
 * returns the table unchanged; it is how such a query says so, where lint would otherwise fail it.
 */
export function acrossAccounts<T>(table: T): T {
  return table;
}

import type { AppState } from '../../lib/app-state';
import type { Table } from '../../lib/download';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import { contactsTable } from './contacts-export';

/** The contacts as a table — all, or those the list's filters show; the export is logged. */
export async function exportContacts(
  deps: Recording & { state: AppState },
  ctx: AccountContext,
  input: { file: string; q?: string; tag?: string },
): Promise<Table> {
  const table = await contactsTable(deps.db, deps.state, ctx.userId, { q: input.q, tag: input.tag });
  await record(deps.db, { kind: 'contacts_exported', by: ctx, ...input, count: table.length - 1 }, deps);
  return table;
}

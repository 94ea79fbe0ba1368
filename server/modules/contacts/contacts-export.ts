import { asc } from 'drizzle-orm';
import { IMPORT_TEMPLATE_COLUMNS } from '../../../contract/contacts';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { contacts } from '../../db/schema';
import type { AppState } from '../../lib/app-state';
import type { Table } from '../../lib/download';
import { type ContactFilter, contactFilterCondition } from './contacts.service';

export const EXPORT_COLUMNS = [...IMPORT_TEMPLATE_COLUMNS, 'Ativo', 'Descadastrado', 'WhatsApp'];

/**
 * The account's contacts the list shows under `filter` (its search and tag, read by the list's own
 * `contactFilterCondition`; none: every contact), in the list's order, as export rows (header first).
 */
export async function contactsTable(
  db: Db,
  state: AppState,
  userId: string,
  filter: ContactFilter = {},
): Promise<Table> {
  const condition = await contactFilterCondition(db, state, userId, filter);
  if (condition.none) return [EXPORT_COLUMNS];
  const rows = await db
    .select({
      name: contacts.name,
      phone: contacts.phone,
      email: contacts.email,
      tags: contacts.tags,
      isActive: contacts.isActive,
      optedOut: contacts.optedOut,
      wa: contacts.isWhatsappActive,
    })
    .from(contacts)
    .where(ofAccount(contacts, userId, condition.filter))
    .orderBy(asc(contacts.searchText), asc(contacts.id));
  const yesNo = (b: boolean | null) => (b === null ? '' : b ? 'Sim' : 'Não');
  return [
    EXPORT_COLUMNS,
    ...rows.map((r) => [
      r.name,
      r.phone,
      r.email ?? '',
      r.tags.join(', '),
      yesNo(r.isActive),
      yesNo(r.optedOut),
      r.wa === null ? 'Não verificado' : yesNo(r.wa),
    ]),
  ];
}

export const TEMPLATE_TABLE: Table = [
  [...IMPORT_TEMPLATE_COLUMNS],
  ['Maria Silva', '(21) 99876-5432', 'maria@exemplo.com.br', 'cliente, vip'],
  ['João Souza', '11 91234-5678', '', 'lead'],
];

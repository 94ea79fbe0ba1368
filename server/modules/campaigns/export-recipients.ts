import type { RecipientStatus } from '../../../contract/campaigns';
import { datedName, type Table, type TableFormat } from '../../lib/download';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import { recipientsTable } from './campaigns.service';

/** A campaign's per-recipient report as a table and the file it is sent as; the export is logged. */
export async function exportRecipients(
  deps: Recording,
  ctx: AccountContext,
  input: { campaignId: string; format: TableFormat; status?: RecipientStatus },
): Promise<{ table: Table; filename: string }> {
  const { name, table } = await recipientsTable(deps.db, ctx.userId, input.campaignId, input.status);
  const filename = datedName(`relatorio-${name}`, input.format);
  await record(deps.db, { kind: 'report_exported', by: ctx, file: filename }, deps);
  return { table, filename };
}

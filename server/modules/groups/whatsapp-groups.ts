import { groupsMsg } from '../../../contract/contacts';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Table } from '../../lib/download';
import type { AccountContext } from '../../plugins/account-context';
import { getGroup, groupMembersTable, syncGroups } from './groups.service';

type GroupDeps = Pick<AppDeps, 'db' | 'drivers'>;

async function connectedDriver(deps: GroupDeps, ctx: AccountContext, message: string) {
  const driver = await deps.drivers.get(ctx.userId);
  if (!driver?.status().isConnected) throw new AppError('CONFLICT', message);
  return driver;
}

/** Imports the groups of the account's connected WhatsApp number. */
export async function importWhatsappGroups(
  deps: GroupDeps,
  ctx: AccountContext,
): Promise<{ created: number; updated: number }> {
  const driver = await connectedDriver(deps, ctx, groupsMsg.connectToSync);
  return syncGroups(deps.db, ctx.userId, driver);
}

/** The real participants of one of the account's WhatsApp groups, as a table, and the group's name. */
export async function exportGroupMembers(
  deps: GroupDeps,
  ctx: AccountContext,
  groupId: string,
): Promise<{ name: string; table: Table }> {
  const group = await getGroup(deps.db, ctx.userId, groupId);
  const driver = await connectedDriver(deps, ctx, groupsMsg.connectToExport);
  return { name: group.name, table: await groupMembersTable(driver, group) };
}

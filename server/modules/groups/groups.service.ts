import { asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type BackupFile, type RestoreCounts, zeroCounts } from '../../../contract/backup';
import { type Group, type groupInput, groupsMsg } from '../../../contract/contacts';
import { ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { groups } from '../../db/schema';
import { AppError } from '../../errors';
import type { Driver, GroupParticipant } from '../../whatsapp/driver';

type GroupRow = typeof groups.$inferSelect;
export type GroupFields = z.output<typeof groupInput>;

export function toGroup(r: GroupRow): Group {
  return {
    id: r.id,
    name: r.name,
    whatsappGroupId: r.whatsappGroupId,
    membersCount: r.membersCount,
    isActive: r.isActive,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listGroups(db: Db, userId: string): Promise<Group[]> {
  const rows = await db
    .select()
    .from(groups)
    .where(ofAccount(groups, userId))
    .orderBy(asc(sql`lower(${groups.name})`), asc(groups.id));
  return rows.map(toGroup);
}

function rethrowDuplicate(err: unknown): never {
  if (isUniqueViolation(err))
    throw new AppError('CONFLICT', groupsMsg.duplicateName, { name: groupsMsg.duplicateName });
  throw err;
}

export async function createGroup(db: Db, userId: string, input: GroupFields): Promise<Group> {
  try {
    const [row] = await db
      .insert(groups)
      .values({ ...input, userId })
      .returning();
    return toGroup(row);
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export async function updateGroup(db: Db, userId: string, id: string, input: GroupFields): Promise<Group> {
  try {
    const [row] = await db
      .update(groups)
      .set(input)
      .where(ofAccount(groups, userId, eq(groups.id, id)))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', groupsMsg.notFound);
    return toGroup(row);
  } catch (err) {
    rethrowDuplicate(err);
  }
}

export async function deleteGroup(db: Db, userId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(groups)
    .where(ofAccount(groups, userId, eq(groups.id, id)))
    .returning({ id: groups.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', groupsMsg.notFound);
}

/**
 * Brings in the groups of the connected number: a group already linked by its WhatsApp id gets the
 * current member count (its name in the app is kept); a new one is created, its name made unique.
 */
export async function syncGroups(
  db: Db,
  userId: string,
  driver: Driver,
): Promise<{ created: number; updated: number }> {
  const remote = await driver.listGroups();
  return db.transaction(async (tx) => {
    const existing = await tx.select().from(groups).where(ofAccount(groups, userId));
    const byWaId = new Map(existing.filter((g) => g.whatsappGroupId).map((g) => [g.whatsappGroupId, g]));
    const names = new Set(existing.map((g) => g.name.toLowerCase()));
    let created = 0;
    let updated = 0;
    for (const g of remote) {
      const count = Math.max(0, Math.trunc(g.membersCount) || 0);
      const known = byWaId.get(g.id);
      if (known) {
        if (known.membersCount !== count) {
          await tx
            .update(groups)
            .set({ membersCount: count })
            .where(ofAccount(groups, userId, eq(groups.id, known.id)));
          updated++;
        }
        continue;
      }
      const base = (g.name.trim() || 'Grupo sem nome').slice(0, 110);
      let name = base;
      for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base} (${n})`;
      names.add(name.toLowerCase());
      await tx.insert(groups).values({ userId, name, whatsappGroupId: g.id, membersCount: count });
      created++;
    }
    return { created, updated };
  });
}

export async function getGroup(db: Db, userId: string, id: string): Promise<Group> {
  const [row] = await db
    .select()
    .from(groups)
    .where(ofAccount(groups, userId, eq(groups.id, id)));
  if (!row) throw new AppError('NOT_FOUND', groupsMsg.notFound);
  return toGroup(row);
}

/** The real participants of a linked group, as CSV rows (header first). */
export async function groupMembersTable(driver: Driver, group: Group): Promise<string[][]> {
  if (!group.whatsappGroupId) throw new AppError('CONFLICT', groupsMsg.noWhatsappId);
  const members: GroupParticipant[] = await driver.groupParticipants(group.whatsappGroupId);
  return [
    ['Nome', 'Telefone', 'Administrador', 'Grupo'],
    ...members.map((m) => [
      m.name ?? '',
      m.phone ? `+${m.phone.replace(/^\+/, '')}` : m.id,
      m.isAdmin ? 'Sim' : 'Não',
      group.name,
    ]),
  ];
}

// Restore (modules/backup)

/** Rows written per statement on restore (modules/backup). */
const RESTORE_BATCH = 500;

/** Groups by name (case ignored, as the app keeps them unique): a known one only gets a missing WhatsApp link. */
export async function restoreGroups(t: Db, userId: string, list: BackupFile['groups']): Promise<RestoreCounts> {
  const counts = zeroCounts();
  const existing = new Map(
    (await t.select().from(groups).where(ofAccount(groups, userId))).map((g) => [g.name.toLowerCase(), g]),
  );
  const fresh: Array<typeof groups.$inferInsert> = [];
  for (const g of list) {
    const own = existing.get(g.name.toLowerCase());
    if (!own) {
      fresh.push({
        userId,
        name: g.name,
        whatsappGroupId: g.whatsappGroupId,
        membersCount: g.membersCount,
        isActive: g.isActive,
        ...(g.createdAt && { createdAt: new Date(g.createdAt) }),
      });
    } else if (!own.whatsappGroupId && g.whatsappGroupId) {
      await t
        .update(groups)
        .set({ whatsappGroupId: g.whatsappGroupId })
        .where(ofAccount(groups, userId, eq(groups.id, own.id)));
      counts.updated++;
    } else {
      counts.unchanged++;
    }
  }
  for (let i = 0; i < fresh.length; i += RESTORE_BATCH) {
    // A group of that name created meanwhile (the groups screen takes no account lock) is the account's own.
    const batch = fresh.slice(i, i + RESTORE_BATCH);
    const added = await t.insert(groups).values(batch).onConflictDoNothing().returning({ id: groups.id });
    counts.added += added.length;
    counts.unchanged += batch.length - added.length;
  }
  return counts;
}

import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { AdminUpdateUserInput } from '../../../contract/admin';
import { roleOf } from '../../../contract/auth';
import { msg } from '../../../contract/messages';
import { sellablePlanTypes } from '../../../contract/plans';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { planActivations, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { SessionStore } from '../../sessions/session-store';
import { releaseAccountsFiles } from '../uploads';

/**
 * Every admin service takes the acting account and refuses anyone but an administrator,
 * whatever the route in front of it checked: a gate that is bypassed must not be enough.
 */
export function assertAdmin(actor: Pick<UserRow, 'accountType' | 'isActive'> | null | undefined): void {
  if (!actor || roleOf(actor) !== 'admin') throw new AppError('FORBIDDEN', msg.roles.adminOnly);
}

export function listUsers(db: Db, actor: UserRow): Promise<UserRow[]> {
  assertAdmin(actor);
  // Accounts, not the logins of their teams' members (each account manages its own team).
  return db.select().from(users).where(isNull(users.accountId)).orderBy(desc(users.createdAt));
}

async function findUser(db: Db, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.accountId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', msg.admin.userNotFound);
  return row;
}

const isPaidPlan = (plan: string) => (sellablePlanTypes as readonly string[]).includes(plan);

/**
 * Applies an admin's change. Approving a pending account (isActive true) makes it active; every
 * activation or change to a paid plan is recorded as a plan activation. Admin accounts are never
 * changed here. Answers the account as changed and whether this was its approval.
 */
export async function updateUser(
  db: Db,
  sessions: SessionStore,
  actor: UserRow,
  id: string,
  input: AdminUpdateUserInput,
): Promise<{ user: UserRow; approved: boolean }> {
  assertAdmin(actor);
  const { row: updated, approved } = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const current = await findUser(t, id);
    if (current.accountType === 'admin') throw new AppError('FORBIDDEN', msg.admin.adminProtected);

    const patch: Partial<typeof users.$inferInsert> = {};
    if (input.planType !== undefined) {
      if (input.planType === 'admin') throw new AppError('FORBIDDEN', msg.admin.adminProtected);
      patch.planType = input.planType;
    }
    if (input.accountType !== undefined) patch.accountType = input.accountType;
    if (input.isActive !== undefined) {
      patch.isActive = input.isActive;
      if (input.isActive && (patch.accountType ?? current.accountType) === 'pending') patch.accountType = 'active';
      if (!input.isActive && input.accountType === undefined && current.accountType === 'pending') {
        patch.accountType = 'pending';
      }
    }
    if (patch.accountType === 'active' || patch.accountType === 'regular') {
      // A customer account always has a paid plan; a demo that is converted gets the basic one.
      const plan = patch.planType ?? current.planType;
      if (!isPaidPlan(plan)) patch.planType = 'basic';
    }
    const [row] = await t.update(users).set(patch).where(eq(users.id, id)).returning();

    const becameActive = row.isActive && !(current.isActive && current.accountType !== 'pending');
    const planChanged = row.planType !== current.planType;
    if (row.isActive && row.accountType !== 'demo' && isPaidPlan(row.planType) && (becameActive || planChanged)) {
      await t.insert(planActivations).values({ userId: row.id, planType: row.planType });
    }
    return { row, approved: current.accountType === 'pending' && row.isActive && row.accountType !== 'pending' };
  });
  // The account's role may have changed: its sessions must read it again at once.
  sessions.forgetUser(id);
  if (!updated.isActive) await sessions.revokeUser(id);
  return { user: updated, approved };
}

export async function deleteUser(db: Db, sessions: SessionStore, actor: UserRow, id: string): Promise<void> {
  assertAdmin(actor);
  const current = await findUser(db, id);
  if (current.accountType === 'admin') throw new AppError('FORBIDDEN', msg.admin.adminProtected);
  sessions.forgetUser(id);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await releaseAccountsFiles(t, [id]);
    await t.delete(users).where(eq(users.id, id));
  });
}

/** Deletes expired demo accounts and, through the foreign keys, everything they own. */
export async function cleanupExpiredDemos(db: Db, sessions: SessionStore, actor: UserRow): Promise<number> {
  assertAdmin(actor);
  const expired = and(eq(users.accountType, 'demo'), lt(users.demoExpiresAt, sql`now()`));
  const deleted = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const ids = await t.select({ id: users.id }).from(users).where(expired).for('update');
    await releaseAccountsFiles(
      t,
      ids.map((u) => u.id),
    );
    if (!ids.length) return [];
    return t
      .delete(users)
      .where(
        inArray(
          users.id,
          ids.map((u) => u.id),
        ),
      )
      .returning({ id: users.id });
  });
  for (const { id } of deleted) sessions.forgetUser(id);
  return deleted.length;
}

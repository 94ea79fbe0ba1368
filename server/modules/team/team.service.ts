import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { msg } from '../../../contract/messages';
import { teamMemberLimitFor } from '../../../contract/plans';
import {
  type AcceptInvitationInput,
  type CreateInvitationInput,
  INVITATION_HOURS,
  TEAM_ROLE_LABELS,
  type TeamDirectory,
  type TeamInvitation,
  type TeamMember,
  type TeamResponse,
  teamMsg,
  teamRoleOf,
  type UpdateMemberInput,
} from '../../../contract/team';
import { twoFactorMsg } from '../../../contract/two-factor';
import { lockAccount } from '../../db/account-lock';
import { acrossAccounts, ofAccount } from '../../db/account-scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { queues, type TeamInvitationRow, teamInvitations, type UserRow, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { AccountContext } from '../../plugins/account-context';
import { hashToken, type SessionStore } from '../../sessions/session-store';
import { hashPassword, removeTwoFactor } from '../auth';

/**
 * An account's team (docs/decisions/045-team-members.md). A member is a login of its own in
 * `users`, with `account_id` naming the account it works for and `team_role` its role; every
 * query of a use case is scoped to the account, so what a member sees is the account's. The owner
 * is the account's own row. Invitations are e-mailed links holding 32 random bytes, of which only
 * the SHA-256 is kept; a link works once, for INVITATION_HOURS.
 */

const members = (accountId: string) => sql`(${users.id} = ${accountId} or ${users.accountId} = ${accountId})`;
const openInvitation = () => and(isNull(teamInvitations.acceptedAt), gt(teamInvitations.expiresAt, sql`now()`));

/** Each login's queues (Filas), from the queues' people. */
async function queuesOfPeople(db: Db, accountId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ id: queues.id, memberIds: queues.memberIds })
    .from(queues)
    .where(ofAccount(queues, accountId))
    .orderBy(asc(queues.name));
  const of = new Map<string, string[]>();
  for (const q of rows) for (const person of q.memberIds) of.set(person, [...(of.get(person) ?? []), q.id]);
  return of;
}

function toMember(row: UserRow, account: UserRow, lastSeen?: number, queueIds: string[] = []): TeamMember {
  const seen = Math.max(row.lastSeenAt?.getTime() ?? 0, lastSeen ?? 0);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    role: teamRoleOf(row),
    isActive: row.id === account.id ? account.isActive : row.isActive,
    twoFactor: row.twoFactorAt !== null,
    lastSeenAt: seen ? new Date(seen).toISOString() : null,
    queueIds,
  };
}

function toInvitation(row: TeamInvitationRow): TeamInvitation {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The account's people, its owner first, and the invitations still open. */
export async function listTeam(
  db: Db,
  ctx: AccountContext,
  lastSeen: (userId: string) => number | undefined = () => undefined,
): Promise<TeamResponse> {
  const rows = await db
    .select()
    .from(users)
    .where(members(ctx.userId))
    .orderBy(sql`${users.accountId} is not null`, asc(users.createdAt), asc(users.id));
  const invitations = await db
    .select()
    .from(teamInvitations)
    .where(ofAccount(teamInvitations, ctx, openInvitation()))
    .orderBy(asc(teamInvitations.createdAt));
  const queuesOf = await queuesOfPeople(db, ctx.userId);
  return {
    members: rows.map((r) => toMember(r, ctx.user, lastSeen(r.id), queuesOf.get(r.id))),
    limit: teamMemberLimitFor(ctx.user.planType),
    invitations: invitations.map(toInvitation),
    requireTwoFactor: ctx.user.requireTwoFactor,
  };
}

/** The account's active people by name, its owner first: whom a conversation can be assigned to. */
export async function teamDirectory(db: Db, ctx: AccountContext): Promise<TeamDirectory> {
  const rows = await db
    .select()
    .from(users)
    .where(members(ctx.userId))
    .orderBy(sql`${users.accountId} is not null`, asc(users.name), asc(users.id));
  return {
    members: rows
      .filter((r) => (r.id === ctx.userId ? ctx.user.isActive : r.isActive))
      .map((r) => ({ id: r.id, name: r.name, role: teamRoleOf(r) })),
  };
}

/**
 * Requires (or stops requiring) two-factor sign-in of every login of the account. The owner turns
 * it on for itself first, so the rule never sends the one who set it to a setup screen.
 */
export async function setRequireTwoFactor(
  db: Db,
  sessions: SessionStore,
  ctx: AccountContext,
  requireTwoFactor: boolean,
): Promise<void> {
  if (ctx.user.accountType === 'admin') throw new AppError('FORBIDDEN', teamMsg.adminNoTeam);
  if (requireTwoFactor && !ctx.member.twoFactorAt) throw new AppError('CONFLICT', twoFactorMsg.ownerNeedsItFirst);
  await db.update(users).set({ requireTwoFactor }).where(eq(users.id, ctx.userId));
  // Every session of the account and its members reads the rule again, on every process.
  sessions.forgetUser(ctx.userId);
}

/**
 * Refuses one more person when the plan's room is taken: active members and open invitations count,
 * the owner too. Call it in a transaction holding the account's team lock, so two invitations sent at
 * once count each other.
 */
async function assertRoom(tx: Db, ctx: AccountContext): Promise<void> {
  const limit = teamMemberLimitFor(ctx.user.planType);
  const [active] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.accountId, ctx.userId), eq(users.isActive, true)));
  const [invited] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(teamInvitations)
    .where(ofAccount(teamInvitations, ctx, openInvitation()));
  // The owner, the active members, the open invitations, and the one asked for.
  if (1 + Number(active.n) + Number(invited.n) + 1 > limit) {
    throw new AppError('CONFLICT', teamMsg.limitReached(limit));
  }
}

async function emailHasLogin(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email}) and ${users.accountType} <> 'demo'`)
    .limit(1);
  return Boolean(row);
}

/**
 * A new invitation, or a fresh link for the open one to the same address (the earlier link stops
 * working). Returns the token for the e-mail; only its hash is stored.
 */
export async function inviteMember(
  db: Db,
  ctx: AccountContext,
  input: CreateInvitationInput,
): Promise<{ invitation: TeamInvitation; token: string }> {
  // A member would act with the account's powers: an administrator's account has no team.
  if (ctx.role === 'admin' || ctx.user.accountType === 'admin') throw new AppError('FORBIDDEN', teamMsg.adminNoTeam);
  if (await emailHasLogin(db, input.email)) {
    throw new AppError('CONFLICT', teamMsg.emailTaken, { email: teamMsg.emailTaken });
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_HOURS * 3_600_000);
  const row = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await lockAccount(tx, ctx.userId, 'team');
    const [open] = await tx
      .select({ id: teamInvitations.id })
      .from(teamInvitations)
      .where(
        ofAccount(teamInvitations, ctx, openInvitation(), sql`lower(${teamInvitations.email}) = lower(${input.email})`),
      )
      .limit(1);
    if (open) {
      const [renewed] = await tx
        .update(teamInvitations)
        .set({
          name: input.name,
          role: input.role,
          tokenHash: hashToken(token),
          expiresAt,
          invitedBy: ctx.actorId,
          createdAt: new Date(),
        })
        .where(ofAccount(teamInvitations, ctx, eq(teamInvitations.id, open.id)))
        .returning();
      return renewed;
    }
    await assertRoom(tx, ctx);
    const [created] = await tx
      .insert(teamInvitations)
      .values({
        userId: ctx.userId,
        name: input.name,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: ctx.actorId,
        expiresAt,
      })
      .returning();
    return created;
  });
  return { invitation: toInvitation(row), token };
}

export async function revokeInvitation(db: Db, ctx: AccountContext, id: string): Promise<TeamInvitationRow> {
  const [row] = await db
    .delete(teamInvitations)
    .where(ofAccount(teamInvitations, ctx, eq(teamInvitations.id, id), isNull(teamInvitations.acceptedAt)))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', teamMsg.invitationNotFound);
  return row;
}

/** The open invitation a link's token names, with its account, or a pt-BR refusal. */
async function findInvitation(db: Db, token: string): Promise<{ invitation: TeamInvitationRow; account: UserRow }> {
  const [row] = await db
    .select({ invitation: teamInvitations, account: users })
    .from(acrossAccounts(teamInvitations))
    .innerJoin(users, eq(users.id, teamInvitations.userId))
    .where(and(eq(teamInvitations.tokenHash, hashToken(token)), openInvitation()))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', teamMsg.invitationInvalid);
  return row;
}

export const accountNameOf = (account: UserRow) => account.company || account.name;

/** What the invitation page shows: who is invited, to which account, as what. */
export async function previewInvitation(db: Db, token: string) {
  const { invitation, account } = await findInvitation(db, token);
  return { name: invitation.name, email: invitation.email, role: invitation.role, accountName: accountNameOf(account) };
}

/**
 * Creates the invited member's login, once: the link is spent in the same transaction, so two
 * acceptances at once make one login. The e-mail counts as confirmed (the link reached it).
 */
export async function acceptInvitation(
  db: Db,
  input: AcceptInvitationInput,
): Promise<{ member: UserRow; account: UserRow }> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [spent] = await tx
        .update(acrossAccounts(teamInvitations))
        .set({ acceptedAt: new Date() })
        .where(and(eq(teamInvitations.tokenHash, hashToken(input.token)), openInvitation()))
        .returning();
      if (!spent) throw new AppError('NOT_FOUND', teamMsg.invitationInvalid);
      const [account] = await tx.select().from(users).where(eq(users.id, spent.userId)).limit(1);
      if (await emailHasLogin(tx, spent.email)) {
        throw new AppError('CONFLICT', teamMsg.emailTaken);
      }
      const [member] = await tx
        .insert(users)
        .values({
          name: spent.name,
          email: spent.email,
          username: input.username,
          passwordHash,
          accountType: 'regular',
          planType: account.planType,
          isActive: true,
          emailConfirmedAt: new Date(),
          accountId: account.id,
          teamRole: spent.role,
        })
        .returning();
      await tx
        .update(acrossAccounts(teamInvitations))
        .set({ memberId: member.id })
        .where(eq(teamInvitations.id, spent.id));
      return { member, account };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_username_lower_idx')) {
      throw new AppError('CONFLICT', msg.auth.usernameTaken, { username: msg.auth.usernameTaken });
    }
    if (isUniqueViolation(err, 'users_email_lower_idx')) throw new AppError('CONFLICT', teamMsg.emailTaken);
    throw err;
  }
}

/**
 * Changes a member's role or access. The owner's row is not the team's to change, nor one's own
 * (a manager cannot lock themself out). Deactivating ends the member's sessions at once, on every
 * process (the session store announces it); a role change is read again on the next request.
 */
export async function updateMember(
  db: Db,
  sessions: SessionStore,
  ctx: AccountContext,
  id: string,
  input: UpdateMemberInput,
): Promise<{ member: TeamMember; before: UserRow }> {
  if (id === ctx.userId) throw new AppError('FORBIDDEN', teamMsg.ownerProtected);
  if (id === ctx.actorId) throw new AppError('FORBIDDEN', teamMsg.notYourself);
  const { before, after } = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await lockAccount(tx, ctx.userId, 'team');
    const [row] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.accountId, ctx.userId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND', teamMsg.memberNotFound);
    if (input.isActive && !row.isActive) await assertRoom(tx, ctx);
    const changes = {
      ...(input.role ? { teamRole: input.role } : {}),
      ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
    };
    // Only the queues may change: the login's row stays as it is.
    const [updated] = Object.keys(changes).length
      ? await tx.update(users).set(changes).where(eq(users.id, id)).returning()
      : [row];
    if (input.queueIds) await setMemberQueues(tx, ctx.userId, id, input.queueIds);
    return { before: row, after: updated };
  });
  if (before.isActive && !after.isActive) await sessions.revokeUser(id);
  else sessions.forgetUser(id);
  return { member: toMember(after, ctx.user, undefined, (await queuesOfPeople(db, ctx.userId)).get(id)), before };
}

/**
 * Takes a member's second factor away (a lost phone): the same people may do it as may change the
 * member (not the owner's, not one's own), and the member's sessions end at once, on every process.
 */
export async function resetMemberTwoFactor(
  db: Db,
  sessions: SessionStore,
  ctx: AccountContext,
  id: string,
): Promise<TeamMember> {
  if (id === ctx.userId) throw new AppError('FORBIDDEN', teamMsg.ownerProtected);
  if (id === ctx.actorId) throw new AppError('FORBIDDEN', teamMsg.notYourself);
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.accountId, ctx.userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', teamMsg.memberNotFound);
  if (!(await removeTwoFactor(db, id))) throw new AppError('CONFLICT', teamMsg.twoFactorNotOn);
  await sessions.revokeUser(id);
  return toMember({ ...row, twoFactorAt: null }, ctx.user, undefined, (await queuesOfPeople(db, ctx.userId)).get(id));
}

/**
 * Puts a member in exactly these queues of the account (and out of its others). A queue of another
 * account, or none, is not found: nothing changes.
 */
async function setMemberQueues(tx: Db, accountId: string, memberId: string, queueIds: string[]): Promise<void> {
  const wanted = [...new Set(queueIds.map((q) => q.toLowerCase()))];
  if (wanted.length) {
    const found = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(ofAccount(queues, accountId, inArray(queues.id, wanted)));
    if (found.length !== wanted.length)
      throw new AppError('NOT_FOUND', teamMsg.queueNotFound, { queueIds: teamMsg.queueNotFound });
  }
  const list = sql`${sql.param(wanted)}::uuid[]`;
  await tx
    .update(queues)
    .set({
      memberIds: sql`case when ${queues.id} = any(${list})
        then (case when ${memberId}::uuid = any(${queues.memberIds}) then ${queues.memberIds}
                   else array_append(${queues.memberIds}, ${memberId}::uuid) end)
        else array_remove(${queues.memberIds}, ${memberId}::uuid) end`,
    })
    .where(
      ofAccount(queues, accountId, sql`(${queues.id} = any(${list}) or ${memberId}::uuid = any(${queues.memberIds}))`),
    );
}

/** The activity log's words for a change to a member. */
export function describeMemberChange(before: UserRow, after: TeamMember, queuesChanged = false): string {
  const parts: string[] = [];
  if (teamRoleOf(before) !== after.role) parts.push(`papel: ${TEAM_ROLE_LABELS[after.role].toLowerCase()}`);
  if (before.isActive !== after.isActive) parts.push(after.isActive ? 'reativado' : 'desativado');
  if (queuesChanged) parts.push(`filas: ${after.queueIds.length}`);
  return `${after.name} — ${parts.join(', ') || 'sem mudanças'}`;
}

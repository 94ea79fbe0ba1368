import type { MemberRole } from '../../contract/team';
import type { UserRow } from '../db/schema';
import { createUser, loginAs, type TestContext } from './test-app';

/**
 * A member of `account`'s team with `role`, signed in: its login row and session cookie. Made
 * straight in the database, as an accepted invitation would (the invitation flow has its own tests).
 */
export async function newMember(
  ctx: TestContext,
  account: Pick<UserRow, 'id' | 'planType'>,
  role: MemberRole,
): Promise<{ member: UserRow; cookie: string }> {
  const member = await createUser(ctx, {
    accountType: 'regular',
    planType: account.planType,
    accountId: account.id,
    teamRole: role,
  });
  return { member, cookie: await loginAs(ctx, member) };
}

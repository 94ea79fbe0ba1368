import { type Role, roleOf, type TeamRole } from '../../contract/auth';
import { teamRoleOf } from '../../contract/team';
import type { UserRow } from '../db/schema';

/**
 * Who is asking (DESIGN §3): the one thing a use case receives about its caller, built once per
 * request from the session by the access gate (`request.account`, read with `authed(request)`):
 * the account, and the login that acts for it — its owner, or a team member with a role. An API
 * key's scopes join here.
 */
export interface AccountContext {
  /** The account: what every query of a use case is scoped to. */
  userId: string;
  /** The account's row (its plan, type and state): the owner's, whoever is signed in. */
  user: UserRow;
  /** What the account may do (contract `roleOf`: admin, customer, demo, pending, inactive); a deactivated member's is inactive. */
  role: Role;
  /** The login signed in: the account's own row for its owner, else the member's. */
  member: UserRow;
  /** The login's role in the account's team. */
  teamRole: TeamRole;
  /** Who acts, as the activity log names them: the member's id (the owner's is the account's). */
  actorId: string;
  /**
   * The account requires two-factor sign-in (an administrator's, when ADMIN_REQUIRE_TWO_FACTOR is
   * set) and this login has not set it up: only the routes that set it up answer (access.ts).
   */
  twoFactorPending: boolean;
}

/** The context of a request made by `login`'s session, working for `account` (the login itself for an owner). */
export function accountContextOf(login: UserRow, account: UserRow = login): AccountContext {
  const role = roleOf(account);
  const member = login.id !== account.id;
  return {
    userId: account.id,
    user: account,
    // A deactivated member acts for nobody; a member never inherits an administrator's powers.
    role: member && (!login.isActive || role === 'admin') ? 'inactive' : role,
    member: login,
    teamRole: teamRoleOf(login),
    actorId: login.id,
    twoFactorPending: account.requireTwoFactor && !login.twoFactorAt,
  };
}

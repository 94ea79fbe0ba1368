import { type Role, roleOf } from '../../contract/auth';
import type { UserRow } from '../db/schema';

/**
 * Who is asking (DESIGN §3): the one thing a use case receives about its caller, built once per
 * request from the session by the access gate (`request.account`, read with `authed(request)`).
 * Today the account acts for itself; the member who acts for it and an API key's scopes join here.
 */
export interface AccountContext {
  /** The account: what every query of a use case is scoped to. */
  userId: string;
  /** The signed-in user (today always the account itself). */
  user: UserRow;
  /** What the user may do (contract `roleOf`: admin, customer, demo, pending, inactive). */
  role: Role;
  /** Who acts, as the activity log names them. */
  actorId: string;
}

/** The context of a request made by `user`'s session. */
export function accountContextOf(user: UserRow): AccountContext {
  return { userId: user.id, user, role: roleOf(user), actorId: user.id };
}

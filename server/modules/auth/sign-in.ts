import { eq } from 'drizzle-orm';
import type { LoginInput } from '../../../contract/auth';
import { type UserRow, users } from '../../db/schema';
import { type Recording, record } from '../../records/events';
import type { SessionStore } from '../../sessions/session-store';
import { login } from './auth.service';
import { resetPassword } from './password-reset.service';

type AuthDeps = Recording & { sessions: SessionStore };

/** Signs in: a new session for the account, and its login in the activity log. */
export async function signIn(
  deps: AuthDeps,
  input: LoginInput,
  meta: { userAgent?: string; ip?: string },
): Promise<{ user: UserRow; account: UserRow; token: string }> {
  const signedIn = await login(deps.db, deps.sessions, input, meta);
  const { user } = signedIn;
  // A team member signs in to the account it works for; the log names the member.
  const [account] = user.accountId
    ? await deps.db.select().from(users).where(eq(users.id, user.accountId)).limit(1)
    : [user];
  await record(deps.db, { kind: 'login', by: { userId: account.id, actorId: user.id } }, deps);
  return { ...signedIn, account };
}

/** Sets a new password with an e-mailed link (every session of the account ends); the activity log says so. */
export async function resetForgottenPassword(
  deps: AuthDeps,
  input: { token: string; password: string },
): Promise<void> {
  const user = await resetPassword(deps.db, deps.sessions, input);
  await record(
    deps.db,
    { kind: 'settings_changed', by: { userId: user.accountId ?? user.id, actorId: user.id }, section: 'passwordReset' },
    deps,
  );
}

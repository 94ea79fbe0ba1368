import type { LoginInput } from '../../../contract/auth';
import type { UserRow } from '../../db/schema';
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
): Promise<{ user: UserRow; token: string }> {
  const signedIn = await login(deps.db, deps.sessions, input, meta);
  const userId = signedIn.user.id;
  await record(deps.db, { kind: 'login', by: { userId, actorId: userId } }, deps);
  return signedIn;
}

/** Sets a new password with an e-mailed link (every session of the account ends); the activity log says so. */
export async function resetForgottenPassword(
  deps: AuthDeps,
  input: { token: string; password: string },
): Promise<void> {
  const user = await resetPassword(deps.db, deps.sessions, input);
  await record(
    deps.db,
    { kind: 'settings_changed', by: { userId: user.id, actorId: user.id }, section: 'passwordReset' },
    deps,
  );
}

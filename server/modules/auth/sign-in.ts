import { eq } from 'drizzle-orm';
import type { LoginInput } from '../../../contract/auth';
import { type UserRow, users } from '../../db/schema';
import { type Recording, record } from '../../records/events';
import type { SessionStore } from '../../sessions/session-store';
import { login } from './auth.service';
import { resetPassword } from './password-reset.service';
import { completeLoginChallenge } from './two-factor.service';

type AuthDeps = Recording & { sessions: SessionStore };

/** The account a login works for: itself for an owner, the account of a team member. */
async function accountOf(db: AuthDeps['db'], login: UserRow): Promise<UserRow> {
  if (!login.accountId) return login;
  const [account] = await db.select().from(users).where(eq(users.id, login.accountId)).limit(1);
  return account ?? login;
}

/** What a sign-in with the right password opens: a session, or the second step of a two-factor sign-in. */
export type SignInOutcome = { user: UserRow; account: UserRow; token: string } | { challenge: string };

/** Signs in: a new session for the account, and its login in the activity log (the log names the member). */
export async function signIn(
  deps: AuthDeps,
  input: LoginInput,
  meta: { userAgent?: string; ip?: string },
): Promise<SignInOutcome> {
  const signedIn = await login(deps.db, deps.sessions, input, meta);
  if ('challenge' in signedIn) return { challenge: signedIn.challenge };
  const account = await accountOf(deps.db, signedIn.user);
  await record(deps.db, { kind: 'login', by: { userId: account.id, actorId: signedIn.user.id } }, deps);
  return { user: signedIn.user, account, token: signedIn.token };
}

/** The second step of a two-factor sign-in: the code (or a recovery code) for the challenge's login. */
export async function signInWithCode(
  deps: AuthDeps & { encryptionKey: Buffer },
  challenge: string,
  code: string,
  meta: { userAgent?: string; ip?: string },
): Promise<{ user: UserRow; account: UserRow; token: string }> {
  const user = await completeLoginChallenge(deps.db, deps.encryptionKey, challenge, code);
  const account = await accountOf(deps.db, user);
  const token = await deps.sessions.create(user.id, meta);
  await record(deps.db, { kind: 'login', by: { userId: account.id, actorId: user.id } }, deps);
  return { user, account, token };
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

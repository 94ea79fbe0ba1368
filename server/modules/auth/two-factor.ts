import type { TwoFactorDisableInput } from '../../../contract/two-factor';
import type { AppDeps } from '../../deps';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup } from './two-factor.service';

/** Two-factor sign-in's use cases: each change to a login's second factor, and its line in the activity log. */
type TwoFactorDeps = Recording & Pick<AppDeps, 'sessions' | 'config'>;

/** A new secret for the signed-in login, to be read by its authenticator app. */
export function setUpTwoFactor(deps: TwoFactorDeps, ctx: AccountContext) {
  return startTwoFactorSetup(deps.db, deps.config.ENCRYPTION_KEY, ctx.member);
}

/**
 * Turns two-factor sign-in on with a first good code. The login's other sessions end (as after a
 * password change): one opened with the password alone does not outlive the new rule.
 */
export async function turnOnTwoFactor(
  deps: TwoFactorDeps,
  ctx: AccountContext,
  input: { code: string; currentToken: string | null },
): Promise<string[]> {
  const codes = await enableTwoFactor(deps.db, deps.config.ENCRYPTION_KEY, ctx.member, input.code);
  await deps.sessions.revokeUser(ctx.member.id, input.currentToken ?? undefined);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'twoFactorOn' }, deps);
  return codes;
}

export async function turnOffTwoFactor(deps: TwoFactorDeps, ctx: AccountContext, input: TwoFactorDisableInput) {
  await disableTwoFactor(deps.db, deps.config.ENCRYPTION_KEY, ctx.member, ctx.user, input);
  deps.sessions.forgetUser(ctx.member.id);
  await record(deps.db, { kind: 'settings_changed', by: ctx, section: 'twoFactorOff' }, deps);
}

import { describe, expect, it } from 'vitest';
import { twoFactorMsg } from '#contract/two-factor';
import { type LoginOutcome, needsSecondFactor } from './login';

describe('needsSecondFactor', () => {
  it('is true for the password step of a login with two-factor on', () => {
    expect(needsSecondFactor({ success: true, message: twoFactorMsg.loginHint, twoFactorRequired: true })).toBe(true);
  });
  it('is false for a signed-in answer', () => {
    const signedIn = { success: true, message: 'Login realizado', user: { id: 'u1' } } as unknown as LoginOutcome;
    expect(needsSecondFactor(signedIn)).toBe(false);
  });
});

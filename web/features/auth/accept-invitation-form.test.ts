import { describe, expect, it } from 'vitest';
import { msg } from '#contract/messages';
import { settingsMsg } from '#contract/settings';
import { acceptInvitationForm } from './accept-invitation-form';

const issues = (value: unknown) =>
  acceptInvitationForm.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('acceptInvitationForm', () => {
  it('takes a username and the same password twice', () => {
    expect(issues({ username: 'ana.lima', password: 'segredo123', confirmPassword: 'segredo123' })).toEqual([]);
  });

  it('refuses what the API refuses, in the same words', () => {
    expect(issues({ username: 'a b', password: '123', confirmPassword: '123' })).toEqual([
      ['username', msg.validation.usernameChars],
      ['password', msg.validation.passwordMin],
    ]);
  });

  it('says so under the confirmation when the two passwords differ', () => {
    expect(issues({ username: 'ana.lima', password: 'segredo123', confirmPassword: 'segredo124' })).toEqual([
      ['confirmPassword', settingsMsg.passwordMismatch],
    ]);
  });
});

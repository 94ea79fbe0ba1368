import { describe, expect, it } from 'vitest';
import { msg } from '../../../contract/messages';
import { actionPermission, canReadWorkspace } from './permissions';

const admin = { accountType: 'admin', isActive: true } as const;
const customer = { accountType: 'active', isActive: true } as const;
const demo = { accountType: 'demo', isActive: true } as const;
const pending = { accountType: 'pending', isActive: false } as const;
const inactive = { accountType: 'regular', isActive: false } as const;

describe('actionPermission', () => {
  it('always allows admins, on any screen', () => {
    expect(actionPermission(admin, 'campaign', true).state).toBe('allowed');
    expect(actionPermission(admin, 'message', false).state).toBe('allowed');
  });

  it('allows customers on the desktop and disables message, bot and campaign actions under 1024 px', () => {
    expect(actionPermission(customer, 'campaign', false).state).toBe('allowed');
    for (const kind of ['message', 'bot', 'campaign'] as const) {
      expect(actionPermission(customer, kind, true)).toMatchObject({
        state: 'disabled',
        reason: 'mobile',
        hint: msg.generic.mobileOnlyDesktop,
      });
    }
    expect(actionPermission(customer, 'other', true).state).toBe('allowed');
  });

  it('disables every action of a demo account', () => {
    expect(actionPermission(demo, 'other', false)).toMatchObject({ state: 'disabled', reason: 'demo' });
  });

  it('turns actions of pending and deactivated accounts into an approval request', () => {
    expect(actionPermission(pending, 'campaign', false).state).toBe('request-approval');
    expect(actionPermission(inactive, 'campaign', true).state).toBe('request-approval');
  });

  it('lets only approved, active accounts read workspace data', () => {
    expect([admin, customer, demo, pending, inactive].map(canReadWorkspace)).toEqual([true, true, true, false, false]);
  });
});

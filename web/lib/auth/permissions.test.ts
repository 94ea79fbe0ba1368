import { describe, expect, it } from 'vitest';
import { actionPermission, canReadAs, canReadWorkspace, teamAllows, userTeamRole } from './permissions';

const admin = { accountType: 'admin', isActive: true } as const;
const customer = { accountType: 'active', isActive: true } as const;
const demo = { accountType: 'demo', isActive: true } as const;
const pending = { accountType: 'pending', isActive: false } as const;
const inactive = { accountType: 'regular', isActive: false } as const;

describe('actionPermission', () => {
  it('always allows admins', () => {
    expect(actionPermission(admin, 'campaign').state).toBe('allowed');
    expect(actionPermission(admin, 'message').state).toBe('allowed');
  });

  it('allows customers every kind of action, whatever the screen (decision 025)', () => {
    for (const kind of ['message', 'bot', 'campaign', 'other'] as const) {
      expect(actionPermission(customer, kind)).toEqual({ state: 'allowed', role: 'customer' });
    }
  });

  it('disables every action of a demo account', () => {
    expect(actionPermission(demo, 'other')).toMatchObject({ state: 'disabled', reason: 'demo' });
  });

  it('turns actions of pending and deactivated accounts into an approval request', () => {
    expect(actionPermission(pending, 'campaign').state).toBe('request-approval');
    expect(actionPermission(inactive, 'campaign').state).toBe('request-approval');
  });

  it('lets only approved, active accounts read workspace data', () => {
    expect([admin, customer, demo, pending, inactive].map(canReadWorkspace)).toEqual([true, true, true, false, false]);
  });
});

describe('team roles', () => {
  const owner = { ...customer, teamRole: 'owner' } as const;
  const manager = { ...customer, teamRole: 'manager' } as const;
  const agent = { ...customer, teamRole: 'agent' } as const;

  it('takes a session that names no role for the owner', () => {
    expect(userTeamRole({})).toBe('owner');
    expect(userTeamRole(agent)).toBe('agent');
  });

  it('orders owner > manager > agent, as the routes declare them', () => {
    expect([owner, manager, agent].map((u) => teamAllows(u, 'agent'))).toEqual([true, true, true]);
    expect([owner, manager, agent].map((u) => teamAllows(u, 'manager'))).toEqual([true, true, false]);
    expect([owner, manager, agent].map((u) => teamAllows(u, 'owner'))).toEqual([true, false, false]);
  });

  it('reads a route only when the account may read at all and the role reaches it', () => {
    expect(canReadAs(agent, 'agent')).toBe(true);
    expect(canReadAs(agent, 'manager')).toBe(false);
    expect(canReadAs({ ...pending, teamRole: 'owner' }, 'agent')).toBe(false);
  });
});

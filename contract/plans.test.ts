import { describe, expect, it } from 'vitest';
import { CONNECTION_LIMITS, connectionLimitFor, connectionLimitText, PLANS } from './plans';

describe('numbers per plan', () => {
  it('each plan card says how many numbers the plan allows, from the limit the server enforces', () => {
    expect(PLANS.map((p) => [p.type, connectionLimitText(connectionLimitFor(p.type))])).toEqual([
      ['basic', '1 número de WhatsApp'],
      ['professional', 'Até 3 números de WhatsApp'],
      ['enterprise', 'Até 5 números de WhatsApp'],
      ['premium', 'Até 10 números de WhatsApp'],
    ]);
    for (const p of PLANS) expect(connectionLimitFor(p.type)).toBe(CONNECTION_LIMITS[p.type]);
  });

  it('an unlimited plan and an unknown one', () => {
    expect(connectionLimitText(connectionLimitFor('admin'))).toBe('Números de WhatsApp ilimitados');
    expect(connectionLimitFor('gold')).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { ConnectionHealth, ConnectionStatus } from '#contract/connections';
import { canClearRestriction, healthSignals } from './components/connection-labels';

describe('a number’s card on the Números page', () => {
  it("offers 'Liberar número' only on a number WhatsApp restricted", () => {
    expect(canClearRestriction({ status: 'restricted' })).toBe(true);
    const others: ConnectionStatus[] = ['connected', 'disconnected', 'connecting', 'qr', 'logged_out'];
    for (const status of others) expect(canClearRestriction({ status }), status).toBe(false);
  });

  it('lists blocks and opt-outs of the last 24 h only when there are some', () => {
    const base: ConnectionHealth = { level: 'good', recentFailures: 0, restriction: null, repliesToday: 0 };
    expect(healthSignals(base)).toEqual([]);
    expect(healthSignals({ ...base, blocks: 0, optOuts: 0 })).toEqual([]);
    expect(healthSignals({ ...base, blocks: 3, optOuts: 0 })).toEqual([
      { key: 'blocks', label: 'Bloqueios ou não entregues (24 h)', value: 3 },
    ]);
    expect(healthSignals({ ...base, blocks: 1, optOuts: 2 }).map((s) => [s.key, s.value])).toEqual([
      ['blocks', 1],
      ['optOuts', 2],
    ]);
  });
});

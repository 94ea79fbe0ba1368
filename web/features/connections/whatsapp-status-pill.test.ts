import { describe, expect, it } from 'vitest';
import { numbersSummary } from './components/whatsapp-status-pill';

describe('the sidebar’s summary of several numbers', () => {
  it('counts the connected ones of all, and says whether all, some or none can send', () => {
    expect(numbersSummary([{ status: 'connected' }, { status: 'connected' }])).toEqual({
      online: 2,
      total: 2,
      tone: 'all',
    });
    expect(numbersSummary([{ status: 'connected' }, { status: 'restricted' }, { status: 'qr' }])).toEqual({
      online: 1,
      total: 3,
      tone: 'some',
    });
    expect(numbersSummary([{ status: 'disconnected' }, { status: 'logged_out' }])).toEqual({
      online: 0,
      total: 2,
      tone: 'none',
    });
  });
});

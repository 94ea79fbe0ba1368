import { describe, expect, it } from 'vitest';
import { whatsappQuickAction } from './whatsapp-quick-action';

describe("the dashboard's WhatsApp quick action", () => {
  it("offers 'Conectar WhatsApp' only while the number is not connected", () => {
    expect(whatsappQuickAction(undefined)).toEqual({ kind: 'connect' });
    expect(whatsappQuickAction({ isConnected: false, phoneNumber: null })).toEqual({ kind: 'connect' });
  });

  it('shows the connected number (to disconnect) instead', () => {
    expect(whatsappQuickAction({ isConnected: true, phoneNumber: '+55 11 98765-4321' })).toEqual({
      kind: 'connected',
      label: '+55 11 98765-4321',
    });
    expect(whatsappQuickAction({ isConnected: true, phoneNumber: null })).toEqual({
      kind: 'connected',
      label: 'Detectando número...',
    });
  });

  it('with several numbers, lets the person choose which (connected ones counted), whatever the default is doing', () => {
    const numbers = [{ status: 'connected' as const }, { status: 'disconnected' as const }, { status: 'qr' as const }];
    expect(whatsappQuickAction({ isConnected: true, phoneNumber: '+55 11 98765-4321' }, numbers)).toEqual({
      kind: 'choose',
      connected: 1,
      total: 3,
    });
    expect(whatsappQuickAction(undefined, numbers.slice(1))).toEqual({ kind: 'choose', connected: 0, total: 2 });
    // One number: the spec's single-number action, from the session.
    expect(whatsappQuickAction({ isConnected: false, phoneNumber: null }, numbers.slice(0, 1))).toEqual({
      kind: 'connect',
    });
  });
});

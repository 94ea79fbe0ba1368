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
});

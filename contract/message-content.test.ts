import { describe, expect, it } from 'vitest';
import { contactCardInput, locationInput, sendContentMsg } from './message-content';

describe('location and contact card inputs', () => {
  it('takes a point with its optional name and address, numbers given as text too', () => {
    expect(locationInput.parse({ latitude: '-23.5505', longitude: -46.6333, name: ' Loja ' })).toEqual({
      latitude: -23.5505,
      longitude: -46.6333,
      name: 'Loja',
    });
  });

  it('refuses a point off the globe with a message naming the coordinate', () => {
    const lat = locationInput.safeParse({ latitude: 91, longitude: 0 });
    expect(lat.success).toBe(false);
    expect(lat.error?.issues[0].message).toBe(sendContentMsg.latitudeInvalid);
    const lng = locationInput.safeParse({ latitude: 0, longitude: 'x' });
    expect(lng.error?.issues[0].message).toBe(sendContentMsg.longitudeInvalid);
  });

  it('keeps a card phone as digits and refuses one too short', () => {
    expect(contactCardInput.parse({ name: 'Maria', phone: '+55 (21) 99876-5432' })).toEqual({
      name: 'Maria',
      phone: '5521998765432',
    });
    const bad = contactCardInput.safeParse({ name: 'Maria', phone: '123' });
    expect(bad.error?.issues[0].message).toBe(sendContentMsg.contactPhoneInvalid);
    const noName = contactCardInput.safeParse({ name: ' ', phone: '21998765432' });
    expect(noName.error?.issues[0].message).toBe(sendContentMsg.contactNameRequired);
  });
});

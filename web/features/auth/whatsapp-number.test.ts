import { describe, expect, it } from 'vitest';
import { demoSignupInput, landingSignupInput, registerInput, whatsappNumberField } from '#contract/auth';
import { msg } from '#contract/messages';
import { updateProfileInput } from '#contract/settings';
import { connectWhatsappInput } from '#contract/whatsapp-connection';

const v = msg.validation;

/** The message each form shows under its WhatsApp field for `number`, or null when it is accepted. */
function messages(number: string) {
  const first = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.success
      ? null
      : (r.error?.issues.find(
          (i) => i.path[0] === 'whatsappNumber' || i.path[0] === 'phone' || i.path[0] === 'phoneNumber',
        )?.message ?? null);
  return {
    register: first(
      registerInput.safeParse({
        name: 'Maria',
        email: 'm@example.com',
        username: 'maria',
        password: 'segredo1',
        whatsappNumber: number,
      }),
    ),
    demo: first(demoSignupInput.safeParse({ name: 'Maria', email: 'm@example.com', whatsappNumber: number })),
    landing: first(landingSignupInput.safeParse({ name: 'Maria', email: 'm@example.com', whatsappNumber: number })),
    profile: first(updateProfileInput.safeParse({ name: 'Maria', email: 'm@example.com', phone: number, company: '' })),
    pairing: first(connectWhatsappInput.safeParse({ phoneNumber: number })),
  };
}

const everywhere = (message: string | null) => ({
  register: message,
  demo: message,
  landing: message,
  profile: message,
  pairing: message,
});

describe('the WhatsApp number, one rule in every form', () => {
  it("says 'pelo menos 10 dígitos' for a short number, in the register form too", () => {
    expect(messages('1234')).toEqual(everywhere(v.whatsappMin));
    // Ten characters are not ten digits.
    expect(messages('(11) 9999-')).toEqual(everywhere(v.whatsappMin));
  });

  it("says 'obrigatório' only when the number is missing (the profile may stay empty)", () => {
    expect(messages('  ')).toEqual({ ...everywhere(v.whatsappRequired), profile: null });
  });

  it('refuses letters and over-long numbers with the same messages', () => {
    expect(messages('11 9999x-00000')).toEqual(everywhere(v.whatsappFormat));
    expect(messages('1'.repeat(16))).toEqual(everywhere(v.whatsappMaxDigits));
    expect(messages('1'.repeat(21))).toEqual(everywhere(v.whatsappMax));
  });

  it('accepts a number written the way people write it', () => {
    for (const number of ['(11) 99999-1234', '+55 11 99999-1234', '11999991234']) {
      expect(messages(number)).toEqual(everywhere(null));
      expect(whatsappNumberField.parse(` ${number} `)).toBe(number);
    }
    // Pairing by code sends the digits on.
    expect(connectWhatsappInput.parse({ phoneNumber: '+55 (11) 98765-4321' })?.phoneNumber).toBe('5511987654321');
  });
});

import { describe, expect, it } from 'vitest';
import { landingSignupForm } from './auth';
import { testCampaignForm } from './campaigns';
import { contactBulkTagForm, contactInput, contactsMsg } from './contacts';
import { msg } from './messages';
import { pairingCodeForm } from './whatsapp-connection';

/** The schemas the web forms validate with (react-hook-form's zodResolver), each shaped as its form. */

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('landingSignupForm', () => {
  const filled = { name: ' Lucas Lima ', email: ' lucas@example.com ', whatsappNumber: '(31) 99876-5432' };

  it('tells a field left empty once for the whole form, before any other rule', () => {
    for (const empty of ['name', 'email', 'whatsappNumber'] as const) {
      const result = landingSignupForm.safeParse({
        ...filled,
        [empty]: '  ',
        whatsappNumber: empty === 'whatsappNumber' ? '' : '1234',
      });
      expect(messages(result)).toEqual({ root: msg.validation.landingRequired });
    }
  });

  it('then checks each field as the API does, under its field', () => {
    const result = landingSignupForm.safeParse({ ...filled, whatsappNumber: '1234' });
    expect(messages(result)).toEqual({ whatsappNumber: 'Número deve ter pelo menos 10 dígitos' });
    expect(messages(landingSignupForm.safeParse({ ...filled, email: 'lucas' }))).toEqual({
      email: msg.validation.email,
    });
  });

  it('gives the API input, trimmed', () => {
    expect(landingSignupForm.parse(filled)).toEqual({
      name: 'Lucas Lima',
      email: 'lucas@example.com',
      whatsappNumber: '(31) 99876-5432',
    });
  });
});

describe('contactInput as the contact form', () => {
  const form = {
    name: ' Ana ',
    phone: ' (21) 99876-5432 ',
    email: '',
    tags: ' vip, , cliente ',
    isActive: true,
    optedOut: false,
  };

  it('takes the tags as one comma-separated text and an empty e-mail as none', () => {
    expect(contactInput.parse(form)).toEqual({
      name: 'Ana',
      phone: '(21) 99876-5432',
      email: null,
      tags: ['vip', 'cliente'],
      isActive: true,
      optedOut: false,
    });
  });

  it('requires name and phone with one message', () => {
    expect(messages(contactInput.safeParse({ ...form, name: ' ', phone: '' }))).toEqual({
      name: contactsMsg.required,
      phone: contactsMsg.required,
    });
    expect(messages(contactInput.safeParse({ ...form, email: 'ana' }))).toEqual({ email: contactsMsg.invalidEmail });
  });
});

describe('testCampaignForm', () => {
  it('takes a number or nothing, trimmed', () => {
    expect(testCampaignForm.parse({ phone: ' (11) 91234-5678 ' })).toEqual({ phone: '(11) 91234-5678' });
    expect(testCampaignForm.parse({ phone: '' })).toEqual({ phone: '' });
    expect(testCampaignForm.safeParse({ phone: '1'.repeat(31) }).success).toBe(false);
  });
});

describe('pairingCodeForm', () => {
  it('requires a WhatsApp number and sends its digits', () => {
    expect(pairingCodeForm.parse({ phoneNumber: '+55 (11) 98765-4321' })).toEqual({ phoneNumber: '5511987654321' });
    expect(messages(pairingCodeForm.safeParse({ phoneNumber: '1234' }))).toEqual({
      phoneNumber: 'Número deve ter pelo menos 10 dígitos',
    });
    expect(pairingCodeForm.safeParse({ phoneNumber: '' }).success).toBe(false);
  });
});

describe('contactBulkTagForm', () => {
  it('takes one tag, trimmed, with the texts the server gives', () => {
    expect(contactBulkTagForm.parse({ tag: ' vip ' })).toEqual({ tag: 'vip' });
    expect(messages(contactBulkTagForm.safeParse({ tag: '  ' }))).toEqual({ tag: contactsMsg.bulkTagRequired });
    expect(messages(contactBulkTagForm.safeParse({ tag: 'vip, lead' }))).toEqual({ tag: contactsMsg.bulkTagComma });
    expect(messages(contactBulkTagForm.safeParse({ tag: 'x'.repeat(51) }))).toEqual({
      tag: contactsMsg.bulkTagTooLong,
    });
    expect(contactBulkTagForm.safeParse({ tag: 'x'.repeat(50) }).success).toBe(true);
  });
});

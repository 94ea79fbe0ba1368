import { describe, expect, it } from 'vitest';
import { landingSignupForm } from './auth';
import { type AutoReplyDraft, autoReplyButtonForm, autoReplyForm, botMsg } from './bot';
import { type CampaignFormDraft, campaignForm } from './campaign-form';
import { campaignMsg, testCampaignForm } from './campaigns';
import { contactBulkTagForm, contactInput, contactsMsg } from './contacts';
import { msg } from './messages';
import { customPeriodForm, MAX_PERIOD_DAYS, metricsMsg } from './metrics';
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

describe('customPeriodForm', () => {
  const check = (from: string, to: string) => messages(customPeriodForm.safeParse({ from, to }));

  it('checks a custom range with pt-BR messages', () => {
    expect(check('2026-01-01', '2026-01-31')).toEqual({});
    expect(check('2026-01-31', '2026-01-31')).toEqual({});
    expect(check('', '')).toEqual({ from: 'Informe a data inicial.', to: 'Informe a data final.' });
    expect(check('2026-02-30', '2026-03-01')).toEqual({ from: metricsMsg.dayInvalid });
    expect(check('2026-02-01', '2026-01-31')).toEqual({ to: metricsMsg.periodOrder });
    expect(metricsMsg.periodOrder).toBe('A data inicial deve ser igual ou anterior à data final.');
    // MAX_PERIOD_DAYS days pass, one more does not.
    expect(check('2026-01-01', '2027-01-01')).toEqual({});
    expect(MAX_PERIOD_DAYS).toBe(366);
    expect(check('2026-01-01', '2027-01-02')).toEqual({ from: metricsMsg.periodTooLong });
  });
});

describe('autoReplyForm', () => {
  const empty: AutoReplyDraft = { trigger: '', type: 'text', response: '', imageUrl: '', buttons: [] };
  const form = autoReplyForm(['oi']);
  const check = (draft: Partial<AutoReplyDraft>) => messages(form.safeParse({ ...empty, ...draft }));

  it('asks for keyword and content first (SPEC §5)', () => {
    expect(check({ trigger: 'menu' })).toEqual({ root: botMsg.autoMessageRequired });
    expect(check({ response: 'Oi', trigger: ' ' })).toEqual({ root: botMsg.autoMessageRequired });
  });

  it('applies the contract rules: image link, repeated keyword', () => {
    const base = { trigger: 'menu', response: 'Veja' };
    expect(check({ ...base, type: 'image' })).toEqual({ root: botMsg.imageUrlRequired });
    expect(check({ ...base, type: 'image', imageUrl: 'ftp://x' })).toEqual({ root: botMsg.imageUrlInvalid });
    expect(check({ ...base, trigger: 'OI!' })).toEqual({ root: botMsg.keywordDuplicate('OI!') });
  });

  it('gives the rule, trimmed, without an id', () => {
    expect(form.parse({ ...empty, trigger: ' menu ', response: ' Veja ' })).toMatchObject({
      id: undefined,
      trigger: 'menu',
      response: 'Veja',
      type: 'text',
      buttons: [],
      isActive: true,
    });
  });
});

describe('autoReplyButtonForm', () => {
  const check = (draft: { text: string; type: 'url' | 'phone' | 'quick_reply'; value: string }, buttons = []) =>
    messages(autoReplyButtonForm(buttons).safeParse(draft));

  it('asks for text and value first (SPEC §5)', () => {
    expect(check({ text: 'Site', type: 'url', value: ' ' })).toEqual({ root: botMsg.buttonRequired });
  });

  it('checks links and phone numbers with the contract', () => {
    expect(check({ text: 'Site', type: 'url', value: 'exemplo.com' })).toEqual({ root: botMsg.buttonUrlInvalid });
    expect(check({ text: 'Ligar', type: 'phone', value: '1199' })).toEqual({ root: botMsg.buttonPhoneInvalid });
    expect(autoReplyButtonForm([]).safeParse({ text: 'Ligar', type: 'phone', value: '(11) 98765-4321' }).success).toBe(
      true,
    );
    expect(check({ text: 'Um texto longo demais aqui', type: 'quick_reply', value: 'x' })).toEqual({
      root: botMsg.buttonTextTooLong,
    });
  });

  it('allows three buttons, with ids not already taken', () => {
    const two = [
      { id: 'btn-1', text: 'A', type: 'quick_reply' as const, value: 'a' },
      { id: 'btn-3', text: 'C', type: 'quick_reply' as const, value: 'c' },
    ];
    const third = autoReplyButtonForm(two).parse({ text: 'B', type: 'url', value: 'https://b.com' });
    expect(third).toEqual({ id: 'btn-4', text: 'B', type: 'url', value: 'https://b.com' });
    expect(
      messages(autoReplyButtonForm([...two, third]).safeParse({ text: 'D', type: 'quick_reply', value: 'd' })),
    ).toEqual({ root: botMsg.tooManyButtons });
  });
});

describe('campaignForm', () => {
  const now = () => new Date(2026, 10, 22, 10, 0).getTime();
  /** A local date-time as an instant, the way the browser reads `<input type="datetime-local">`. */
  const instantOf = (local: string) => {
    const date = new Date(local);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  };
  const form = campaignForm(instantOf, now);
  const empty: CampaignFormDraft = {
    name: '',
    message: '',
    targetType: 'all',
    tags: '',
    groups: [],
    scheduledAt: '',
    imageUrl: '',
    templateName: '',
    templateLanguage: '',
    templateVariables: [],
  };
  const filled = { ...empty, name: ' Natal ', message: ' Olá {{primeiro_nome}}! ' };
  const check = (draft: CampaignFormDraft) => messages(form.safeParse(draft));

  it('asks for name and message first (SPEC §5)', () => {
    expect(check(empty)).toEqual({
      name: campaignMsg.required,
      message: campaignMsg.required,
      root: campaignMsg.required,
    });
    expect(check({ ...filled, name: '   ' }).root).toBe(campaignMsg.required);
    expect(check({ ...filled, message: '\n' })).toEqual({ message: campaignMsg.required, root: campaignMsg.required });
  });

  it('accepts a complete draft', () => {
    expect(check(filled)).toEqual({});
  });

  it('refuses an unknown variable, groups without a choice and a schedule in the past', () => {
    expect(check({ ...filled, message: 'Oi {{cidade}}' }).root).toBe(campaignMsg.unknownVariable('cidade'));
    expect(check({ ...filled, targetType: 'groups' }).groups).toBe(campaignMsg.groupsRequired);
    expect(check({ ...filled, scheduledAt: '2026-11-22T09:59' }).root).toBe(campaignMsg.scheduledInPast);
    expect(check({ ...filled, scheduledAt: '2026-11-22T10:30' }).root).toBeUndefined();
  });
});

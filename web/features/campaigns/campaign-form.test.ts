import { describe, expect, it } from 'vitest';
import { campaignFormMsg } from '#contract/campaign-form';
import type { Campaign } from '#contract/campaigns';
import { sendContentMsg } from '#contract/message-content';
import { campaignBodyFromForm, campaignFormSchema, emptyCampaignForm, formFromCampaign } from './campaign-form';

const filled = { ...emptyCampaignForm, name: ' Natal ', message: ' Olá {{primeiro_nome}}! ' };

describe('campaignBodyFromForm', () => {
  it('sends a draft without schedule, tags, groups or image', () => {
    expect(campaignBodyFromForm(filled)).toEqual({
      name: 'Natal',
      message: 'Olá {{primeiro_nome}}!',
      targetType: 'all',
      targetGroups: [],
      targetTags: [],
      status: 'draft',
      scheduledAt: null,
      imageUrl: null,
      templateName: null,
      templateLanguage: null,
      templateVariables: [],
    });
  });

  it('sends a Cloud API template with its variables, and none once it is cleared', () => {
    const withTemplate = {
      ...filled,
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      templateVariables: [{ field: 'primeiro_nome' as const }, { text: 'NATAL10' }],
    };
    expect(campaignBodyFromForm(withTemplate)).toMatchObject({
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      templateVariables: [{ field: 'primeiro_nome' }, { text: 'NATAL10' }],
    });
    expect(campaignBodyFromForm({ ...withTemplate, templateName: '' })).toMatchObject({
      templateName: null,
      templateLanguage: null,
      templateVariables: [],
    });
  });

  it('sends a schedule as an ISO instant, tags only for contacts, groups only for groups', () => {
    const scheduled = campaignBodyFromForm({
      ...filled,
      targetType: 'contacts',
      tags: ' vip, , lead, vip',
      groups: ['Equipe'],
      scheduledAt: '2026-11-23T09:00',
      imageUrl: ' https://exemplo.com/a.png ',
    });
    expect(scheduled).toMatchObject({
      targetType: 'contacts',
      targetTags: ['vip', 'lead'],
      targetGroups: [],
      status: 'scheduled',
      scheduledAt: new Date(2026, 10, 23, 9, 0).toISOString(),
      imageUrl: 'https://exemplo.com/a.png',
    });
    const groups = campaignBodyFromForm({ ...filled, targetType: 'groups', tags: 'vip', groups: ['A', 'B'] });
    expect(groups).toMatchObject({ targetGroups: ['A', 'B'], targetTags: [] });
  });

  it('sends the chosen numbers; the default number sends none, or clears a saved choice', () => {
    expect(campaignBodyFromForm({ ...filled, connectionIds: ['n1', 'n2'] }).connectionIds).toEqual(['n1', 'n2']);
    expect('connectionIds' in campaignBodyFromForm(filled)).toBe(false);
    expect('connectionIds' in campaignBodyFromForm({ ...filled, connectionIds: undefined }, [])).toBe(false);
    expect(campaignBodyFromForm(filled, ['n1']).connectionIds).toEqual([]);
    expect(campaignBodyFromForm({ ...filled, connectionIds: ['n2'] }, ['n1']).connectionIds).toEqual(['n2']);
  });
});

describe('formFromCampaign', () => {
  const campaign: Campaign = {
    id: 'c1',
    name: 'Natal',
    message: 'Oi',
    status: 'scheduled',
    messagesSent: 0,
    messagesDelivered: 0,
    targetType: 'contacts',
    targetGroups: [],
    targetTags: ['vip', 'lead'],
    scheduledAt: new Date(2026, 10, 23, 9, 0).toISOString(),
    imageUrl: null,
    createdAt: new Date(2026, 10, 20).toISOString(),
  };

  it('fills the form back from a campaign, and is empty for a new one', () => {
    expect(formFromCampaign(null)).toEqual(emptyCampaignForm);
    expect(formFromCampaign(campaign)).toEqual({
      name: 'Natal',
      message: 'Oi',
      targetType: 'contacts',
      tags: 'vip, lead',
      groups: [],
      scheduledAt: '2026-11-23T09:00',
      imageUrl: '',
      templateName: '',
      templateLanguage: '',
      templateVariables: [],
    });
    expect(formFromCampaign({ ...campaign, status: 'draft' }).scheduledAt).toBe('');
  });

  it('keeps the chosen numbers, and none for the default number', () => {
    expect(formFromCampaign({ ...campaign, connectionIds: ['n1', 'n2'] }).connectionIds).toEqual(['n1', 'n2']);
    expect(formFromCampaign({ ...campaign, connectionIds: [] }).connectionIds).toBeUndefined();
  });
});

describe('campaignFormSchema', () => {
  it("reads the schedule in the browser's local time", () => {
    const now = () => new Date(2026, 10, 22, 10, 0).getTime();
    const schema = campaignFormSchema(now);
    expect(schema.safeParse({ ...filled, scheduledAt: '2026-11-22T09:59' }).success).toBe(false);
    expect(schema.safeParse({ ...filled, scheduledAt: '2026-11-22T10:30' }).success).toBe(true);
  });

  it("asks for a number when 'Escolher números' has none", () => {
    const schema = campaignFormSchema();
    const none = schema.safeParse({ ...filled, connectionIds: [] });
    expect(none.success).toBe(false);
    expect(none.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['connectionIds', campaignFormMsg.numbersRequired],
      ['root', campaignFormMsg.numbersRequired],
    ]);
    expect(schema.safeParse({ ...filled, connectionIds: ['n1'] }).success).toBe(true);
    expect(schema.safeParse(filled).success).toBe(true);
  });
});

describe('attachments, location and contact card', () => {
  const base = { ...emptyCampaignForm, name: 'Catálogo', message: '' };

  it('sends a file instead of the image, a location as numbers and a card, and allows no text', () => {
    const form = {
      ...base,
      imageUrl: 'https://exemplo.com/a.png',
      mediaUrl: 'upload:abc',
      location: { latitude: '-23,5505', longitude: '-46.6333', name: ' Loja ', address: '' },
      contactCard: { name: ' Ana ', phone: '(21) 99876-5432' },
    };
    expect(campaignFormSchema().safeParse(form).success).toBe(true);
    expect(campaignBodyFromForm(form)).toMatchObject({
      imageUrl: null,
      mediaUrl: 'upload:abc',
      location: { latitude: -23.5505, longitude: -46.6333, name: 'Loja' },
      contactCard: { name: 'Ana', phone: '(21) 99876-5432' },
    });
  });

  it('sends null for what was removed and nothing for what never was', () => {
    const removed = campaignBodyFromForm({ ...base, mediaUrl: null, location: null, contactCard: null });
    expect(removed).toMatchObject({ mediaUrl: null, location: null, contactCard: null });
    const none = campaignBodyFromForm({ ...base, message: 'Oi' });
    expect(none).not.toHaveProperty('mediaUrl');
    expect(none).not.toHaveProperty('location');
    expect(none).not.toHaveProperty('contactCard');
  });

  it('refuses an empty latitude and a short phone with the contract texts, and no text with nothing to send', () => {
    const bad = campaignFormSchema().safeParse({
      ...base,
      location: { latitude: '', longitude: '10', name: '', address: '' },
      contactCard: { name: 'Ana', phone: '123' },
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages).toContain(`location.latitude: ${sendContentMsg.latitudeInvalid}`);
    expect(messages).toContain(`contactCard.phone: ${sendContentMsg.contactPhoneInvalid}`);
    expect(campaignFormSchema().safeParse(base).success).toBe(false);
  });

  it('shows what an edited campaign carries', () => {
    const form = formFromCampaign({
      id: 'c1',
      name: 'x',
      message: '',
      status: 'draft',
      messagesSent: 0,
      messagesDelivered: 0,
      targetType: 'all',
      targetGroups: [],
      createdAt: '2026-01-01T00:00:00Z',
      mediaUrl: 'upload:f1',
      media: { kind: 'document', mimeType: 'application/pdf', fileName: 'catalogo.pdf', size: 10 },
      location: { latitude: 1.5, longitude: 2 },
      contactCard: { name: 'Ana', phone: '5521998765432' },
    } as Campaign);
    expect(form).toMatchObject({
      mediaUrl: 'upload:f1',
      mediaFile: { fileName: 'catalogo.pdf' },
      location: { latitude: '1.5', longitude: '2', name: '', address: '' },
      contactCard: { name: 'Ana', phone: '5521998765432' },
    });
    expect(campaignBodyFromForm(form)).toMatchObject({
      mediaUrl: 'upload:f1',
      location: { latitude: 1.5, longitude: 2 },
      contactCard: { name: 'Ana', phone: '5521998765432' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { type Campaign, campaignMsg } from '../../../contract/campaigns';
import { campaignBodyFromForm, emptyCampaignForm, formFromCampaign, validateCampaignForm } from './campaign-form';

const now = new Date(2026, 10, 22, 10, 0).getTime();
const filled = { ...emptyCampaignForm, name: ' Natal ', message: ' Olá {{primeiro_nome}}! ' };

describe('validateCampaignForm', () => {
  it('asks for name and message first (SPEC §5)', () => {
    expect(validateCampaignForm(emptyCampaignForm, now)).toEqual({
      errors: { name: campaignMsg.required, message: campaignMsg.required },
      toast: campaignMsg.required,
    });
    expect(validateCampaignForm({ ...filled, name: '   ' }, now).toast).toBe(campaignMsg.required);
    expect(validateCampaignForm({ ...filled, message: '\n' }, now).errors).toEqual({ message: campaignMsg.required });
  });

  it('accepts a complete draft', () => {
    expect(validateCampaignForm(filled, now)).toEqual({ errors: {}, toast: null });
  });

  it('refuses an unknown variable, groups without a choice and a schedule in the past', () => {
    expect(validateCampaignForm({ ...filled, message: 'Oi {{cidade}}' }, now).toast).toBe(
      campaignMsg.unknownVariable('cidade'),
    );
    expect(validateCampaignForm({ ...filled, targetType: 'groups' }, now).errors.groups).toBe(
      campaignMsg.groupsRequired,
    );
    expect(validateCampaignForm({ ...filled, scheduledAt: '2026-11-22T09:59' }, now).toast).toBe(
      campaignMsg.scheduledInPast,
    );
    expect(validateCampaignForm({ ...filled, scheduledAt: '2026-11-22T10:30' }, now).toast).toBeNull();
  });
});

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
});

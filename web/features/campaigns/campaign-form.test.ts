import { describe, expect, it } from 'vitest';
import { campaignFormMsg } from '#contract/campaign-form';
import type { Campaign } from '#contract/campaigns';
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

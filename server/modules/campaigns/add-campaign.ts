import type { Campaign, CreateCampaignBody } from '../../../contract/campaigns';
import type { AccountContext } from '../../plugins/account-context';
import { type Recording, record } from '../../records/events';
import { type CampaignDeps, createCampaign, duplicateCampaign } from './campaigns.service';

/** Creates a campaign (a draft, or scheduled when scheduledAt is in the future); the activity log says so. */
export async function addCampaign(
  deps: CampaignDeps & Recording,
  ctx: AccountContext,
  input: CreateCampaignBody,
): Promise<Campaign> {
  const campaign = await createCampaign(deps, ctx.userId, input);
  await record(deps.db, { kind: 'campaign_created', by: ctx, campaign: campaign.name }, deps);
  return campaign;
}

/** Copies one of the account's campaigns as a new draft; the activity log names the copy. */
export async function copyCampaign(deps: Recording, ctx: AccountContext, campaignId: string): Promise<Campaign> {
  const copy = await duplicateCampaign(deps.db, ctx.userId, campaignId);
  await record(deps.db, { kind: 'campaign_created', by: ctx, campaign: copy.name }, deps);
  return copy;
}

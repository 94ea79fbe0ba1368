import {
  CAMPAIGN_LIVE,
  CAMPAIGN_STATUS_LABELS,
  CAMPAIGN_TRANSITIONS,
  type CampaignAction,
  type CampaignStatus,
  isCampaignStatusIn,
} from '#contract/campaigns';
import type { BadgeTone } from '#web/components/ui/badge';

const TONES: Record<(typeof CAMPAIGN_STATUS_LABELS)[CampaignStatus]['color'], BadgeTone> = {
  gray: 'neutral',
  yellow: 'yellow',
  blue: 'blue',
  green: 'green',
  red: 'red',
};

/** Label and badge tone of a campaign status (SPEC §4); an unknown status shows its raw value. */
export function campaignStatus(status: string): { label: string; tone: BadgeTone } {
  if (!Object.hasOwn(CAMPAIGN_STATUS_LABELS, status)) return { label: status, tone: 'outline' };
  const { label, color } = CAMPAIGN_STATUS_LABELS[status as CampaignStatus];
  return { label, tone: TONES[color] };
}

/** Whether the card changes by itself (the engine moves it on: the contract's live group), so the list keeps polling. */
export function isRunningStatus(status: string): boolean {
  return isCampaignStatusIn(CAMPAIGN_LIVE, status);
}

/** Whether the contract lets a user action start from this status (anything else answers 409). */
export function canRunAction(action: CampaignAction, status: string): boolean {
  return isCampaignStatusIn(CAMPAIGN_TRANSITIONS[action], status);
}

export { deliveryRateTone } from '#contract/format';

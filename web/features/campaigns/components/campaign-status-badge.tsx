import { Badge } from '#web/components/ui/badge';
import { campaignStatus } from '../status';

export function CampaignStatusBadge({ status }: { status: string }) {
  const { label, tone } = campaignStatus(status);
  return <Badge tone={tone}>{label}</Badge>;
}

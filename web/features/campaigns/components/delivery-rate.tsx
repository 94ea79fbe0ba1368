import { Badge } from '#web/components/ui/badge';
import { formatPercent } from '#web/lib/format';
import type { CampaignFigures } from '../campaign-view';

/** 'Taxa de entrega' and its badge, once anything was tried: no rate before that. */
export function DeliveryRate({ figures, testId }: { figures: CampaignFigures; testId: string }) {
  if (!(figures.attempted > 0)) return null;
  return (
    <div className="flex items-center gap-2 text-sm sm:justify-end">
      <span className="text-muted-foreground">Taxa de entrega</span>
      <Badge tone={figures.tone} className="tabular-nums" data-testid={testId}>
        {formatPercent(figures.deliveryRate)}
      </Badge>
    </div>
  );
}

import { ArrowRight, Megaphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DASHBOARD_RECENT_CAMPAIGNS } from '#contract/constants';
import { countLabel } from '#contract/plural';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { type Campaign, recentCampaigns } from '#web/features/campaigns/api/get-campaigns';
import { campaignFigures } from '#web/features/campaigns/campaign-view';
import { CampaignStatusBadge } from '#web/features/campaigns/components/campaign-status-badge';
import { DeliveryRate } from '#web/features/campaigns/components/delivery-rate';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import { formatRelativeTime } from '#web/lib/format';
import { paths } from '#web/lib/paths';

type CampaignsQuery = {
  data: Campaign[] | null | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

export function RecentCampaignsCard({ query }: { query: CampaignsQuery }) {
  const { openNewCampaign } = useNewCampaign();
  let body: ReactNode;

  if (query.isPending) {
    body = (
      <ul className="grid gap-3" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <li key={i} className="grid gap-2 rounded-lg border p-4">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-full max-w-xs" />
          </li>
        ))}
      </ul>
    );
  } else if (query.isError) {
    body = (
      <ErrorState
        title="Não foi possível carregar as campanhas."
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    const items = recentCampaigns(query.data ?? [], DASHBOARD_RECENT_CAMPAIGNS);
    body =
      items.length === 0 ? (
        <EmptyState
          icon={Megaphone}
          title="Nenhuma campanha criada ainda"
          description="Crie sua primeira campanha para começar a enviar mensagens."
          action={
            <PermissionGatedButton kind="campaign" size="sm" onClick={openNewCampaign}>
              Criar campanha
            </PermissionGatedButton>
          }
        />
      ) : (
        <ul className="grid gap-3">
          {items.map((c) => {
            // The same figures as the campaign's card: one definition (contract/metrics.ts).
            const figures = campaignFigures(c);
            return (
              <li
                key={c.id}
                className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
              >
                <div className="grid min-w-0 gap-1">
                  <div className="flex min-w-0 flex-wrap items-center gap-2">
                    <p className="truncate font-medium">{c.name}</p>
                    <CampaignStatusBadge status={c.status} />
                  </div>
                  <p className="text-sm text-muted-foreground">
                    {countLabel(figures.sent, 'enviada', 'enviadas')} · {formatRelativeTime(c.createdAt)}
                  </p>
                </div>
                <DeliveryRate figures={figures} testId="recent-delivery-rate" />
              </li>
            );
          })}
        </ul>
      );
  }

  return (
    <Card className="h-full">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Campanhas Recentes</CardTitle>
          <CardDescription>{`As ${countLabel(DASHBOARD_RECENT_CAMPAIGNS, 'campanha mais recente', 'campanhas mais recentes')}.`}</CardDescription>
        </div>
        <Button asChild variant="ghost" size="sm">
          <Link to={paths.campaigns}>
            Ver todas
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

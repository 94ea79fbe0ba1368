import { Megaphone, Trophy } from 'lucide-react';
import type { ReactNode } from 'react';
import { deliveryTone, REPORT_RECENT_CAMPAIGNS, REPORT_TOP_CAMPAIGNS } from '#contract/metrics';
import { countLabel } from '#contract/plural';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { CampaignStatusBadge } from '#web/features/campaigns/components/campaign-status-badge';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import type { Report } from '#web/features/reports/api/get-report';
import { formatCount, formatDateTime, formatPercent, formatRelativeTime } from '#web/lib/format';

type Campaign = Report['recentCampaigns'][number];

function DeliveryBadge({ campaign }: { campaign: Campaign }) {
  return (
    <Badge tone={deliveryTone(campaign)} className="tabular-nums">
      {formatPercent(campaign.deliveryRate)}
    </Badge>
  );
}

/** 'Desempenho das Campanhas': the 5 newest campaigns of the period with their own figures. */
export function RecentCampaignsSection({ campaigns }: { campaigns: readonly Campaign[] }) {
  const { openNewCampaign } = useNewCampaign();
  return (
    <Card className="h-full" data-testid="report-recent-campaigns">
      <CardHeader>
        <CardTitle>Desempenho das Campanhas</CardTitle>
        <CardDescription>
          {`As ${countLabel(REPORT_RECENT_CAMPAIGNS, 'campanha mais recente', 'campanhas mais recentes')} do período.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {campaigns.length === 0 ? (
          <EmptyState
            icon={Megaphone}
            title="Nenhuma campanha criada neste período"
            description="Escolha um período maior ou crie uma campanha para acompanhar o desempenho aqui."
            action={
              <PermissionGatedButton kind="campaign" size="sm" onClick={openNewCampaign}>
                Criar campanha
              </PermissionGatedButton>
            }
          />
        ) : (
          <ul className="grid gap-3">
            {campaigns.map((c) => (
              <li key={c.id} className="grid gap-3 rounded-lg border p-4" data-testid="report-campaign">
                <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
                  <div className="flex min-w-0 flex-wrap items-center gap-2">
                    <p className="min-w-0 truncate font-medium">{c.name}</p>
                    <CampaignStatusBadge status={c.status} />
                  </div>
                  <p className="text-xs text-muted-foreground">
                    <time dateTime={c.createdAt}>
                      {`${formatDateTime(c.createdAt)} · ${formatRelativeTime(c.createdAt)}`}
                    </time>
                  </p>
                </div>
                <dl className="grid grid-cols-3 gap-x-4 gap-y-2 text-sm sm:grid-cols-6">
                  <Figure label="Enviadas" value={formatCount(c.sent)} />
                  <Figure label="Entregues" value={formatCount(c.delivered)} />
                  <Figure label="Lidas" value={formatCount(c.read)} />
                  <Figure label="Falhas" value={formatCount(c.failed)} />
                  <Figure label="Entrega" value={<DeliveryBadge campaign={c} />} />
                  <Figure label="Abertura" value={formatPercent(c.openRate)} />
                </dl>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

/** 'Top Campanhas': the 3 best of the period by read rate, then delivery rate. */
export function TopCampaignsSection({ campaigns }: { campaigns: readonly Campaign[] }) {
  return (
    <Card className="h-full" data-testid="report-top-campaigns">
      <CardHeader>
        <CardTitle>Top Campanhas</CardTitle>
        <CardDescription>
          {`As ${countLabel(REPORT_TOP_CAMPAIGNS, 'melhor', 'melhores')} por taxa de abertura, depois por taxa de entrega.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {campaigns.length === 0 ? (
          <EmptyState
            icon={Trophy}
            title="Nenhuma campanha com mensagens entregues neste período"
            description="As campanhas entram no ranking quando têm mensagens entregues."
          />
        ) : (
          <ol className="grid gap-3">
            {campaigns.map((c, i) => (
              <li key={c.id} className="flex items-start gap-3 rounded-lg border p-4" data-testid="report-top-campaign">
                <span
                  aria-hidden
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand-ink"
                >
                  {i + 1}
                </span>
                <div className="grid min-w-0 flex-1 gap-2">
                  <p className="truncate font-medium">{c.name}</p>
                  <dl className="grid grid-cols-3 gap-x-3 gap-y-1 text-sm">
                    <Figure label="Abertura" value={formatPercent(c.openRate)} />
                    <Figure label="Entrega" value={<DeliveryBadge campaign={c} />} />
                    <Figure label="Enviadas" value={formatCount(c.sent)} />
                  </dl>
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

import { BarChart3, FileText } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { deliveryRate, openRate } from '#contract/metrics';
import { LockedCard } from '#web/components/locked-state';
import {
  BotPerDayChart,
  MessagesPerDayChart,
  ReadRateByHourChart,
  ReadRateByWeekdayChart,
} from '#web/components/metrics/charts';
import { PeriodSelect } from '#web/components/metrics/period-select';
import { StatTile } from '#web/components/metrics/stat-tile';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useNewCampaign } from '#web/features/campaigns/components/new-campaign-provider';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatCount, formatPercent } from '#web/lib/format';
import { totals } from '#web/lib/metrics/chart-summaries';
import { useAnalytics } from '#web/lib/metrics/get-analytics';
import {
  periodFromSearch,
  periodToSearch,
  presetFromValue,
  presetLabel,
  resolvePeriod,
  today,
} from '#web/lib/metrics/period';
import { periodRangeLabel } from '#web/lib/metrics/time-labels';
import { paths } from '#web/lib/paths';

/**
 * The dashboard's Analytics tab: messages sent, delivered and read per day, the read rate by the
 * São Paulo hour and weekday they were sent (the best time to send), and the bot's replies and
 * conversations per day, for the last 7, 30 or 90 days (`?periodo=`).
 */
export default function AnalyticsTab() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const [searchParams, setSearchParams] = useSearchParams();
  const choice = periodFromSearch(searchParams, { allowCustom: false });
  const days = choice.kind === 'preset' ? choice.days : undefined;
  const period = resolvePeriod(choice, today());
  const analytics = useAnalytics(period, readable);
  const { openNewCampaign } = useNewCampaign();

  if (!readable) {
    return <LockedCard />;
  }

  const rangeText = `${periodRangeLabel(period)} · horário de São Paulo`;
  const header = (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">Analytics</h2>
        <p className="text-sm text-muted-foreground" data-testid="analytics-period">
          {rangeText}
        </p>
      </div>
      <PeriodSelect
        value={String(days)}
        onChange={(value) => {
          const preset = presetFromValue(value);
          if (preset)
            setSearchParams((prev) => periodToSearch({ kind: 'preset', days: preset }, prev), { replace: true });
        }}
      />
    </div>
  );

  if (analytics.isPending) {
    return (
      <div className="grid gap-6" aria-busy="true">
        {header}
        <div className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5">
          {[0, 1, 2, 3, 4].map((i) => (
            <Card key={i} className="grid gap-2 p-5">
              <Skeleton className="h-4 w-20" />
              <Skeleton className="h-8 w-16" />
            </Card>
          ))}
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          {[0, 1, 2, 3].map((i) => (
            <Card key={i} className="grid gap-4 p-6">
              <Skeleton className="h-5 w-48" />
              <Skeleton className="h-64 w-full" />
            </Card>
          ))}
        </div>
      </div>
    );
  }

  if (analytics.isError || !analytics.data) {
    return (
      <div className="grid gap-6">
        {header}
        <Card>
          <ErrorState
            title="Não foi possível carregar os gráficos."
            onRetry={() => void analytics.refetch()}
            retrying={analytics.isFetching}
          />
        </Card>
      </div>
    );
  }

  const data = analytics.data;
  const sum = totals(data.days);
  const nothing = sum.sent === 0 && sum.botReplies === 0 && sum.conversations === 0 && sum.inbound === 0;
  const periodText = days ? presetLabel(days).toLowerCase() : periodRangeLabel(period);

  return (
    <div className="grid gap-6" aria-busy={analytics.isPlaceholderData || undefined}>
      {header}
      {nothing ? (
        <Card>
          <EmptyState
            className="py-14"
            icon={BarChart3}
            title="Ainda não há dados neste período"
            description="Envie uma campanha ou ative o chatbot: os gráficos de envios, leituras e conversas aparecem aqui."
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <PermissionGatedButton kind="campaign" size="sm" onClick={openNewCampaign}>
                  Nova Campanha
                </PermissionGatedButton>
                <Button asChild variant="outline" size="sm">
                  <Link to={paths.reports}>
                    <FileText aria-hidden />
                    Ver Relatórios
                  </Link>
                </Button>
              </div>
            }
          />
        </Card>
      ) : (
        <>
          <ul
            className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5"
            aria-label={`Totais: ${periodText}`}
            data-testid="analytics-totals"
          >
            <li>
              <StatTile label="Enviadas" value={formatCount(sum.sent)} testId="analytics-sent" />
            </li>
            <li>
              <StatTile
                label="Entregues"
                value={formatCount(sum.delivered)}
                hint={`Taxa de entrega ${formatPercent(deliveryRate(sum))}`}
                testId="analytics-delivered"
              />
            </li>
            <li>
              <StatTile
                label="Lidas"
                value={formatCount(sum.read)}
                hint={`${formatPercent(openRate(sum))} das entregues`}
                testId="analytics-read"
              />
            </li>
            <li>
              <StatTile label="Respostas do bot" value={formatCount(sum.botReplies)} testId="analytics-bot-replies" />
            </li>
            <li className="col-span-2 md:col-span-1">
              <StatTile label="Conversas" value={formatCount(sum.conversations)} testId="analytics-conversations" />
            </li>
          </ul>
          <div className="grid gap-6 lg:grid-cols-2">
            <MessagesPerDayChart
              days={data.days}
              description="Mensagens de campanhas enviadas, entregues e lidas em cada dia."
            />
            <BotPerDayChart days={data.days} description="Respostas do bot e contatos que escreveram em cada dia." />
            <ReadRateByHourChart byHour={data.byHour} />
            <ReadRateByWeekdayChart byWeekday={data.byWeekday} />
          </div>
        </>
      )}
    </div>
  );
}

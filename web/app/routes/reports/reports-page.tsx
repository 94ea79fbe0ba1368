import { useSearchParams } from 'react-router';
import type { Period } from '#contract/metrics';
import { LockedState } from '#web/components/locked-state';
import { BotPerDayChart, MessagesPerDayChart } from '#web/components/metrics/charts';
import { ErrorState } from '#web/components/states';
import { Card } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useReport } from '#web/features/reports/api/get-report';
import { ReportMetrics } from '#web/features/reports/components/report-metrics';
import { ReportPdfButton } from '#web/features/reports/components/report-pdf-button';
import { ReportPeriodPicker } from '#web/features/reports/components/report-period-picker';
import { DetailedAnalysis, SystemSummary } from '#web/features/reports/components/report-summary';
import { reportsMsg } from '#web/features/reports/report-view';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import {
  type PeriodChoice,
  periodFromSearch,
  periodToSearch,
  presetLabel,
  resolvePeriod,
  today,
} from '#web/lib/metrics/period';
import { periodRangeLabel } from '#web/lib/metrics/time-labels';
import { cn } from '#web/lib/utils';
import { RecentCampaignsSection, TopCampaignsSection } from './report-campaigns';

function choiceKey(choice: PeriodChoice): string {
  return choice.kind === 'preset' ? String(choice.days) : `${choice.from}_${choice.to}`;
}

function choiceText(choice: PeriodChoice, period: Period): string {
  return choice.kind === 'preset'
    ? `${presetLabel(choice.days)} (${periodRangeLabel(period)})`
    : periodRangeLabel(period);
}

/**
 * /reports (Relatórios): the figures, campaigns, summary, analysis and charts of a period of São
 * Paulo days, the period kept in the URL (`?periodo=7|30|90` or `?from=&to=`; the last 30 days by
 * default); 'Exportar PDF' downloads the same report as a PDF.
 */
export default function ReportsPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const [searchParams, setSearchParams] = useSearchParams();
  const choice = periodFromSearch(searchParams, { allowCustom: true });
  const period = resolvePeriod(choice, today());
  const report = useReport(period, readable);

  if (!readable) {
    return (
      <Card>
        <h2 className="sr-only">Relatórios</h2>
        <LockedState className="py-16" />
      </Card>
    );
  }

  const setChoice = (next: PeriodChoice) => setSearchParams((prev) => periodToSearch(next, prev), { replace: true });
  const updating = report.isPlaceholderData;
  const data = report.data;
  const periodText = choiceText(choice, period);

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="grid gap-1">
          <h2 className="text-xl font-semibold tracking-tight">Relatório do período</h2>
          <p className="text-sm text-muted-foreground" data-testid="report-period">
            {`${periodText} · horário de São Paulo`}
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
          <ReportPeriodPicker key={choiceKey(choice)} choice={choice} period={period} onChange={setChoice} />
          <ReportPdfButton period={period} label={reportsMsg.exportLabel} className="sm:mt-6" />
        </div>
      </div>

      <p role="status" className="sr-only">
        {updating ? 'Atualizando o relatório...' : ''}
      </p>

      {report.isError ? (
        <Card>
          <ErrorState title={reportsMsg.loadError} onRetry={() => void report.refetch()} retrying={report.isFetching} />
        </Card>
      ) : !data ? (
        <ReportSkeleton />
      ) : (
        // Switching the period keeps the last report on screen, dimmed, until the new one arrives.
        <div
          className={cn('grid min-w-0 gap-6 transition-opacity', updating && 'opacity-60')}
          aria-busy={updating || undefined}
          data-testid="report-body"
        >
          <ReportMetrics report={data} />
          <div className="grid gap-6 lg:grid-cols-2">
            <MessagesPerDayChart
              days={data.series.days}
              description="Mensagens de campanhas enviadas, entregues e lidas em cada dia do período."
            />
            <BotPerDayChart
              days={data.series.days}
              description="Respostas do bot e contatos que escreveram em cada dia do período."
            />
          </div>
          <div className="grid gap-6 lg:grid-cols-3">
            <div className="min-w-0 lg:col-span-2">
              <RecentCampaignsSection campaigns={data.recentCampaigns} />
            </div>
            <div className="min-w-0">
              <TopCampaignsSection campaigns={data.topCampaigns} />
            </div>
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <SystemSummary summary={data.summary} />
            <DetailedAnalysis analysis={data.analysis} />
          </div>
        </div>
      )}
    </div>
  );
}

function ReportSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true" data-testid="report-loading">
      <div className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-6">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Card key={i} className="grid gap-2 p-5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-8 w-16" />
          </Card>
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {[0, 1].map((i) => (
          <Card key={i} className="grid gap-4 p-6">
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-64 w-full" />
          </Card>
        ))}
      </div>
    </div>
  );
}

import { RotateCcw } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { type AdminDeadJob, adminJobsMsg, jobStates } from '#contract/admin';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { formatDateTime, formatNumber } from '#web/lib/format';
import { useAdminJobs } from '../api/get-jobs';
import { useRetryJob } from '../api/retry-job';
import { jobCountRows } from './job-counts';

function DeadJobRow({ job }: { job: AdminDeadJob }) {
  const retry = useRetryJob();
  const run = () =>
    retry.mutate(job.id, {
      onSuccess: (res) => toast({ title: res.message, variant: 'success' }),
      onError: (error) =>
        toast({
          title: adminJobsMsg.retry,
          description: errorMessage(error, adminJobsMsg.notDead),
          variant: 'destructive',
        }),
    });
  return (
    <tr className="border-t align-top" data-testid="dead-job-row">
      <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-normal">
        {job.name}
      </th>
      <td className="px-3 py-2 text-right tabular-nums">{formatNumber(job.attempts)}</td>
      <td className="max-w-sm px-3 py-2 break-words text-muted-foreground">{job.lastError ?? '—'}</td>
      <td className="px-3 py-2 whitespace-nowrap">{job.finishedAt ? formatDateTime(job.finishedAt) : '—'}</td>
      <td className="px-3 py-2 break-all">{job.accountEmail ?? job.accountId ?? '—'}</td>
      <td className="px-3 py-2 text-right">
        <Button variant="outline" size="sm" onClick={run} disabled={retry.isPending}>
          {retry.isPending ? <Spinner /> : <RotateCcw aria-hidden />}
          {adminJobsMsg.retry}
        </Button>
      </td>
    </tr>
  );
}

/** /admin/users' 'Tarefas em segundo plano': the jobs counted by name and state, and the dead ones with a retry. */
export function AdminJobsSection() {
  const jobs = useAdminJobs();
  const rows = useMemo(() => jobCountRows(jobs.data?.counts ?? []), [jobs.data]);
  const dead = jobs.data?.dead ?? [];

  let body: ReactNode;
  if (jobs.isPending) {
    body = (
      <div className="grid gap-2" role="status" aria-busy="true" aria-label="Carregando tarefas">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  } else if (jobs.isError) {
    body = (
      <ErrorState
        title="Não foi possível carregar as tarefas."
        onRetry={() => void jobs.refetch()}
        retrying={jobs.isFetching}
      />
    );
  } else {
    body = (
      <div className="grid gap-6">
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{adminJobsMsg.noJobs}</p>
        ) : (
          <div className="overflow-x-auto rounded-md border">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Tarefas por tipo e estado</caption>
              <thead className="bg-muted/60 text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Tarefa
                  </th>
                  {jobStates.map((s) => (
                    <th key={s} scope="col" className="px-3 py-2 text-right font-medium">
                      {adminJobsMsg.states[s]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(([name, byState]) => (
                  <tr key={name} className="border-t" data-testid="job-count-row">
                    <th scope="row" className="px-3 py-2 text-left font-mono text-xs font-normal">
                      {name}
                    </th>
                    {jobStates.map((s) => (
                      <td key={s} className="px-3 py-2 text-right tabular-nums">
                        {formatNumber(byState[s])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="grid gap-2">
          <h4 className="text-sm font-semibold">{adminJobsMsg.deadTitle}</h4>
          {dead.length === 0 ? (
            <EmptyState icon={RotateCcw} title={adminJobsMsg.noDead} />
          ) : (
            <div className="overflow-x-auto rounded-md border">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{adminJobsMsg.deadTitle}</caption>
                <thead className="bg-muted/60 text-xs text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Tarefa
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Tentativas
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Último erro
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Falhou em
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Conta
                    </th>
                    <th scope="col" className="px-3 py-2">
                      <span className="sr-only">Ações</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {dead.map((job) => (
                    <DeadJobRow key={job.id} job={job} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </div>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{adminJobsMsg.title}</CardTitle>
        <CardDescription>{adminJobsMsg.description}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

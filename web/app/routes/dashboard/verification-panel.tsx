import { Activity, CheckCircle2, CircleHelp, History, ShieldCheck, Users, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { roleOf } from '#contract/auth';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { presenceMsg } from '#contract/presence';
import { verifyMsg } from '#contract/verification';
import { LockedState } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { toast } from '#web/components/ui/use-toast';
import { useOnlineCount } from '#web/features/presence/api/get-online-count';
import { ActiveUsersList } from '#web/features/presence/components/active-users-list';
import { ActivityLog } from '#web/features/presence/components/activity-log';
import { useVerifyList } from '#web/features/verification/api/get-verify-list';
import { errorMessage } from '#web/lib/api';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { formatNumber } from '#web/lib/format';

type View = 'online' | 'verification' | 'activity';
const VIEWS: ReadonlyArray<{ value: View; label: string; icon: typeof Users }> = [
  { value: 'online', label: presenceMsg.tabOnline, icon: Users },
  { value: 'verification', label: presenceMsg.tabVerification, icon: ShieldCheck },
  { value: 'activity', label: presenceMsg.tabActivity, icon: History },
];

/** A summary card's figure: a skeleton while it loads, '—' when there is none. */
function Figure({ value, loading }: { value: number | undefined; loading: boolean }) {
  if (loading) return <Skeleton className="h-8 w-12" />;
  return (
    <span className="text-2xl font-semibold tabular-nums" data-testid="figure">
      {value === undefined ? '—' : formatNumber(value)}
    </span>
  );
}

/** A summary card: its icon and label, the figure, and a note under it once the figures are in. */
function CountCard({
  testId,
  icon: Icon,
  label,
  value,
  loading,
  note,
}: {
  testId: string;
  icon: typeof Users;
  label: string;
  value: number | undefined;
  loading: boolean;
  note: string | null;
}) {
  return (
    <Card className="grid content-start gap-1 p-5" data-testid={testId}>
      <span className="flex items-center gap-2 text-sm text-muted-foreground">
        <Icon aria-hidden className="size-4 text-brand-strong" />
        {label}
      </span>
      <Figure value={value} loading={loading} />
      {note === null ? null : <span className="text-xs text-muted-foreground">{note}</span>}
    </Card>
  );
}

/**
 * Dashboard 'Verificação' tab (SPEC §2 Verification screen): three summary cards — 'Usuários
 * Online', 'Total Ativos' (polled every 30 s) and the WhatsApp number verification button — and the
 * tabs online (active users, every 10 s), verification (which contacts have WhatsApp) and activity
 * (the account's event log).
 */
export function VerificationPanel() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const isAdmin = roleOf(user) === 'admin';
  const [view, setView] = useState<View>('online');
  const counts = useOnlineCount(readable);
  const [started, setStarted] = useState(false);
  const verify = useVerifyList(started);
  const data = verify.data;
  const running = verify.isFetching && !data ? true : data?.progress.status === 'running';
  const reported = useRef<string | null>(null);

  useEffect(() => {
    if (!started) return;
    if (verify.isError) {
      if (reported.current === 'error') return;
      reported.current = 'error';
      toast({
        title: verifyMsg.errorTitle,
        description: errorMessage(verify.error, verifyMsg.error),
        variant: 'destructive',
      });
      return;
    }
    if (!data || data.progress.status === 'running' || reported.current === `done-${verify.dataUpdatedAt}`) return;
    reported.current = `done-${verify.dataUpdatedAt}`;
    if (data.progress.status === 'error') {
      toast({
        title: verifyMsg.errorTitle,
        description: data.progress.error ?? verifyMsg.error,
        variant: 'destructive',
      });
    } else {
      toast({
        title: verifyMsg.done,
        description: verifyMsg.doneDetail(data.activeContacts, data.totalContacts),
        variant: 'success',
      });
    }
  }, [started, verify.isError, verify.error, data, verify.dataUpdatedAt]);

  const start = () => {
    reported.current = null;
    setView('verification');
    if (started) void verify.refetch();
    else setStarted(true);
  };

  const percent = data && data.totalContacts > 0 ? Math.round((data.progress.checked / data.totalContacts) * 100) : 0;
  const countsLoading = readable && counts.isPending;

  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        {[
          {
            testId: 'online-card',
            icon: Activity,
            label: presenceMsg.online,
            value: counts.data?.currentlyOnline,
            note: counts.data ? `${formatNumber(counts.data.offlineRecently)} ${presenceMsg.offlineRecently}` : null,
          },
          {
            testId: 'total-active-card',
            icon: Users,
            label: presenceMsg.totalActive,
            value: counts.data?.totalActive,
            note: counts.data ? presenceMsg.totalActiveHint : null,
          },
        ].map((card) => (
          <CountCard key={card.testId} {...card} loading={countsLoading} />
        ))}
        <Card className="grid content-between gap-3 p-5">
          <span className="text-sm text-muted-foreground">Verificação de WhatsApp</span>
          <PermissionGatedButton
            icon={running ? <Spinner /> : <ShieldCheck aria-hidden />}
            onClick={start}
            disabled={running}
          >
            {running ? verifyMsg.running : 'Verificar Contatos'}
          </PermissionGatedButton>
        </Card>
      </div>

      <Tabs value={view} onValueChange={(v) => setView(v as View)} className="min-w-0">
        <TabsList aria-label="Seções da verificação" className="w-full sm:w-auto">
          {VIEWS.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value}>
              <Icon aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>

        <TabsContent value="online" className="mt-4">
          {readable ? (
            <ActiveUsersList userId={user.id} isAdmin={isAdmin} />
          ) : (
            <Card>
              <LockedState className="py-12" />
            </Card>
          )}
        </TabsContent>

        <TabsContent value="verification" className="mt-4">
          <Card>
            <CardHeader>
              <CardTitle>Verificação de contatos</CardTitle>
              <CardDescription>
                Os números são verificados aos poucos, em pequenos lotes, para não sinalizar o seu número. O resultado
                fica guardado e é refeito após 7 dias.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {data ? (
                <>
                  <dl className="grid grid-cols-2 gap-3">
                    <div className="grid gap-0.5 rounded-md border p-3">
                      <dt className="text-xs text-muted-foreground">Com WhatsApp</dt>
                      <dd className="text-lg font-semibold tabular-nums">{formatNumber(data.activeContacts)}</dd>
                    </div>
                    <div className="grid gap-0.5 rounded-md border p-3">
                      <dt className="text-xs text-muted-foreground">Sem WhatsApp</dt>
                      <dd className="text-lg font-semibold tabular-nums">{formatNumber(data.inactiveContacts)}</dd>
                    </div>
                  </dl>
                  <div className="grid gap-2" aria-live="polite">
                    <div className="flex justify-between text-sm">
                      <span>
                        {formatNumber(data.progress.checked)} de{' '}
                        {countLabel(data.totalContacts, 'contato verificado', 'contatos verificados')}
                      </span>
                      <span className="tabular-nums">{percent}%</span>
                    </div>
                    <div
                      role="progressbar"
                      aria-label="Progresso da verificação"
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={percent}
                      className="h-2 overflow-hidden rounded-full bg-muted"
                    >
                      <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
                    </div>
                  </div>
                </>
              ) : null}
              {!data ? (
                <EmptyState
                  icon={ShieldCheck}
                  title="Nenhuma verificação ainda"
                  description="Clique em Verificar Contatos para saber quais contatos usam WhatsApp."
                />
              ) : data.contacts.length === 0 ? (
                <EmptyState icon={ShieldCheck} title="Nenhum contato para verificar" />
              ) : (
                <ul
                  className="grid max-h-96 divide-y overflow-y-auto rounded-md border"
                  aria-label="Contatos verificados"
                >
                  {data.contacts.map((c) => (
                    <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                      <span className="grid min-w-0">
                        <span className="truncate font-medium">{c.name || formatPhone(c.phone)}</span>
                        <span className="font-mono text-xs text-muted-foreground">{formatPhone(c.phone)}</span>
                      </span>
                      {c.isWhatsAppActive === true ? (
                        <Badge tone="green">
                          <CheckCircle2 aria-hidden />
                          Ativo
                        </Badge>
                      ) : c.isWhatsAppActive === false ? (
                        <Badge tone="red">
                          <XCircle aria-hidden />
                          Sem WhatsApp
                        </Badge>
                      ) : (
                        <Badge tone="neutral">
                          <CircleHelp aria-hidden />
                          Pendente
                        </Badge>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="activity" className="mt-4">
          {readable ? (
            <ActivityLog />
          ) : (
            <Card>
              <LockedState className="py-12" />
            </Card>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}

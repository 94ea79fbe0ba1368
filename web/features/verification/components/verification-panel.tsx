import { CheckCircle2, CircleHelp, ShieldCheck, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { formatPhone } from '../../../../contract/phone';
import { countLabel } from '../../../../contract/plural';
import { verifyMsg } from '../../../../contract/verification';
import { EmptyState } from '../../../components/states';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { formatNumber } from '../../../lib/format';
import { PermissionGatedButton } from '../../auth/components/permission-gated-button';
import { useVerifyList } from '../api/get-verify-list';

/** Dashboard 'Verificação' tab: checks which contacts have WhatsApp, in the background, and shows the result. */
export function VerificationPanel() {
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
    if (started) void verify.refetch();
    else setStarted(true);
  };

  const percent = data && data.totalContacts > 0 ? Math.round((data.progress.checked / data.totalContacts) * 100) : 0;

  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <Card className="grid gap-1 p-5">
          <span className="text-sm text-muted-foreground">Com WhatsApp</span>
          <span className="text-2xl font-semibold tabular-nums">{data ? formatNumber(data.activeContacts) : '—'}</span>
        </Card>
        <Card className="grid gap-1 p-5">
          <span className="text-sm text-muted-foreground">Sem WhatsApp</span>
          <span className="text-2xl font-semibold tabular-nums">
            {data ? formatNumber(data.inactiveContacts) : '—'}
          </span>
        </Card>
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

      <Card>
        <CardHeader>
          <CardTitle>Verificação de contatos</CardTitle>
          <CardDescription>
            Os números são verificados aos poucos, em pequenos lotes, para não sinalizar o seu número. O resultado fica
            guardado e é refeito após 7 dias.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {data ? (
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
            <ul className="grid max-h-96 divide-y overflow-y-auto rounded-md border" aria-label="Contatos verificados">
              {data.contacts.map((c) => (
                <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                  <span className="grid min-w-0">
                    <span className="truncate font-medium">{c.name}</span>
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
    </div>
  );
}

import { ArrowRight, QrCode, Smartphone, Wifi, WifiOff } from 'lucide-react';
import { type ReactNode, type Ref, useState } from 'react';
import { Link } from 'react-router';
import type { ConnectionView } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { ConnectionBadges } from '#web/components/connection-badges';
import { LockedState } from '#web/components/locked-state';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { paths } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { connectionView, useWhatsappSession } from '#web/lib/queries/get-whatsapp-session';
import { cn } from '#web/lib/utils';
import { ConnectWhatsappDialog } from './connect-whatsapp-dialog';
import { DisconnectWhatsappButton } from './disconnect-dialog';
import { SendingChannelNote } from './sending-channel-note';

export const WHATSAPP_CARD_ID = 'whatsapp-connection';

const VIEWS = {
  offline: { label: 'Offline', detail: 'Abra o WhatsApp Web para conectar', icon: WifiOff, tone: 'neutral' },
  detecting: {
    label: 'Detectando número...',
    detail: 'Conectado - Aguardando número...',
    icon: Smartphone,
    tone: 'yellow',
  },
  online: { label: 'Online', detail: 'Pronto para enviar mensagens', icon: Wifi, tone: 'green' },
} as const;

/** An account with several numbers: each one with its state, the default marked, and the way to the 'Números' page. */
function NumbersList({ connections }: { connections: readonly ConnectionView[] }) {
  return (
    <div className="grid gap-4">
      <ul className="grid gap-2" aria-label="Números de WhatsApp" data-testid="whatsapp-numbers">
        {connections.map((c) => {
          return (
            <li
              key={c.id}
              className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/50 px-3 py-2"
              data-testid="whatsapp-number"
            >
              <div className="grid min-w-0">
                <span className="truncate text-sm font-semibold">{c.label}</span>
                <span className="text-xs text-muted-foreground tabular-nums">
                  {c.phoneNumber ? formatPhone(c.phoneNumber) : 'Número ainda não identificado'}
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-1.5">
                <ConnectionBadges connection={c} showPaused={false} />
              </div>
            </li>
          );
        })}
      </ul>
      <Button asChild variant="outline" className="w-full sm:w-auto sm:justify-self-start">
        <Link to={paths.connections}>
          Gerenciar números
          <ArrowRight aria-hidden />
        </Link>
      </Button>
    </div>
  );
}

/**
 * WhatsApp connection status (SPEC §4), driven by the 2-second session poll. An account with two
 * numbers or more sees the list of its numbers instead, with the way to manage them.
 */
export function ConnectionStatusCard({
  headingRef,
  onConnect,
}: {
  headingRef?: Ref<HTMLHeadingElement>;
  /** Opens the page's connect dialog; without it the card keeps its own. */
  onConnect?: () => void;
}) {
  const user = useAuthenticatedUser();
  const session = useWhatsappSession();
  const connections = useConnections();
  const [dialogOpen, setDialogOpen] = useState(false);
  const openConnect = onConnect ?? (() => setDialogOpen(true));
  const allowed = canReadWorkspace(user);

  const numbers = connections.data?.connections ?? [];
  const several = allowed && numbers.length >= 2;
  const connectedCount = numbers.filter((c) => c.status === 'connected').length;

  let body: ReactNode;
  if (!allowed) {
    body = <LockedState className="py-4" />;
  } else if (several) {
    body = <NumbersList connections={numbers} />;
  } else if (session.isPending) {
    body = (
      <div className="grid gap-3" aria-hidden>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-10 w-40" />
      </div>
    );
  } else if (session.isError) {
    body = (
      <ErrorState
        className="py-4"
        title="Não foi possível verificar a conexão."
        onRetry={() => void session.refetch()}
        retrying={session.isFetching}
      />
    );
  } else {
    const data = session.data;
    const view = connectionView(data);
    const v = VIEWS[view];
    const starting = data?.state === 'connecting' || data?.state === 'qr';
    body = (
      <div className="grid gap-4">
        <div className="flex items-center gap-3 rounded-lg border bg-muted/50 p-3" data-testid="whatsapp-status">
          <span
            className={cn(
              'flex size-10 shrink-0 items-center justify-center rounded-full',
              view === 'online'
                ? 'bg-brand-soft text-brand-strong'
                : view === 'detecting'
                  ? 'bg-amber-100 text-amber-800'
                  : 'bg-zinc-200 text-zinc-700',
            )}
          >
            <v.icon aria-hidden className="size-5" />
          </span>
          <div className="min-w-0">
            <p className="font-semibold">{v.label}</p>
            <p className="text-sm text-muted-foreground">{v.detail}</p>
            {view === 'online' && data?.phoneNumber ? (
              <p className="mt-0.5 text-sm font-medium tabular-nums">{data.phoneNumber}</p>
            ) : null}
          </div>
        </div>

        {view === 'offline' && data?.state === 'qr' ? (
          <p className="flex items-start gap-2 rounded-md bg-blue-50 p-3 text-sm text-blue-900">
            <QrCode aria-hidden className="mt-0.5 size-4 shrink-0" />
            QR code gerado. Abra o WhatsApp no celular, toque em Aparelhos conectados e escaneie o código.
          </p>
        ) : null}

        <SendingChannelNote />

        <div className="flex flex-wrap gap-2">
          {view === 'offline' ? (
            <PermissionGatedButton
              className="w-full sm:w-auto"
              icon={starting ? <Spinner /> : <Smartphone aria-hidden />}
              onClick={openConnect}
            >
              {data?.state === 'qr' ? 'Ver QR code' : data?.state === 'connecting' ? 'Conectando...' : 'Conectar agora'}
            </PermissionGatedButton>
          ) : (
            <DisconnectWhatsappButton />
          )}
        </div>
      </div>
    );
  }

  const view = allowed && session.data ? connectionView(session.data) : 'offline';
  return (
    <Card id={WHATSAPP_CARD_ID} className="scroll-mt-24">
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle ref={headingRef} tabIndex={-1} className="focus-visible:outline-none">
            Conexão WhatsApp
          </CardTitle>
          <CardDescription>
            {several
              ? `${connectedCount} de ${numbers.length} números conectados.`
              : 'Sessão do WhatsApp usada para enviar mensagens.'}
          </CardDescription>
        </div>
        {several ? null : allowed && !session.isPending && !session.isError ? (
          <Badge tone={VIEWS[view].tone}>
            {view === 'online' ? 'Conectado' : view === 'detecting' ? 'Conectado' : 'Desconectado'}
          </Badge>
        ) : null}
      </CardHeader>
      <CardContent>{body}</CardContent>
      {onConnect ? null : <ConnectWhatsappDialog open={dialogOpen} onOpenChange={setDialogOpen} />}
    </Card>
  );
}

import { ArrowRight, QrCode, Smartphone, Unplug } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ConnectionView } from '#contract/connections';
import { formatPhone } from '#contract/phone';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { ConnectionBadges } from '#web/components/connection-badges';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { paths } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { disconnectOutcome, useDisconnectConnection } from '../api/disconnect-connection';
import { ConnectConnectionDialog } from './connect-connection-dialog';
import { isPairing, needsPairing } from './connection-labels';

/**
 * The dashboard's WhatsApp quick action when the account has several numbers: the person picks the
 * number to connect (its QR code, as on 'Números') or to disconnect (after confirming), instead of
 * the action reaching the default number only. Cloud API numbers have no session: they are listed
 * with their state, and managed on 'Números'.
 */
export function ChooseNumberDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const connections = useConnections();
  const disconnect = useDisconnectConnection();
  const [pairing, setPairing] = useState<ConnectionView | null>(null);
  const [disconnecting, setDisconnecting] = useState<ConnectionView | null>(null);
  const list = connections.data?.connections ?? [];

  // The chooser gives way to the chosen action's own dialog.
  const choose = (c: ConnectionView, then: (c: ConnectionView) => void) => {
    onOpenChange(false);
    then(c);
  };

  const confirmDisconnect = () => {
    if (!disconnecting) return;
    disconnect.mutate(
      disconnecting.id,
      disconnectOutcome(() => setDisconnecting(null)),
    );
  };

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Qual número?</DialogTitle>
            <DialogDescription>Escolha o número de WhatsApp que você quer conectar ou desconectar.</DialogDescription>
          </DialogHeader>
          <ul className="grid gap-2" aria-label="Números de WhatsApp" data-testid="choose-number-list">
            {list.map((c) => (
              <li
                key={c.id}
                className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/50 px-3 py-2"
                data-testid="choose-number"
              >
                <div className="grid min-w-0 gap-1">
                  <span className="truncate text-sm font-semibold">{c.label}</span>
                  <span className="text-xs text-muted-foreground tabular-nums">
                    {c.phoneNumber ? formatPhone(c.phoneNumber) : 'Número ainda não identificado'}
                  </span>
                  <span className="flex flex-wrap items-center gap-1.5">
                    <ConnectionBadges connection={c} />
                  </span>
                </div>
                <NumberAction
                  connection={c}
                  onConnect={() => choose(c, setPairing)}
                  onDisconnect={() => choose(c, setDisconnecting)}
                />
              </li>
            ))}
          </ul>
          <DialogFooter className="sm:justify-between">
            <Button asChild variant="link" className="px-0">
              <Link to={paths.connections}>
                Gerenciar números
                <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Fechar
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConnectConnectionDialog connection={pairing} onOpenChange={(next) => !next && setPairing(null)} />
      <ConfirmDialog
        open={disconnecting !== null}
        onCancel={() => setDisconnecting(null)}
        title={`Desconectar ${disconnecting?.label ?? 'número'}?`}
        description={`${disconnecting?.label ?? 'O número'} para de enviar e de receber mensagens até você escanear o QR code de novo.`}
        confirmLabel="Desconectar"
        pending={disconnect.isPending}
        onConfirm={confirmDisconnect}
      />
    </>
  );
}

/** What the chooser offers for one number: connect it, see its QR code again, or disconnect it. */
function NumberAction({
  connection: c,
  onConnect,
  onDisconnect,
}: {
  connection: ConnectionView;
  onConnect: () => void;
  onDisconnect: () => void;
}) {
  // Each button names its number for screen readers: 'Conectar Vendas'.
  const of = <span className="sr-only"> {c.label}</span>;
  if (c.kind === 'cloud') {
    return <span className="text-xs text-muted-foreground">API oficial: sem QR code</span>;
  }
  if (needsPairing(c.status) || isPairing(c.status)) {
    return (
      <PermissionGatedButton
        size="sm"
        icon={needsPairing(c.status) ? <Smartphone aria-hidden /> : <QrCode aria-hidden />}
        onClick={onConnect}
      >
        {needsPairing(c.status) ? 'Conectar' : 'Ver QR code'}
        {of}
      </PermissionGatedButton>
    );
  }
  return (
    <PermissionGatedButton size="sm" variant="outline" icon={<Unplug aria-hidden />} onClick={onDisconnect}>
      Desconectar
      {of}
    </PermissionGatedButton>
  );
}

import type { ConnectionView } from '#contract/connections';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog';
import { isPairing } from './connection-labels';
import { PairingPanel } from './pairing-panel';

/** 'Conectar' on a personal number's row: the same pairing as after 'Adicionar número'. */
export function ConnectConnectionDialog({
  connection,
  onOpenChange,
}: {
  /** The number to pair; null closes the dialog. */
  connection: ConnectionView | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={connection !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Conectar {connection?.label}</DialogTitle>
          <DialogDescription>Conecte pelo WhatsApp do celular que vai enviar as mensagens.</DialogDescription>
        </DialogHeader>
        {connection ? (
          <PairingPanel
            key={connection.id}
            connectionId={connection.id}
            // A number already pairing keeps its QR code; one that is not starts now.
            start={!isPairing(connection.status)}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

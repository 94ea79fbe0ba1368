import { useState } from 'react';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { PermissionGatedButton, type PermissionGatedButtonProps } from '#web/components/permission-gated-button';
import { useDisconnectWhatsapp } from '../api/disconnect-whatsapp';

/**
 * 'Desconectar' with confirmation (SPEC §2, §4): while the call runs the confirm button reads
 * 'Desconectando...'; on success the session is refetched and the dialog closes; on failure it
 * stays open (logged to the console only).
 */
export function DisconnectWhatsappButton(trigger: Omit<PermissionGatedButtonProps, 'children' | 'onClick'>) {
  const [open, setOpen] = useState(false);
  const disconnect = useDisconnectWhatsapp();

  return (
    <>
      <PermissionGatedButton variant="outline" className="w-full sm:w-auto" {...trigger} onClick={() => setOpen(true)}>
        Desconectar
      </PermissionGatedButton>
      <ConfirmDialog
        open={open}
        onCancel={() => setOpen(false)}
        title="Desconectar WhatsApp?"
        description="O envio de mensagens será interrompido e você precisará escanear o QR code novamente para reconectar."
        confirmLabel="Desconectar"
        pendingLabel="Desconectando..."
        pending={disconnect.isPending}
        onConfirm={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => setOpen(false),
            onError: (error) => console.error('Falha ao desconectar o WhatsApp', error),
          })
        }
      />
    </>
  );
}

import { useState } from 'react';
import { PermissionGatedButton, type PermissionGatedButtonProps } from '#web/components/permission-gated-button';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useDisconnectWhatsapp } from '../api/disconnect-whatsapp';

/**
 * 'Desconectar' with confirmation (SPEC §2, §4): while the call runs the
 * buttons give way to 'Desconectando...'; on success the session is refetched
 * and the dialog closes; on failure it stays open (logged to the console only).
 */
export function DisconnectWhatsappButton(trigger: Omit<PermissionGatedButtonProps, 'children' | 'onClick'>) {
  const [open, setOpen] = useState(false);
  const disconnect = useDisconnectWhatsapp();

  return (
    <AlertDialog open={open} onOpenChange={(next) => !disconnect.isPending && setOpen(next)}>
      <PermissionGatedButton variant="outline" className="w-full sm:w-auto" {...trigger} onClick={() => setOpen(true)}>
        Desconectar
      </PermissionGatedButton>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Desconectar WhatsApp?</AlertDialogTitle>
          <AlertDialogDescription>
            O envio de mensagens será interrompido e você precisará escanear o QR code novamente para reconectar.
          </AlertDialogDescription>
        </AlertDialogHeader>
        {disconnect.isPending ? (
          <p role="status" className="flex items-center justify-center gap-2 py-2 text-sm font-medium">
            <Spinner className="size-5 text-brand-strong" />
            Desconectando...
          </p>
        ) : (
          <AlertDialogFooter>
            <AlertDialogCancel>Cancelar</AlertDialogCancel>
            <AlertDialogAction
              destructive
              onClick={(event) => {
                event.preventDefault();
                disconnect.mutate(undefined, {
                  onSuccess: () => setOpen(false),
                  onError: (error) => console.error('Falha ao desconectar o WhatsApp', error),
                });
              }}
            >
              Desconectar
            </AlertDialogAction>
          </AlertDialogFooter>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

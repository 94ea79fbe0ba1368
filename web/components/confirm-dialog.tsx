import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';
import { Spinner } from './ui/spinner';

/**
 * The one confirmation of the app ('Excluir', 'Desconectar', 'Confirmar', 'Sair sem salvar'): stays
 * open and busy while `pending` (its confirm button then reads `pendingLabel`), cannot be dismissed
 * meanwhile, and calls `onConfirm` instead of closing itself (the caller closes it on success).
 * `children` go between the text and the buttons (what is about to change); `destructive={false}`
 * for a confirmation that destroys nothing; `confirmDisabled` while what it asks about is loading.
 */
export function ConfirmDialog({
  open,
  onCancel,
  title,
  description,
  children,
  confirmLabel = 'Excluir',
  pendingLabel,
  cancelLabel = 'Cancelar',
  destructive = true,
  pending = false,
  confirmDisabled = false,
  onConfirm,
  testId,
}: {
  open: boolean;
  onCancel: () => void;
  title: string;
  description: ReactNode;
  children?: ReactNode;
  confirmLabel?: string;
  pendingLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  pending?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  testId?: string;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <AlertDialogContent data-testid={testId}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
          <AlertDialogAction
            destructive={destructive}
            disabled={pending || confirmDisabled}
            onClick={(event) => {
              event.preventDefault();
              onConfirm();
            }}
          >
            {pending ? <Spinner /> : null}
            {pending && pendingLabel ? pendingLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

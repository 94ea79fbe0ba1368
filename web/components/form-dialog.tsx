import type { FormEventHandler, ReactNode } from 'react';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './ui/dialog';
import { Spinner } from './ui/spinner';

/**
 * A dialog that is one form: title and description, the fields, then 'Cancelar' and the submit button,
 * which shows a spinner (and `pendingLabel` when given) while the save runs. With `lockWhilePending`
 * the dialog cannot be closed, nor 'Cancelar' pressed, until the save answers.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  className = 'sm:max-w-lg',
  onSubmit,
  pending,
  submitLabel,
  pendingLabel,
  lockWhilePending = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  className?: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  submitLabel: ReactNode;
  pendingLabel?: ReactNode;
  lockWhilePending?: boolean;
  children: ReactNode;
}) {
  const locked = lockWhilePending && pending;
  return (
    <Dialog open={open} onOpenChange={(next) => !locked && onOpenChange(next)}>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          {children}
          <DialogFooter>
            <Button variant="outline" disabled={locked || undefined} onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {pending && pendingLabel ? pendingLabel : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

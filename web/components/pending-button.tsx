import type { ReactNode } from 'react';
import { Button, type ButtonProps } from './ui/button';
import { Spinner } from './ui/spinner';

/** A button that shows a spinner and `pendingLabel` (when given) while its action runs, and is disabled meanwhile. */
export function PendingButton({
  pending,
  pendingLabel,
  disabled,
  children,
  ...props
}: ButtonProps & { pending: boolean; pendingLabel?: ReactNode }) {
  return (
    <Button disabled={pending || disabled} {...props}>
      {pending ? <Spinner /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}

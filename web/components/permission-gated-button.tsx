import { MessageCircle } from 'lucide-react';
import { type MouseEvent, type ReactNode, useId } from 'react';
import { type ActionKind, REQUEST_APPROVAL_LABEL } from '../lib/auth/permissions';
import { useCanAct } from '../lib/auth/use-can-act';
import { cn } from '../lib/utils';
import { Button, type ButtonProps } from './ui/button';

export type PermissionGatedButtonProps = Omit<ButtonProps, 'asChild' | 'children'> & {
  kind?: ActionKind;
  icon?: ReactNode;
  children: ReactNode;
  /** Classes for the label (e.g. 'max-sm:sr-only' for an icon-only button on phones). */
  labelClassName?: string;
  /**
   * A shorter label shown instead of the label on phones (below 640 px), where the label is then
   * read by screen readers only: the button keeps its full accessible name.
   */
  compactLabel?: string;
  /** Also print the reason under a disabled button (it is always in the tooltip and accessible description). */
  showHint?: boolean;
  /** Classes for the wrapper that holds a disabled button and its printed hint. */
  wrapperClassName?: string;
};

/**
 * A button for an action the account may not be allowed to run (SPEC §4, §6):
 * allowed → the button; pending/deactivated → 'Solicitar Aprovação' opening a
 * WhatsApp chat with the provider; demo → disabled with the reason. The screen's
 * width plays no part (docs/decisions/025-working-from-a-phone.md).
 */
export function PermissionGatedButton({
  kind = 'other',
  icon,
  children,
  labelClassName,
  compactLabel,
  showHint = false,
  wrapperClassName,
  className,
  onClick,
  variant,
  size,
  ...props
}: PermissionGatedButtonProps) {
  const can = useCanAct(kind);
  const hintId = useId();
  const label = compactLabel ? (
    <>
      <span aria-hidden className="sm:hidden">
        {compactLabel}
      </span>
      <span className={cn('max-sm:sr-only', labelClassName)}>{children}</span>
    </>
  ) : (
    <span className={labelClassName}>{children}</span>
  );

  if (can.state === 'allowed') {
    return (
      <Button variant={variant} size={size} className={className} onClick={onClick} {...props}>
        {icon}
        {label}
      </Button>
    );
  }

  if (can.state === 'request-approval') {
    const label = <span className={labelClassName}>{REQUEST_APPROVAL_LABEL}</span>;
    if (!can.approvalLink) {
      return (
        <Button variant={variant} size={size} className={className} disabled title={can.hint}>
          <MessageCircle aria-hidden />
          {label}
        </Button>
      );
    }
    return (
      <Button asChild variant={variant} size={size} className={className} title={can.hint}>
        <a href={can.approvalLink} target="_blank" rel="noopener noreferrer">
          <MessageCircle aria-hidden />
          {label}
        </a>
      </Button>
    );
  }

  // aria-disabled (not `disabled`) keeps the button focusable so its reason is read out.
  const block = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <span
      className={cn(showHint ? 'inline-flex flex-col items-stretch gap-1 text-center' : 'contents', wrapperClassName)}
    >
      <Button
        variant={variant}
        size={size}
        className={className}
        aria-disabled="true"
        aria-describedby={hintId}
        title={can.hint}
        onClick={block}
        {...props}
        type="button"
      >
        {icon}
        {label}
      </Button>
      <span id={hintId} className={showHint ? 'text-xs text-muted-foreground' : 'sr-only'}>
        {can.hint}
      </span>
    </span>
  );
}

import { MessageCircle } from 'lucide-react';
import { type MouseEvent, type ReactNode, useId } from 'react';
import type { TeamRole } from '#contract/auth';
import { type ActionKind, REQUEST_APPROVAL_LABEL } from '#web/lib/auth/permissions';
import { useApprovalLink, useCanAct, useTeamAllows } from '#web/lib/auth/use-can-act';
import { cn } from '#web/lib/utils';
import { Button, type ButtonProps } from './ui/button';

export type PermissionGatedButtonProps = Omit<ButtonProps, 'asChild' | 'children'> & {
  kind?: ActionKind;
  /**
   * The least team role the action's route admits (server/plugins/access.ts): below it the button is
   * not rendered at all. `manager` unless given, as on the server; an action an agent may run (reply
   * in Conversas, add or edit a contact) says `agent`.
   */
  team?: TeamRole;
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
 * allowed → the button; demo, pending or deactivated → disabled with the reason
 * ('Sua conta aguarda aprovação…'). A pending or deactivated account asks for
 * approval through the one `RequestApprovalButton` of the account notice at the
 * top of the shell: six buttons all saying 'Solicitar Aprovação' told the user
 * nothing more. The screen's width plays no part
 * (docs/decisions/025-working-from-a-phone.md). A team member whose role does not reach `team`
 * does not see it.
 */
export function PermissionGatedButton({
  kind = 'other',
  team = 'manager',
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
  const teamAllowed = useTeamAllows(team);
  const hintId = useId();
  if (!teamAllowed) return null;
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

  // The account notice already says, once, that a pending or deactivated account waits: the reason
  // stays in the tooltip and the accessible description rather than printed under every button.
  const printHint = showHint && can.state !== 'request-approval';
  // aria-disabled (not `disabled`) keeps the button focusable so its reason is read out.
  const block = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();
  return (
    <span
      className={cn(printHint ? 'inline-flex flex-col items-stretch gap-1 text-center' : 'contents', wrapperClassName)}
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
      <span id={hintId} className={printHint ? 'text-xs text-muted-foreground' : 'sr-only'}>
        {can.hint}
      </span>
    </span>
  );
}

/**
 * 'Solicitar Aprovação' (SPEC §4): a WhatsApp chat with the provider carrying the user's e-mail.
 * Shown once, in the account notice; disabled until the support number is known.
 */
export function RequestApprovalButton({ className, size }: Pick<ButtonProps, 'className' | 'size'>) {
  const approvalLink = useApprovalLink();
  if (!approvalLink) {
    return (
      <Button size={size} className={className} disabled>
        <MessageCircle aria-hidden />
        {REQUEST_APPROVAL_LABEL}
      </Button>
    );
  }
  return (
    <Button asChild size={size} className={className}>
      <a href={approvalLink} target="_blank" rel="noopener noreferrer">
        <MessageCircle aria-hidden />
        {REQUEST_APPROVAL_LABEL}
      </a>
    </Button>
  );
}

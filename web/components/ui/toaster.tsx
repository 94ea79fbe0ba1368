import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { Toast } from 'radix-ui';
import { TOAST } from '#contract/constants';
import { cn } from '#web/lib/utils';
import { dismissToast, type ToastVariant, useToasts } from './use-toast';

const variantStyles: Record<ToastVariant, string> = {
  default: 'border-border bg-card text-card-foreground',
  success: 'border-emerald-200 bg-card text-card-foreground',
  destructive: 'border-red-700 bg-red-700 text-white',
};

const variantIcons = {
  default: Info,
  success: CircleCheck,
  destructive: CircleAlert,
} as const;

/** The toast area (Radix Toast): swipe right to dismiss, F8 focuses it, 5 s each. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider
      duration={TOAST.durationMs}
      swipeDirection="right"
      swipeThreshold={TOAST.swipeThresholdPx}
      label="Notificação"
    >
      {toasts.map((t) => {
        const Icon = variantIcons[t.variant ?? 'default'];
        const destructive = t.variant === 'destructive';
        return (
          <Toast.Root
            key={t.id}
            open={t.open}
            duration={t.durationMs}
            type={destructive ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) dismissToast(t.id);
            }}
            className={cn(
              'toast-root pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg data-[state=closed]:animate-fade-out data-[state=open]:animate-toast-in',
              variantStyles[t.variant ?? 'default'],
            )}
          >
            <Icon
              aria-hidden
              className={cn(
                'mt-0.5 size-5 shrink-0',
                destructive ? 'text-white' : t.variant === 'success' ? 'text-brand-strong' : 'text-muted-foreground',
              )}
            />
            <div className="grid min-w-0 gap-1">
              <Toast.Title className="text-sm font-semibold">{t.title}</Toast.Title>
              {t.description ? (
                <Toast.Description className={cn('text-sm', destructive ? 'text-white' : 'text-muted-foreground')}>
                  {t.description}
                </Toast.Description>
              ) : null}
            </div>
            <Toast.Close
              aria-label="Fechar notificação"
              className={cn(
                'absolute top-3 right-3 rounded-md p-1 transition-colors focus-visible:outline-2',
                destructive
                  ? 'text-white/90 hover:bg-white/10 focus-visible:outline-white'
                  : 'text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-ring',
              )}
            >
              <X aria-hidden className="size-4" />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport
        hotkey={[TOAST.hotkey]}
        label="Notificações ({hotkey})"
        className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-[420px] list-none flex-col gap-2 p-4 outline-none sm:right-2 sm:bottom-2"
      />
    </Toast.Provider>
  );
}

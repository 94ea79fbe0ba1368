import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from './api';

type ToastHandle = ReturnType<typeof toast>;

/** The titles of the app's plain success and failure toasts (SPEC §8). */
export const TOAST_TITLES = { success: 'Sucesso!', error: 'Erro' } as const;

/** 'Sucesso!' with the message. */
export function toastSuccess(message: string): ToastHandle {
  return toast({ title: TOAST_TITLES.success, description: message, variant: 'success' });
}

/**
 * 'Erro' with the message: `toastError(message)`, or `toastError(error, fallback)` for a failed
 * request, which shows the server's pt-BR message when it sent one and the fallback otherwise.
 */
export function toastError(message: string): ToastHandle;
export function toastError(error: unknown, fallback: string): ToastHandle;
export function toastError(errorOrMessage: unknown, fallback?: string): ToastHandle {
  const description = fallback === undefined ? String(errorOrMessage) : errorMessage(errorOrMessage, fallback);
  return toast({ title: TOAST_TITLES.error, description, variant: 'destructive' });
}

/**
 * The callbacks of a `mutate` whose answer carries a message: on success 'Sucesso!' with it, then
 * `onDone` (close the dialog, say); on failure `onError`.
 */
export function toastOutcome(onDone: () => void, onError: (error: unknown) => void) {
  return {
    onSuccess: (res: { message: string }) => {
      toastSuccess(res.message);
      onDone();
    },
    onError,
  };
}

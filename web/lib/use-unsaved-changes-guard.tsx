import { useCallback, useEffect } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { ConfirmDialog } from '#web/components/confirm-dialog';

/** The texts of the 'unsaved changes' confirmation. */
export const unsavedChangesMsg = {
  title: 'Sair sem salvar?',
  description: 'Você tem alterações não salvas. Se sair agora, elas serão perdidas.',
  leave: 'Sair sem salvar',
  stay: 'Continuar editando',
} as const;

type Place = { pathname: string; search: string };

/**
 * Whether a navigation would take the person away from what they are editing: another page, or the
 * same page with other query parameters (a tab kept in `?tab=` unmounts the other tabs). A change of
 * `#hash` alone stays on the page.
 */
export function leavesPlace(current: Place, next: Place): boolean {
  return current.pathname !== next.pathname || current.search !== next.search;
}

/**
 * The `beforeunload` listener: asks the browser to confirm closing or reloading the tab. Browsers
 * show their own text; `returnValue` is still needed by older ones.
 */
export function warnBeforeUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  event.returnValue = '';
}

/** Arms the browser's own 'leave site?' prompt (reload, close, typed address) while `dirty`. */
export function useBeforeUnloadWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    window.addEventListener('beforeunload', warnBeforeUnload);
    return () => window.removeEventListener('beforeunload', warnBeforeUnload);
  }, [dirty]);
}

/**
 * 'Você tem alterações não salvas…' with 'Sair sem salvar' and 'Continuar editando' (focused
 * first, and what Escape does). Also usable on its own, e.g. before closing a dialog with edits.
 */
export function UnsavedChangesDialog({
  open,
  onLeave,
  onStay,
  description = unsavedChangesMsg.description,
}: {
  open: boolean;
  onLeave: () => void;
  onStay: () => void;
  description?: string;
}) {
  return (
    <ConfirmDialog
      open={open}
      onCancel={onStay}
      title={unsavedChangesMsg.title}
      description={description}
      confirmLabel={unsavedChangesMsg.leave}
      cancelLabel={unsavedChangesMsg.stay}
      onConfirm={onLeave}
    />
  );
}

/** Mounted only while there are unsaved changes: React Router consults one blocker at a time. */
function NavigationBlocker({ description }: { description?: string }) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => leavesPlace(currentLocation, nextLocation),
    [],
  );
  const blocker = useBlocker(shouldBlock);
  return (
    <UnsavedChangesDialog
      open={blocker.state === 'blocked'}
      description={description}
      onLeave={() => blocker.proceed?.()}
      onStay={() => blocker.reset?.()}
    />
  );
}

/**
 * Keeps a person from losing unsaved edits: while `when` is true, a link or menu click, the back
 * button or a tab change inside the app asks first ('Sair sem salvar' / 'Continuar editando'), and
 * reloading or closing the browser tab gets the browser's own confirmation. Render it next to the
 * form: `<UnsavedChangesGuard when={dirty} />`. Needs the app's data router (createBrowserRouter).
 */
export function UnsavedChangesGuard({ when, description }: { when: boolean; description?: string }) {
  useBeforeUnloadWarning(when);
  return when ? <NavigationBlocker description={description} /> : null;
}

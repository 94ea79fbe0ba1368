import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { ConfirmDialog } from './confirm-dialog';

/** The delete mutation of a list page's rows: takes the row's id. */
type DeleteMutation = Pick<UseMutationResult<unknown, unknown, string>, 'mutate' | 'isPending'>;

/**
 * The row a list page (Contatos, Grupos, Campanhas) is about to delete: `askDelete(row)` opens the
 * confirmation, which deletes it with `remove`, toasts `deleted` and closes, or toasts the server's
 * error (or `deleteError`) and stays open.
 */
export function useConfirmDelete<T extends { id: string }>(
  remove: DeleteMutation,
  texts: { deleted: string; deleteError: string },
) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const confirm = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toastSuccess(texts.deleted);
        setDeleting(null);
      },
      onError: (error) => toastError(error, texts.deleteError),
    });
  };
  return {
    deleting,
    askDelete: setDeleting,
    dialog: {
      open: deleting !== null,
      onCancel: () => setDeleting(null),
      pending: remove.isPending,
      onConfirm: confirm,
    },
  };
}

/** The 'Excluir' confirmation of a list page's row, driven by `useConfirmDelete(...).dialog`. */
export function ConfirmDeleteDialog({
  dialog,
  title,
  description,
}: {
  dialog: ReturnType<typeof useConfirmDelete>['dialog'];
  title: string;
  description: ReactNode;
}) {
  return <ConfirmDialog {...dialog} title={title} description={description} />;
}

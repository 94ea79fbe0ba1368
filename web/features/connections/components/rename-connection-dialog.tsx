import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { type ConnectionView, updateConnectionInput } from '#contract/connections';
import { FormField } from '#web/components/form-field';
import { PendingButton } from '#web/components/pending-button';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { isApiError } from '#web/lib/api';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useUpdateConnection } from '../api/update-connection';

/** The label alone, required here (the PATCH takes it optional). */
const renameForm = z.object({ label: updateConnectionInput.shape.label.unwrap() });
type RenameForm = z.input<typeof renameForm>;

/** 'Renomear': the number's label, validated by the contract. */
export function RenameConnectionDialog({
  connection,
  onOpenChange,
}: {
  /** The number being renamed; null closes the dialog. */
  connection: ConnectionView | null;
  onOpenChange: (open: boolean) => void;
}) {
  const update = useUpdateConnection();
  const form = useForm<RenameForm>({
    resolver: zodResolver(renameForm),
    defaultValues: { label: '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (connection) form.reset({ label: connection.label });
  }, [connection, form]);

  const submit = form.handleSubmit((input) => {
    if (!connection) return;
    update.mutate(
      { id: connection.id, input: { label: input.label } },
      {
        onSuccess: (res) => {
          toastSuccess(res.message);
          onOpenChange(false);
        },
        onError: (error) => {
          const message = isApiError(error) ? error.fieldErrors?.label : undefined;
          if (message) form.setError('label', { type: 'server', message });
          else toastError(error, 'Não foi possível renomear o número.');
        },
      },
    );
  });

  return (
    <Dialog open={connection !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Renomear número</DialogTitle>
          <DialogDescription>O nome aparece nas campanhas e nos relatórios; o número não muda.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField
            label="Nome do número"
            autoComplete="off"
            error={errors.label?.message}
            {...form.register('label')}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <PendingButton type="submit" pending={update.isPending} pendingLabel="Salvando...">
              Salvar
            </PendingButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

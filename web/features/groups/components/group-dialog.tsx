import { useEffect } from 'react';
import { type Group, groupInput, groupsMsg } from '#contract/contacts';
import { BoxedSwitch } from '#web/components/boxed-switch';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { toastError, toastOutcome } from '#web/lib/toasts';
import { formFieldProps, useServerForm } from '#web/lib/use-server-form';
import { useSaveGroup } from '../api/save-group';

/**
 * The form's values for a group (or a new one), the member count as typed text: the contract makes it a
 * non-negative integer, 0 when invalid (SPEC §5).
 */
function formValues(group: Group | null) {
  return {
    name: group?.name ?? '',
    whatsappGroupId: group?.whatsappGroupId ?? '',
    membersCount: String(group?.membersCount ?? 0),
    isActive: group?.isActive ?? true,
  };
}

/** 'Novo Grupo' / 'Editar Grupo', validated by the contract's `groupInput`. */
export function GroupDialog({
  open,
  group,
  onOpenChange,
}: {
  open: boolean;
  group: Group | null;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveGroup();
  // A message stays until the next 'Criar Grupo' / 'Salvar Alterações', as the server's would.
  const form = useServerForm(groupInput, {
    defaultValues: formValues(null),
    reValidateMode: 'onSubmit',
    serverFields: ['name'],
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset(formValues(group));
  }, [open, group, form]);

  const submit = form.handleSubmit(
    (input) =>
      save.mutate(
        { id: group?.id, input },
        toastOutcome(
          () => onOpenChange(false),
          (error) => form.failed(error, group ? groupsMsg.updateError : groupsMsg.createError),
        ),
      ),
    (invalid) => {
      const message = invalid.name?.message ?? invalid.whatsappGroupId?.message;
      if (message) toastError(message);
    },
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={group ? 'Editar Grupo' : 'Novo Grupo'}
      description={
        <>
          Um grupo do WhatsApp do qual seu número participa. O mais simples é “Sincronizar grupos” na página Grupos: o
          ID e o número de membros vêm do próprio WhatsApp.
        </>
      }
      onSubmit={submit}
      pending={save.isPending}
      submitLabel={group ? 'Salvar Alterações' : 'Criar Grupo'}
      pendingLabel="Salvando..."
    >
      <FormField label="Nome do grupo" error={errors.name?.message} autoComplete="off" {...form.register('name')} />
      <FormField
        label="ID do grupo no WhatsApp (opcional)"
        placeholder="120363000000000000@g.us"
        autoComplete="off"
        hint="Sem o ID, o grupo não pode receber campanhas."
        {...formFieldProps(form, 'whatsappGroupId')}
      />
      <FormField
        label="Número de membros"
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        {...form.register('membersCount')}
        hint="Grupos sincronizados têm este número preenchido pelo WhatsApp, e atualizado a cada sincronização."
      />
      <BoxedSwitch control={form.control} name="isActive" label="Grupo ativo" fallback />
    </FormDialog>
  );
}

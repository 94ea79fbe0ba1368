import { useEffect } from 'react';
import { type Contact, contactInput, contactsMsg } from '#contract/contacts';
import { formatPhone } from '#contract/phone';
import { BoxedSwitch } from '#web/components/boxed-switch';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { toastError, toastOutcome } from '#web/lib/toasts';
import { useServerForm } from '#web/lib/use-server-form';
import { useSaveContact } from '../api/save-contact';

const fields = ['name', 'phone', 'email'] as const;

/** The form's values for a contact (or a new one), the tags as one comma-separated text. */
function formValues(c: Contact | null, prefill?: { name: string; phone: string }) {
  return {
    name: c?.name ?? prefill?.name ?? '',
    phone: c ? formatPhone(c.phone) : prefill?.phone ? formatPhone(prefill.phone) : '',
    email: c?.email ?? '',
    tags: c ? c.tags.join(', ') : '',
    isActive: c?.isActive ?? true,
    optedOut: c?.optedOut ?? false,
  };
}

/**
 * 'Novo Contato' / 'Editar Contato' (SPEC §2, §5), validated by the contract's `contactInput`: name and
 * phone required, tags comma-separated.
 */
export function ContactDialog({
  open,
  contact,
  prefill,
  onOpenChange,
}: {
  open: boolean;
  contact: Contact | null;
  /** A new contact's name and number to start from (a contact card received in 'Conversas'). */
  prefill?: { name: string; phone: string };
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveContact();
  // A message stays until the next 'Criar Contato' / 'Salvar Alterações', as the server's would.
  const form = useServerForm(contactInput, {
    defaultValues: formValues(null),
    reValidateMode: 'onSubmit',
    serverFields: fields,
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset(formValues(contact, prefill));
  }, [open, contact, prefill, form]);

  const submit = form.handleSubmit(
    (input) =>
      save.mutate(
        { id: contact?.id, input },
        toastOutcome(
          () => onOpenChange(false),
          (error) => form.failed(error, contact ? contactsMsg.updateError : contactsMsg.createError),
        ),
      ),
    (invalid) => {
      const message = fields.map((field) => invalid[field]?.message).find(Boolean);
      if (message) toastError(message);
    },
  );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={contact ? 'Editar Contato' : 'Novo Contato'}
      description="O telefone é salvo no formato internacional; números brasileiros podem ser digitados com DDD."
      onSubmit={submit}
      pending={save.isPending}
      submitLabel={contact ? 'Salvar Alterações' : 'Criar Contato'}
      pendingLabel="Salvando..."
    >
      <FormField
        label="Nome"
        error={errors.name?.message}
        autoComplete="off"
        placeholder="Maria da Silva"
        {...form.register('name')}
      />
      <FormField
        label="Telefone"
        type="tel"
        error={errors.phone?.message}
        placeholder="(21) 99876-5432"
        autoComplete="off"
        {...form.register('phone')}
      />
      <FormField
        label="Email (opcional)"
        type="email"
        error={errors.email?.message}
        placeholder="maria@empresa.com.br"
        autoComplete="off"
        {...form.register('email')}
      />
      <FormField
        label="Tags"
        {...form.register('tags')}
        hint="Separe as tags por vírgula, por exemplo: cliente, vip"
        autoComplete="off"
      />
      <BoxedSwitch control={form.control} name="isActive" label="Contato ativo" fallback />
      <BoxedSwitch
        control={form.control}
        name="optedOut"
        label="Descadastrado (opt-out)"
        hint="Contatos descadastrados nunca recebem campanhas."
      />
    </FormDialog>
  );
}

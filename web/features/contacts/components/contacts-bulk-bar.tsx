import { Tag, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type Contact, type ContactBulkAction, contactBulkTagForm, contactsMsg } from '#contract/contacts';
import { countLabel } from '#contract/plural';
import { ConfirmDialog } from '#web/components/confirm-dialog';
import { FormDialog } from '#web/components/form-dialog';
import { FormField } from '#web/components/form-field';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { TagChip } from '#web/components/tag-chips';
import { Button } from '#web/components/ui/button';
import { useContactTags } from '#web/lib/queries/get-contact-tags';
import { toastError, toastOutcome } from '#web/lib/toasts';
import { useServerForm } from '#web/lib/use-server-form';
import { useBulkContacts } from '../api/bulk-contacts';

type TagAction = Extract<ContactBulkAction, 'tag' | 'untag'>;

const tagButtons: readonly { action: TagAction; compactLabel: string; label: string }[] = [
  { action: 'tag', compactLabel: 'Adicionar', label: 'Adicionar tag' },
  { action: 'untag', compactLabel: 'Remover', label: 'Remover tag' },
];

/**
 * 'Adicionar tag' / 'Remover tag' for the selected contacts: one tag, typed or picked from the
 * suggestions (the account's tags to add; the tags the selected contacts carry to remove).
 */
function BulkTagDialog({
  action,
  selected,
  onOpenChange,
}: {
  action: TagAction | null;
  selected: Contact[];
  onOpenChange: (open: boolean) => void;
}) {
  const bulk = useBulkContacts();
  const accountTags = useContactTags(action === 'tag');
  // Checked by the contract's rule for the tag on 'Adicionar tag' / 'Remover tag'; a message goes as soon
  // as the tag is typed or picked again.
  const form = useServerForm(contactBulkTagForm, {
    defaultValues: { tag: '' },
    reValidateMode: 'onSubmit',
    serverFields: ['tag'],
  });
  const error = form.formState.errors.tag?.message;
  const tag = form.watch('tag');
  const open = action !== null;

  useEffect(() => {
    if (open) form.reset({ tag: '' });
  }, [open, form]);

  const suggestions =
    action === 'untag'
      ? [...new Set(selected.flatMap((c) => c.tags))].sort((a, b) => a.localeCompare(b, 'pt-BR'))
      : (accountTags.data ?? []).map((t) => t.tag);
  const who = countLabel(selected.length, 'contato selecionado', 'contatos selecionados');

  const submit = form.handleSubmit((input) => {
    if (!action) return;
    bulk.mutate(
      { action, ids: selected.map((c) => c.id), tag: input.tag },
      toastOutcome(
        () => onOpenChange(false),
        (err) => form.failed(err, contactsMsg.bulkError),
      ),
    );
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={action === 'untag' ? 'Remover tag' : 'Adicionar tag'}
      description={action === 'untag' ? `A tag sai dos ${who}.` : `A tag é adicionada aos ${who}.`}
      className="sm:max-w-md"
      onSubmit={submit}
      pending={bulk.isPending}
      submitLabel={action === 'untag' ? 'Remover tag' : 'Adicionar tag'}
      lockWhilePending
    >
      <FormField
        label="Tag"
        {...form.register('tag', { onChange: () => form.clearErrors('tag') })}
        error={error}
        maxLength={60}
        autoComplete="off"
        placeholder="vip"
        hint={action === 'tag' ? 'Uma tag por vez. Use uma que já existe ou crie uma nova.' : undefined}
      />
      {suggestions.length > 0 ? (
        <ul className="flex max-h-32 flex-wrap gap-2 overflow-y-auto" aria-label="Tags sugeridas">
          {suggestions.slice(0, 40).map((t) => (
            <li key={t} className="max-w-full">
              <TagChip
                tag={t}
                pressed={tag.trim() === t}
                onPressedChange={(p) => {
                  form.setValue('tag', p ? t : '');
                  form.clearErrors('tag');
                }}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </FormDialog>
  );
}

/**
 * The bar shown while contacts are selected: how many, 'Adicionar tag', 'Remover tag', 'Excluir'
 * (after a confirmation that says how many) and 'Limpar seleção'. It stays in view at the bottom of
 * the screen while the list scrolls.
 */
export function ContactsBulkBar({
  selected,
  onClear,
  onDeleted,
}: {
  selected: Contact[];
  onClear: () => void;
  onDeleted: () => void;
}) {
  const bulk = useBulkContacts();
  const [tagAction, setTagAction] = useState<TagAction | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (selected.length === 0 && tagAction === null && !confirming) return null;
  const n = selected.length;

  const confirmDelete = () =>
    bulk.mutate(
      { action: 'delete', ids: selected.map((c) => c.id) },
      toastOutcome(
        () => {
          setConfirming(false);
          onDeleted();
        },
        (err) => toastError(err, contactsMsg.bulkError),
      ),
    );

  return (
    <>
      {n > 0 ? (
        <section
          aria-label="Ações para os contatos selecionados"
          data-testid="contacts-bulk-bar"
          className="sticky bottom-4 z-10 grid gap-2 rounded-lg border border-brand-strong/40 bg-card p-3 shadow-lg sm:flex sm:flex-wrap sm:items-center"
        >
          <div className="flex items-center justify-between gap-2 sm:mr-auto">
            <p className="text-sm font-medium" aria-live="polite">
              {countLabel(n, 'contato selecionado', 'contatos selecionados')}
            </p>
            <Button variant="ghost" size="sm" className="sm:hidden" onClick={onClear}>
              <X aria-hidden />
              Limpar seleção
            </Button>
          </div>
          <div className="grid grid-cols-3 gap-2 sm:flex sm:flex-wrap">
            {tagButtons.map(({ action, compactLabel, label }) => (
              <PermissionGatedButton
                key={action}
                variant="outline"
                size="sm"
                icon={<Tag aria-hidden />}
                compactLabel={compactLabel}
                onClick={() => setTagAction(action)}
              >
                {label}
              </PermissionGatedButton>
            ))}
            <PermissionGatedButton
              variant="outline"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              icon={<Trash2 aria-hidden />}
              onClick={() => setConfirming(true)}
            >
              Excluir
            </PermissionGatedButton>
          </div>
          <Button variant="ghost" size="sm" className="max-sm:hidden" onClick={onClear}>
            <X aria-hidden />
            Limpar seleção
          </Button>
        </section>
      ) : null}

      <BulkTagDialog action={tagAction} selected={selected} onOpenChange={(open) => !open && setTagAction(null)} />

      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        title="Excluir contatos"
        description={
          <>
            Tem certeza que deseja excluir {countLabel(n, 'contato selecionado', 'contatos selecionados')}? Esta ação
            não pode ser desfeita.
          </>
        }
        confirmLabel={`Excluir ${countLabel(n, 'contato', 'contatos')}`}
        pending={bulk.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}

import { type FormEvent, useEffect, useId, useState } from 'react';
import { type Contact, contactsMsg, parseTags } from '../../../../contract/contacts';
import { formatPhone } from '../../../../contract/phone';
import { FormField } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { isApiError } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toasts';
import { useSaveContact } from '../api/save-contact';

interface FormState {
  name: string;
  phone: string;
  email: string;
  tags: string;
  isActive: boolean;
  optedOut: boolean;
}

const empty: FormState = { name: '', phone: '', email: '', tags: '', isActive: true, optedOut: false };

function fromContact(c: Contact | null): FormState {
  if (!c) return empty;
  return {
    name: c.name,
    phone: formatPhone(c.phone),
    email: c.email ?? '',
    tags: c.tags.join(', '),
    isActive: c.isActive,
    optedOut: c.optedOut,
  };
}

/** 'Novo Contato' / 'Editar Contato' (SPEC §2, §5): name and phone required, tags comma-separated. */
export function ContactDialog({
  open,
  contact,
  onOpenChange,
}: {
  open: boolean;
  contact: Contact | null;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveContact();
  const [form, setForm] = useState<FormState>(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof FormState, string>>>({});
  const activeId = useId();
  const optOutId = useId();

  useEffect(() => {
    if (open) {
      setForm(fromContact(contact));
      setErrors({});
    }
  }, [open, contact]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim() || !form.phone.trim()) {
      setErrors({
        name: form.name.trim() ? undefined : contactsMsg.required,
        phone: form.phone.trim() ? undefined : contactsMsg.required,
      });
      toastError(contactsMsg.required);
      return;
    }
    const input = {
      name: form.name.trim(),
      phone: form.phone.trim(),
      email: form.email.trim(),
      tags: parseTags(form.tags),
      isActive: form.isActive,
      optedOut: form.optedOut,
    };
    save.mutate(
      { id: contact?.id, input },
      {
        onSuccess: (res) => {
          toastSuccess(res.message);
          onOpenChange(false);
        },
        onError: (error) => {
          if (isApiError(error) && error.fieldErrors) setErrors(error.fieldErrors);
          toastError(error, contact ? contactsMsg.updateError : contactsMsg.createError);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{contact ? 'Editar Contato' : 'Novo Contato'}</DialogTitle>
          <DialogDescription>
            O telefone é salvo no formato internacional; números brasileiros podem ser digitados com DDD.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField
            label="Nome"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
            error={errors.name}
            autoComplete="off"
            placeholder="Maria da Silva"
          />
          <FormField
            label="Telefone"
            type="tel"
            value={form.phone}
            onChange={(e) => set('phone', e.target.value)}
            error={errors.phone}
            placeholder="(21) 99876-5432"
            autoComplete="off"
          />
          <FormField
            label="Email (opcional)"
            type="email"
            value={form.email}
            onChange={(e) => set('email', e.target.value)}
            error={errors.email}
            placeholder="maria@empresa.com.br"
            autoComplete="off"
          />
          <FormField
            label="Tags"
            value={form.tags}
            onChange={(e) => set('tags', e.target.value)}
            hint="Separe as tags por vírgula, por exemplo: cliente, vip"
            autoComplete="off"
          />
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <Label htmlFor={activeId}>Contato ativo</Label>
            <Switch id={activeId} checked={form.isActive} onCheckedChange={(v) => set('isActive', v)} />
          </div>
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <div className="grid gap-1">
              <Label htmlFor={optOutId}>Descadastrado (opt-out)</Label>
              <p className="text-xs text-muted-foreground">Contatos descadastrados nunca recebem campanhas.</p>
            </div>
            <Switch id={optOutId} checked={form.optedOut} onCheckedChange={(v) => set('optedOut', v)} />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? <Spinner /> : null}
              {save.isPending ? 'Salvando...' : contact ? 'Salvar Alterações' : 'Criar Contato'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

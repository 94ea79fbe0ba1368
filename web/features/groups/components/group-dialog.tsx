import { type FormEvent, useEffect, useId, useState } from 'react';
import { type Group, groupsMsg } from '../../../../contract/contacts';
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
import { useSaveGroup } from '../api/save-group';

/** SPEC §5: membersCount is a non-negative integer, 0 when invalid. */
export function parseMembersCount(text: string): number {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** 'Novo Grupo' / 'Editar Grupo'. */
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
  const [name, setName] = useState('');
  const [waId, setWaId] = useState('');
  const [members, setMembers] = useState('0');
  const [isActive, setIsActive] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const activeId = useId();

  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setWaId(group?.whatsappGroupId ?? '');
    setMembers(String(group?.membersCount ?? 0));
    setIsActive(group?.isActive ?? true);
    setError(undefined);
  }, [open, group]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(groupsMsg.nameRequired);
      toastError(groupsMsg.nameRequired);
      return;
    }
    save.mutate(
      {
        id: group?.id,
        input: { name: name.trim(), whatsappGroupId: waId.trim(), membersCount: parseMembersCount(members), isActive },
      },
      {
        onSuccess: (res) => {
          toastSuccess(res.message);
          onOpenChange(false);
        },
        onError: (err) => {
          if (isApiError(err) && err.fieldErrors?.name) setError(err.fieldErrors.name);
          toastError(err, group ? groupsMsg.updateError : groupsMsg.createError);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{group ? 'Editar Grupo' : 'Novo Grupo'}</DialogTitle>
          <DialogDescription>
            Um grupo do WhatsApp do qual seu número participa. O mais simples é “Sincronizar grupos” na página Grupos: o
            ID e o número de membros vêm do próprio WhatsApp.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <FormField
            label="Nome do grupo"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={error}
            autoComplete="off"
          />
          <FormField
            label="ID do grupo no WhatsApp (opcional)"
            value={waId}
            onChange={(e) => setWaId(e.target.value)}
            placeholder="120363000000000000@g.us"
            autoComplete="off"
            hint="Sem o ID, o grupo não pode receber campanhas."
          />
          <FormField
            label="Número de membros"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={members}
            onChange={(e) => setMembers(e.target.value)}
            hint="Grupos sincronizados têm este número preenchido pelo WhatsApp, e atualizado a cada sincronização."
          />
          <div className="flex items-center justify-between gap-4 rounded-md border p-3">
            <Label htmlFor={activeId}>Grupo ativo</Label>
            <Switch id={activeId} checked={isActive} onCheckedChange={setIsActive} />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? <Spinner /> : null}
              {save.isPending ? 'Salvando...' : group ? 'Salvar Alterações' : 'Criar Grupo'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

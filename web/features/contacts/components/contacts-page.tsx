import { ChevronLeft, ChevronRight, Plus, Search, UserRound, UserRoundCheck, UserRoundX } from 'lucide-react';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Contact, contactsMsg } from '../../../../contract/contacts';
import { countLabel } from '../../../../contract/plural';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState, ErrorState } from '../../../components/states';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatNumber } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/toasts';
import { PermissionGatedButton } from '../../auth/components/permission-gated-button';
import { useDeleteContact } from '../api/delete-contact';
import { CONTACTS_PAGE_SIZE, useContactsPage } from '../api/get-contacts';
import { ContactDialog } from './contact-dialog';
import { ContactRow } from './contact-row';
import { ContactsToolbar } from './contacts-toolbar';

function StatCard({ label, value, icon }: { label: string; value: number | undefined; icon: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="flex size-11 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
        {icon}
      </span>
      <div className="grid gap-1">
        <span className="text-sm text-muted-foreground">{label}</span>
        {value === undefined ? (
          <Skeleton className="h-7 w-16" />
        ) : (
          <span className="text-2xl font-semibold tabular-nums">{formatNumber(value)}</span>
        )}
      </div>
    </Card>
  );
}

/** /contacts (SPEC §2): stat cards, server-side search, paged list, new/edit dialog, import and export. */
export default function ContactsPage() {
  // `?q=` pre-fills the search, so other pages (a conversation, say) can link to one contact.
  const [searchParams] = useSearchParams();
  const [search, setSearch] = useState(() => searchParams.get('q') ?? '');
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search.trim());
  const list = useContactsPage(q, page);
  const remove = useDeleteContact();
  const [editing, setEditing] = useState<Contact | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Contact | null>(null);

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / CONTACTS_PAGE_SIZE)) : 1;

  const openNew = () => {
    setEditing(null);
    setDialogOpen(true);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toastSuccess(contactsMsg.deleted);
        setDeleting(null);
      },
      onError: (error) => toastError(error, contactsMsg.deleteError),
    });
  };

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <div className="grid gap-3 p-4" role="status" aria-busy="true" aria-label="Carregando contatos">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  } else if (list.isError || !data) {
    body = (
      <ErrorState
        title="Não foi possível carregar os contatos."
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else if (data.items.length === 0) {
    body = q ? (
      <EmptyState
        icon={Search}
        title="Nenhum contato encontrado"
        description="Nenhum contato corresponde a esta busca. Tente outro nome ou número."
        action={
          <Button variant="outline" size="sm" onClick={() => setSearch('')}>
            Limpar busca
          </Button>
        }
      />
    ) : (
      <EmptyState
        icon={UserRound}
        title="Nenhum contato cadastrado"
        description="Adicione contatos um a um ou importe uma planilha com Nome, Telefone, Email e Tags."
        action={
          <PermissionGatedButton icon={<Plus aria-hidden />} onClick={openNew}>
            Novo Contato
          </PermissionGatedButton>
        }
      />
    );
  } else {
    body = (
      <ul aria-label="Contatos" aria-busy={list.isFetching}>
        {data.items.map((c) => (
          <li key={c.id}>
            <ContactRow
              contact={c}
              onEdit={(contact) => {
                setEditing(contact);
                setDialogOpen(true);
              }}
              onDelete={setDeleting}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Contatos</h2>
          <p className="text-sm text-muted-foreground">
            Gerencie sua lista de contatos.
            {data?.contactLimit
              ? ` Seu plano permite até ${countLabel(data.contactLimit, 'contato', 'contatos')}.`
              : ''}
          </p>
        </div>
        <ContactsToolbar onNew={openNew} />
      </div>

      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard
          label="Total de Contatos"
          value={data?.stats.total}
          icon={<UserRound aria-hidden className="size-5" />}
        />
        <StatCard
          label="Contatos Ativos"
          value={data?.stats.active}
          icon={<UserRoundCheck aria-hidden className="size-5" />}
        />
        <StatCard
          label="Descadastrados"
          value={data?.stats.optedOut}
          icon={<UserRoundX aria-hidden className="size-5" />}
        />
      </div>

      <div className="grid gap-2 sm:max-w-md">
        <Label htmlFor="contact-search">Buscar contatos</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="contact-search"
            type="search"
            className="pl-9"
            placeholder="Nome ou telefone"
            autoComplete="off"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </div>
      </div>

      <Card className="overflow-hidden p-0">{body}</Card>

      {data && data.total > CONTACTS_PAGE_SIZE ? (
        <nav className="flex items-center justify-between gap-2" aria-label="Paginação">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <ChevronLeft aria-hidden />
            Anterior
          </Button>
          <span className="text-sm text-muted-foreground">
            Página {page} de {data.totalIsLowerBound ? `${pages}+` : pages} ·{' '}
            {data.totalIsLowerBound
              ? `${formatNumber(data.total)}+ contatos`
              : countLabel(data.total, 'contato', 'contatos')}
          </span>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pages && !data.totalIsLowerBound}
            onClick={() => setPage((p) => p + 1)}
          >
            Próxima
            <ChevronRight aria-hidden />
          </Button>
        </nav>
      ) : null}

      <ContactDialog open={dialogOpen} contact={editing} onOpenChange={setDialogOpen} />

      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        title="Excluir contato"
        description={<>Tem certeza que deseja excluir {deleting?.name}? Esta ação não pode ser desfeita.</>}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}

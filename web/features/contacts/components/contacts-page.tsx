import { ChevronLeft, ChevronRight, Plus, Search, Tag, UserRound, UserRoundCheck, UserRoundX } from 'lucide-react';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Contact, contactsMsg } from '#contract/contacts';
import { formatPhone } from '#contract/phone';
import { countLabel } from '#contract/plural';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { ListSkeleton } from '#web/components/list-skeleton';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Skeleton } from '#web/components/ui/skeleton';
import { useTeamAllows } from '#web/lib/auth/use-can-act';
import { formatNumber } from '#web/lib/format';
import { useDeleteContact } from '../api/delete-contact';
import { CONTACTS_PAGE_SIZE, useContactsPage } from '../api/get-contacts';
import { ContactDialog } from './contact-dialog';
import { ContactRow } from './contact-row';
import { ContactsBulkBar } from './contacts-bulk-bar';
import { ContactsToolbar, ContactTagFilter } from './contacts-toolbar';

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

/**
 * /contacts (SPEC §2): stat cards, server-side search, tag chips that filter, paged list with boxes
 * to select contacts for the bulk actions (add or remove a tag, delete), new/edit dialog, import and
 * export. An agent adds, edits and exports contacts; selecting, bulk actions, deleting and importing
 * are the managers'.
 */
export default function ContactsPage() {
  // `?q=` pre-fills the search, so other pages (a conversation, say) can link to one contact; `?tag=` the tag.
  const [searchParams] = useSearchParams();
  const [search, setSearch] = useState(() => searchParams.get('q') ?? '');
  const [tag, setTag] = useState(() => searchParams.get('tag') ?? '');
  const [page, setPage] = useState(1);
  const q = useDeferredValue(search.trim());
  const list = useContactsPage(q, page, tag);
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(() => new Set());
  const remove = useDeleteContact();
  const [editing, setEditing] = useState<Contact | null>(null);
  // `?novo=<number>&nome=<name>` opens 'Novo Contato' filled in ('Salvar contato' on a received contact card).
  const [prefill, setPrefill] = useState(() => {
    const phone = searchParams.get('novo') ?? '';
    return /^\d{6,20}$/.test(phone) ? { phone, name: (searchParams.get('nome') ?? '').slice(0, 120) } : undefined;
  });
  const [dialogOpen, setDialogOpen] = useState(Boolean(prefill));
  const { deleting, askDelete, dialog: deleteDialog } = useConfirmDelete<Contact>(remove, contactsMsg);
  const selectable = useTeamAllows('manager');

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / CONTACTS_PAGE_SIZE)) : 1;

  // A selection is of the page on screen: another page, search or tag starts a new one.
  const clearSelection = () => setSelectedIds(new Set());
  const items = data?.items ?? [];
  const selected = items.filter((c) => selectedIds.has(c.id));
  const allSelected = items.length > 0 && selected.length === items.length;
  const select = (ids: string[], on: boolean) =>
    setSelectedIds((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const chooseTag = (next: string) => {
    setTag(next);
    setPage(1);
    clearSelection();
  };
  const goToPage = (next: number) => {
    setPage(next);
    clearSelection();
  };

  const openNew = () => {
    setEditing(null);
    setDialogOpen(true);
  };

  let body: ReactNode;
  if (list.isPending) {
    body = <ListSkeleton label="Carregando contatos" rows={4} />;
  } else if (list.isError || !data) {
    body = (
      <ErrorState
        title="Não foi possível carregar os contatos."
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else if (data.items.length === 0) {
    body = tag ? (
      <EmptyState
        icon={Tag}
        title={`Nenhum contato com a tag ${tag}`}
        description={q ? 'Nenhum contato com esta tag corresponde à busca.' : undefined}
        action={
          <Button variant="outline" size="sm" onClick={() => chooseTag('')}>
            Mostrar todos
          </Button>
        }
      />
    ) : q ? (
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
          <PermissionGatedButton team="agent" icon={<Plus aria-hidden />} onClick={openNew}>
            Novo Contato
          </PermissionGatedButton>
        }
      />
    );
  } else {
    body = (
      <>
        <div className="flex flex-wrap items-center justify-between gap-2 border-b bg-muted/40 px-4 py-2 text-sm">
          {selectable ? (
            <label className="flex cursor-pointer items-center gap-3 font-medium">
              <input
                type="checkbox"
                className="size-4 accent-brand-strong"
                checked={allSelected}
                ref={(el) => {
                  if (el) el.indeterminate = selected.length > 0 && !allSelected;
                }}
                onChange={(e) =>
                  select(
                    data.items.map((c) => c.id),
                    e.target.checked,
                  )
                }
              />
              Selecionar todos
              <span className="sr-only"> os contatos desta página</span>
            </label>
          ) : null}
          <span className="text-muted-foreground">
            {tag ? `Tag ${tag}: ` : ''}
            {data.totalIsLowerBound
              ? `${formatNumber(data.total)}+ contatos`
              : countLabel(data.total, 'contato', 'contatos')}
          </span>
        </div>
        <ul aria-label="Contatos" aria-busy={list.isFetching}>
          {data.items.map((c) => (
            <li key={c.id}>
              <ContactRow
                contact={c}
                selected={selectedIds.has(c.id)}
                onSelectedChange={selectable ? (on) => select([c.id], on) : undefined}
                onEdit={(contact) => {
                  setEditing(contact);
                  setDialogOpen(true);
                }}
                onDelete={askDelete}
              />
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Contatos</h2>
          <p className="text-sm text-muted-foreground">
            Gerencie seus contatos e marque-os com tags para montar listas de envio.
            {data?.contactLimit
              ? ` Seu plano permite até ${countLabel(data.contactLimit, 'contato', 'contatos')}.`
              : ''}
          </p>
        </div>
        <ContactsToolbar onNew={openNew} filter={{ q, tag }} />
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
              goToPage(1);
            }}
          />
        </div>
      </div>

      <ContactTagFilter tag={tag} onTagChange={chooseTag} />

      <Card className="overflow-hidden p-0">{body}</Card>

      {selectable ? <ContactsBulkBar selected={selected} onClear={clearSelection} onDeleted={clearSelection} /> : null}

      {data && data.total > CONTACTS_PAGE_SIZE ? (
        <nav className="flex items-center justify-between gap-2" aria-label="Paginação">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => goToPage(page - 1)}>
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
            onClick={() => goToPage(page + 1)}
          >
            Próxima
            <ChevronRight aria-hidden />
          </Button>
        </nav>
      ) : null}

      <ContactDialog
        open={dialogOpen}
        contact={editing}
        prefill={editing ? undefined : prefill}
        onOpenChange={(open) => {
          setDialogOpen(open);
          // Filled in once, from the link: the next 'Novo Contato' starts empty.
          if (!open) setPrefill(undefined);
        }}
      />

      <ConfirmDeleteDialog
        dialog={deleteDialog}
        title="Excluir contato"
        description={
          <>
            Tem certeza que deseja excluir {deleting ? deleting.name || formatPhone(deleting.phone) : ''}? Esta ação não
            pode ser desfeita.
          </>
        }
      />
    </div>
  );
}

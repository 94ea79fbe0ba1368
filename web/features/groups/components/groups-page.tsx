import { Download, Info, Plus, RefreshCw, Search, UsersRound } from 'lucide-react';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { type Group, groupsMsg } from '#contract/contacts';
import { countLabel } from '#contract/plural';
import { ConfirmDeleteDialog, useConfirmDelete } from '#web/components/confirm-delete';
import { ListSkeleton } from '#web/components/list-skeleton';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EditDeleteButtons } from '#web/components/row-actions';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { useTeamAllows } from '#web/lib/auth/use-can-act';
import { formatNumber } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { useGroups } from '#web/lib/queries/get-groups';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useDeleteGroup } from '../api/delete-group';
import { useExportGroupMembers } from '../api/export-members';
import { useSyncGroups } from '../api/sync-groups';
import { GroupDialog } from './group-dialog';

function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card className="grid gap-1 p-5">
      <span className="text-sm text-muted-foreground">{label}</span>
      {value === undefined ? (
        <Skeleton className="h-7 w-16" />
      ) : (
        <span className="text-2xl font-semibold tabular-nums">{formatNumber(value)}</span>
      )}
    </Card>
  );
}

/**
 * What a group is here, said where a new user meets it: a WhatsApp group the connected number belongs
 * to, not a list of contacts (those are made with tags in Contatos).
 */
function GroupsExplainer() {
  return (
    <Card className="flex gap-3 border-brand-strong/30 bg-brand-soft/50 p-4 text-sm" data-testid="groups-explainer">
      <Info aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-strong" />
      <div className="grid gap-1">
        <p className="font-medium">Um grupo aqui é um grupo do WhatsApp do qual o seu número conectado participa.</p>
        <p className="text-muted-foreground">
          Use “Sincronizar grupos” para trazê-los do WhatsApp, com o número de membros. Uma campanha para um grupo envia
          uma mensagem no próprio grupo, que todos os membros veem. Para montar listas de contatos e enviar a cada
          pessoa, use tags em{' '}
          <Link to={paths.contacts} className="font-medium text-brand-ink underline underline-offset-4">
            Contatos
          </Link>
          .
        </p>
      </div>
    </Card>
  );
}

/**
 * /groups (SPEC §2): what a group is, stat cards, search, list, new/edit dialog, sync from WhatsApp and
 * members export. An agent sees the list; changing, syncing and exporting members are the managers'.
 */
export default function GroupsPage() {
  const groups = useGroups();
  const remove = useDeleteGroup();
  const sync = useSyncGroups();
  const exportMembers = useExportGroupMembers();
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim().toLowerCase());
  const [editing, setEditing] = useState<Group | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const { deleting, askDelete, dialog: deleteDialog } = useConfirmDelete<Group>(remove, groupsMsg);
  const manages = useTeamAllows('manager');

  const all = groups.data ?? [];
  const visible = useMemo(() => all.filter((g) => g.name.toLowerCase().includes(q)), [all, q]);
  const stats = groups.data
    ? {
        total: all.length,
        active: all.filter((g) => g.isActive).length,
        members: all.reduce((sum, g) => sum + g.membersCount, 0),
      }
    : undefined;

  const openNew = () => {
    setEditing(null);
    setDialogOpen(true);
  };

  const runSync = () =>
    sync.mutate(undefined, {
      onSuccess: (res) => toastSuccess(res.message),
      onError: (err) => toastError(err, groupsMsg.syncError),
    });

  const runExport = (g: Group) =>
    exportMembers.mutate(g.id, {
      onError: (err) => toastError(err, groupsMsg.exportMembersError),
    });

  let body: ReactNode;
  if (groups.isPending) {
    body = <ListSkeleton label="Carregando grupos" rows={3} />;
  } else if (groups.isError) {
    body = (
      <ErrorState
        title="Não foi possível carregar os grupos."
        onRetry={() => void groups.refetch()}
        retrying={groups.isFetching}
      />
    );
  } else if (visible.length === 0) {
    body = q ? (
      <EmptyState icon={Search} title="Nenhum grupo encontrado" description="Tente outro nome." />
    ) : (
      <EmptyState
        icon={UsersRound}
        title="Nenhum grupo cadastrado"
        description={
          manages
            ? 'Conecte seu WhatsApp e sincronize: os grupos de que seu número participa aparecem aqui.'
            : 'Os grupos do WhatsApp aparecem aqui quando um gerente da conta os sincroniza.'
        }
        action={
          <PermissionGatedButton
            icon={sync.isPending ? <Spinner /> : <RefreshCw aria-hidden />}
            onClick={runSync}
            disabled={sync.isPending}
          >
            Sincronizar grupos
          </PermissionGatedButton>
        }
      />
    );
  } else {
    body = (
      <ul aria-label="Grupos">
        {visible.map((g) => (
          <li
            key={g.id}
            data-testid="group-row"
            className="flex flex-col gap-3 border-b px-4 py-3 last:border-b-0 md:flex-row md:items-center"
          >
            <div className="grid min-w-0 flex-1 gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="truncate font-medium">{g.name}</span>
                <Badge tone={g.isActive ? 'green' : 'neutral'}>{g.isActive ? 'Ativo' : 'Inativo'}</Badge>
                {g.whatsappGroupId ? <Badge tone="brand">WhatsApp</Badge> : <Badge tone="yellow">Sem vínculo</Badge>}
              </div>
              <span className="text-sm text-muted-foreground">
                {countLabel(g.membersCount, 'membro', 'membros')}
                {g.whatsappGroupId
                  ? ''
                  : ' · Não recebe campanhas: sincronize os grupos ou informe o ID do grupo no WhatsApp.'}
              </span>
            </div>
            <div className="flex flex-wrap items-center gap-1">
              {manages ? (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!g.whatsappGroupId || exportMembers.isPending}
                  title={g.whatsappGroupId ? undefined : groupsMsg.noWhatsappId}
                  onClick={() => runExport(g)}
                >
                  {exportMembers.isPending && exportMembers.variables === g.id ? <Spinner /> : <Download aria-hidden />}
                  Exportar membros
                  <span className="sr-only"> de {g.name}</span>
                </Button>
              ) : null}
              <EditDeleteButtons
                name={g.name}
                onEdit={() => {
                  setEditing(g);
                  setDialogOpen(true);
                }}
                onDelete={() => askDelete(g)}
              />
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Grupos</h2>
          <p className="text-sm text-muted-foreground">Os grupos do WhatsApp que podem receber suas campanhas.</p>
        </div>
        <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex">
          <PermissionGatedButton
            variant="outline"
            icon={sync.isPending ? <Spinner /> : <RefreshCw aria-hidden />}
            onClick={runSync}
            disabled={sync.isPending}
          >
            Sincronizar grupos
          </PermissionGatedButton>
          <PermissionGatedButton icon={<Plus aria-hidden />} onClick={openNew}>
            Novo Grupo
          </PermissionGatedButton>
        </div>
      </div>

      <GroupsExplainer />

      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label="Total de Grupos" value={stats?.total} />
        <StatCard label="Grupos Ativos" value={stats?.active} />
        <StatCard label="Total de Membros" value={stats?.members} />
      </div>

      <div className="grid gap-2 sm:max-w-md">
        <Label htmlFor="group-search">Buscar grupos</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="group-search"
            type="search"
            className="pl-9"
            placeholder="Nome do grupo"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>

      <Card className="overflow-hidden p-0">{body}</Card>

      <GroupDialog open={dialogOpen} group={editing} onOpenChange={setDialogOpen} />

      <ConfirmDeleteDialog
        dialog={deleteDialog}
        title="Excluir grupo"
        description={<>Tem certeza que deseja excluir o grupo {deleting?.name}? Esta ação não pode ser desfeita.</>}
      />
    </div>
  );
}

import { Eraser, RefreshCw, Search, UsersRound } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { type AdminTab, matchesAdminSearch, matchesAdminTab } from '#contract/admin';
import { msg } from '#contract/messages';
import { EmptyState, ErrorState } from '#web/components/states';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage } from '#web/lib/api';
import { cleanupSummary, useCleanupExpired } from '../api/cleanup-expired';
import { useAdminUsers } from '../api/get-users';
import { AdminJobsSection } from './admin-jobs-section';
import { UserCard } from './user-card';

const TABS: readonly { value: AdminTab; label: string }[] = [
  { value: 'all', label: 'Todos' },
  { value: 'active', label: 'Ativos' },
  { value: 'pending', label: 'Pendentes' },
  { value: 'inactive', label: 'Inativos' },
  { value: 'admin', label: 'Admins' },
];

/**
 * /admin/users (SPEC §2): search, filter tabs with counts, user cards, refresh and expired-demo cleanup;
 * below, the background jobs (counts, dead ones and their retry).
 */
export default function AdminUsersPage() {
  const users = useAdminUsers();
  const cleanup = useCleanupExpired();
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<AdminTab>('all');
  const query = useDeferredValue(search);

  const searched = useMemo(() => (users.data ?? []).filter((u) => matchesAdminSearch(u, query)), [users.data, query]);
  const counts = useMemo(
    () => Object.fromEntries(TABS.map((t) => [t.value, searched.filter((u) => matchesAdminTab(u, t.value)).length])),
    [searched],
  ) as Record<AdminTab, number>;
  const visible = useMemo(() => searched.filter((u) => matchesAdminTab(u, tab)), [searched, tab]);

  const runCleanup = () =>
    cleanup.mutate(undefined, {
      onSuccess: (res) =>
        toast({ title: 'Limpeza concluída', description: cleanupSummary(res.deletedCount), variant: 'success' }),
      onError: (error) =>
        toast({
          title: msg.admin.cleanupErrorTitle,
          description: errorMessage(error, msg.admin.cleanupError),
          variant: 'destructive',
        }),
    });

  const listView = users.isPending ? (
    <div
      className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
      role="status"
      aria-busy="true"
      aria-label="Carregando usuários"
    >
      {[0, 1, 2].map((i) => (
        <Card key={i} className="grid gap-4 p-5">
          <div className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-24" />
            </div>
          </div>
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-10 w-full" />
        </Card>
      ))}
    </div>
  ) : users.isError ? (
    <Card>
      <ErrorState
        title="Não foi possível carregar os usuários."
        onRetry={() => void users.refetch()}
        retrying={users.isFetching}
      />
    </Card>
  ) : visible.length === 0 ? (
    <Card>
      <EmptyState
        icon={UsersRound}
        title={msg.admin.emptyList}
        description={
          query.trim() ? 'Nenhum resultado para esta busca. Tente outro termo.' : 'Não há usuários nesta categoria.'
        }
        action={
          query.trim() || tab !== 'all' ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setSearch('');
                setTab('all');
              }}
            >
              Limpar filtros
            </Button>
          ) : null
        }
      />
    </Card>
  ) : (
    <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Usuários">
      {visible.map((u) => (
        <li key={u.id} className="min-w-0">
          <UserCard user={u} />
        </li>
      ))}
    </ul>
  );

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Gerenciar usuários</h2>
          <p className="text-sm text-muted-foreground">Aprove, ative, desative e remova contas de clientes.</p>
        </div>
        <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex">
          <Button variant="outline" onClick={() => void users.refetch()} disabled={users.isFetching}>
            <RefreshCw aria-hidden className={users.isFetching ? 'animate-spin' : undefined} />
            Atualizar
          </Button>
          <Button variant="emphasis" onClick={runCleanup} disabled={cleanup.isPending}>
            {cleanup.isPending ? <Spinner /> : <Eraser aria-hidden />}
            Limpar Contas Expiradas
          </Button>
        </div>
      </div>

      <div className="grid gap-2 sm:max-w-md">
        <Label htmlFor="admin-user-search">Buscar usuários</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="admin-user-search"
            type="search"
            className="pl-9"
            placeholder="Nome, e-mail ou usuário"
            autoComplete="off"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </div>

      <Tabs value={tab} onValueChange={(v) => setTab(v as AdminTab)} className="min-w-0">
        <TabsList aria-label="Filtrar usuários" className="w-full sm:w-auto">
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
              <span className="rounded-full bg-zinc-200 px-1.5 text-xs font-semibold text-zinc-800 tabular-nums">
                {users.data ? counts[t.value] : '–'}
              </span>
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map((t) => (
          <TabsContent key={t.value} value={t.value} className="mt-6">
            {t.value === tab ? listView : null}
          </TabsContent>
        ))}
      </Tabs>

      <AdminJobsSection />
    </div>
  );
}

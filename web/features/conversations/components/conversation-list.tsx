import { Headset, Inbox, MessagesSquare, Search, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ConnectionView } from '#contract/connections';
import { type Conversation, conversationsMsg } from '#contract/conversations';
import { pluralForm } from '#contract/plural';
import type { Queue } from '#contract/queues';
import { EmptyState, ErrorState } from '#web/components/states';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { NativeSelect } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { formatDateTime, formatRelativeTime } from '#web/lib/format';
import { cn } from '#web/lib/utils';
import type { useConversations } from '../api/get-conversations';
import {
  assigneeText,
  CONVERSATION_FILTER_LABELS,
  type ConversationFilter,
  conversationFilters,
  DEFAULT_CONVERSATION_FILTER,
  filterEmptyState,
  parseFilterParam,
  queueBadgeText,
  statusBadge,
} from '../conversation-team-view';
import {
  conversationTitle,
  isTakenOver,
  previewText,
  sameThread,
  type Thread,
  threadKey,
  threadOf,
  unreadText,
} from '../conversation-view';
import { QueueBadge } from './queue-badge';

function ListSkeleton() {
  return (
    <div className="grid gap-1 p-2" role="status" aria-busy="true" aria-label="Carregando conversas">
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="grid gap-2 rounded-md p-3">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-3 w-full" />
        </div>
      ))}
    </div>
  );
}

function ConversationItem({
  conversation: c,
  selected,
  showNumber,
  now,
  selfId,
  onSelect,
}: {
  conversation: Conversation;
  selected: boolean;
  /** The account has several numbers: the row says which one the contact wrote to. */
  showNumber: boolean;
  now: number;
  /** The signed-in login: its own answers read 'Você:', a teammate's their first name. */
  selfId?: string;
  onSelect: (thread: Thread) => void;
}) {
  const unread = c.unread > 0;
  const assignee = assigneeText(c);
  const status = statusBadge(c);
  const queue = queueBadgeText(c);
  return (
    <button
      type="button"
      className={cn(
        'grid w-full grid-cols-1 gap-1 rounded-md px-3 py-2.5 text-left transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring',
        selected && 'bg-brand-soft hover:bg-brand-soft',
      )}
      aria-current={selected ? 'true' : undefined}
      onClick={() => onSelect(threadOf(c))}
      data-testid="conversation-item"
    >
      <span className="flex items-center gap-2">
        <span className={cn('min-w-0 flex-1 truncate', unread ? 'font-semibold' : 'font-medium')}>
          {conversationTitle(c)}
        </span>
        {showNumber && c.numberLabel ? (
          <Badge tone="outline" className="max-w-28 min-w-0 shrink" data-testid="conversation-item-number">
            <span className="sr-only">Número: </span>
            <span className="truncate">{c.numberLabel}</span>
          </Badge>
        ) : null}
        <time
          dateTime={c.lastMessageAt}
          title={formatDateTime(c.lastMessageAt)}
          className="shrink-0 text-xs text-muted-foreground"
        >
          {formatRelativeTime(c.lastMessageAt, now)}
        </time>
      </span>
      <span className="flex items-center gap-2">
        <span className={cn('min-w-0 flex-1 truncate text-sm', unread ? 'text-foreground' : 'text-muted-foreground')}>
          {previewText(c, selfId)}
        </span>
        {isTakenOver(c, now) ? (
          <Badge tone="yellow">
            <Headset aria-hidden />
            Atendente
          </Badge>
        ) : null}
        {unread ? (
          <Badge tone="brand" className="border-brand-deep bg-brand-deep text-white">
            {unreadText(c.unread)}
            <span className="sr-only"> {pluralForm(c.unread, 'não lida', 'não lidas')}</span>
          </Badge>
        ) : null}
      </span>
      {assignee || status || queue ? (
        <span className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
          {status ? (
            <Badge tone={status.tone} data-testid="conversation-item-status">
              {status.label}
            </Badge>
          ) : null}
          {queue ? <QueueBadge name={queue} className="max-w-36 shrink" testId="conversation-item-queue" /> : null}
          {assignee ? (
            <span className="flex min-w-0 items-center gap-1" data-testid="conversation-item-assignee">
              <UserRound aria-hidden className="size-3 shrink-0" />
              <span className="truncate">{assignee}</span>
            </span>
          ) : null}
        </span>
      ) : null}
    </button>
  );
}

/**
 * The left pane: search, the 'Número' filter (with several numbers), the 'Fila' filter (with any
 * queue), the tabs by who has a
 * conversation or where it stands ('Minhas', 'Sem responsável', 'Todas', 'Resolvidas') and the
 * conversations by last activity.
 */
export function ConversationList({
  list,
  search,
  onSearchChange,
  searching,
  numbers = null,
  numberId = '',
  onNumberChange,
  filter = DEFAULT_CONVERSATION_FILTER,
  onFilterChange,
  queues = null,
  queueId = '',
  onQueueChange,
  selected,
  now,
  selfId,
  onSelect,
}: {
  list: ReturnType<typeof useConversations>;
  search: string;
  onSearchChange: (value: string) => void;
  /** Whether the list shown is for a search (so 'no results' differs from 'no conversations'). */
  searching: boolean;
  /** The account's numbers when it has several (the filter and the rows' badges); null hides both. */
  numbers?: readonly Pick<ConnectionView, 'id' | 'label'>[] | null;
  /** The number the list is filtered by ('' for all). */
  numberId?: string;
  onNumberChange?: (id: string) => void;
  /** The tab the list shows ('all' for every conversation). */
  filter?: ConversationFilter;
  onFilterChange?: (filter: ConversationFilter) => void;
  /** The account's queues when it has any (the 'Fila' filter); null hides it. */
  queues?: readonly Pick<Queue, 'id' | 'name'>[] | null;
  /** The queue the list is filtered by ('' for every queue). */
  queueId?: string;
  onQueueChange?: (id: string) => void;
  /** The open conversation (a contact who wrote to two numbers has two rows: only its own is selected). */
  selected: Thread | null;
  now: number;
  /** The signed-in login's id (whose answers read 'Você:'). */
  selfId?: string;
  onSelect: (thread: Thread) => void;
}) {
  const conversations = list.data?.conversations;
  const filtered = filterEmptyState(filter);
  let body: ReactNode;
  if (list.isPending) {
    body = <ListSkeleton />;
  } else if (list.isError && !conversations) {
    body = (
      <ErrorState
        title="Não foi possível carregar as conversas."
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else if (!conversations || conversations.length === 0) {
    body = searching ? (
      <EmptyState
        icon={Search}
        title="Nenhuma conversa encontrada"
        description="Nenhuma conversa corresponde a esta busca. Tente outro nome ou número."
        action={
          <Button variant="outline" size="sm" onClick={() => onSearchChange('')}>
            Limpar busca
          </Button>
        }
      />
    ) : filtered ? (
      <EmptyState
        icon={MessagesSquare}
        title={filtered.title}
        description={filtered.description}
        action={
          <Button variant="outline" size="sm" onClick={() => onFilterChange?.(DEFAULT_CONVERSATION_FILTER)}>
            Ver todas
          </Button>
        }
      />
    ) : queueId ? (
      <EmptyState
        icon={Inbox}
        title="Nenhuma conversa nesta fila"
        description="As conversas que entrarem nesta fila aparecem aqui."
        action={
          <Button variant="outline" size="sm" onClick={() => onQueueChange?.('')}>
            Ver todas as filas
          </Button>
        }
      />
    ) : numberId ? (
      <EmptyState
        icon={MessagesSquare}
        title="Nenhuma conversa neste número"
        description="Nenhum contato escreveu para este número ainda."
        action={
          <Button variant="outline" size="sm" onClick={() => onNumberChange?.('')}>
            Ver todos os números
          </Button>
        }
      />
    ) : (
      <EmptyState icon={MessagesSquare} title="Nenhuma conversa" description={conversationsMsg.empty} />
    );
  } else {
    body = (
      <ul className="grid grid-cols-1 gap-0.5 p-2" aria-label="Conversas">
        {conversations.map((c) => (
          <li key={threadKey(c)}>
            <ConversationItem
              conversation={c}
              selected={selected !== null && sameThread(c, selected)}
              showNumber={numbers !== null}
              now={now}
              selfId={selfId}
              onSelect={onSelect}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Tabs
      value={filter}
      onValueChange={(value) => onFilterChange?.(parseFilterParam(value))}
      className="flex min-h-0 flex-1 flex-col"
    >
      <div className="grid gap-2 border-b p-3">
        <Label htmlFor="conversation-search">Buscar conversas</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="conversation-search"
            type="search"
            className="pl-9"
            placeholder={conversationsMsg.search}
            autoComplete="off"
            value={search}
            onChange={(event) => onSearchChange(event.target.value)}
          />
        </div>
        {numbers || queues ? (
          // Side by side where the list is wide (tablets); one under the other on phones and the desktop's column.
          <div className={cn('grid gap-2', numbers && queues && 'sm:grid-cols-2 lg:grid-cols-1')}>
            {numbers ? (
              <div className="grid min-w-0 gap-2">
                <Label htmlFor="conversation-number">Número</Label>
                <NativeSelect
                  id="conversation-number"
                  value={numberId}
                  onChange={(event) => onNumberChange?.(event.target.value)}
                >
                  <option value="">Todos os números</option>
                  {numbers.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.label}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ) : null}
            {queues ? (
              <div className="grid min-w-0 gap-2">
                <Label htmlFor="conversation-queue">Fila</Label>
                <NativeSelect
                  id="conversation-queue"
                  value={queueId}
                  onChange={(event) => onQueueChange?.(event.target.value)}
                >
                  <option value="">Todas as filas</option>
                  {queues.map((queue) => (
                    <option key={queue.id} value={queue.id}>
                      {queue.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            ) : null}
          </div>
        ) : null}
        {/* Two by two where the column is narrow (phones, the desktop's list), in a row between. */}
        <TabsList aria-label="Filtrar conversas" className="grid w-full grid-cols-2 sm:grid-cols-4 lg:grid-cols-2">
          {conversationFilters.map((f) => (
            <TabsTrigger key={f} value={f} className="pointer-coarse:min-h-11">
              {CONVERSATION_FILTER_LABELS[f]}
            </TabsTrigger>
          ))}
        </TabsList>
      </div>
      {/* One panel for whichever tab is chosen: the list under that filter. */}
      <TabsContent value={filter} className="mt-0 min-h-0 flex-1 overflow-x-hidden overflow-y-auto">
        {body}
      </TabsContent>
    </Tabs>
  );
}

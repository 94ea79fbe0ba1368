import { MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { conversationsMsg } from '#contract/conversations';
import { LockedPage } from '#web/components/locked-state';
import { EmptyState } from '#web/components/states';
import { Card } from '#web/components/ui/card';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadWorkspace } from '#web/lib/auth/permissions';
import { QUEUE_PARAM } from '#web/lib/paths';
import { useConnections } from '#web/lib/queries/connections';
import { useQueues } from '#web/lib/queries/get-queues';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { useNow } from '#web/lib/use-now';
import { cn } from '#web/lib/utils';
import { useConversations } from '../api/get-conversations';
import {
  activeQueueId,
  type ConversationFilter,
  conversationListParams,
  FILTER_PARAM,
  parseFilterParam,
  parseQueueParam,
  withFilterParam,
  withQueueParam,
} from '../conversation-team-view';
import {
  findConversation,
  paneKeyOf,
  parseNumberParam,
  parseThreadParams,
  type RenamedThread,
  type Thread,
  threadKey,
  threadOf,
  withThreadParams,
} from '../conversation-view';
import { ConversationList } from './conversation-list';
import { ConversationPane } from './conversation-pane';

/**
 * /conversations: the list on the left, the open conversation on the right (one at a time under
 * 1024 px). `?phone=<digits>&number=<connection id>` opens a conversation (a contact on one of the
 * account's numbers), so contacts, notifications and shared links can point at one; with `phone`
 * alone, the contact's latest, whose number then goes into the URL (a refresh keeps the same one).
 * With several numbers, each conversation shows the number it is on, and 'Número' filters the list.
 * `?filter=mine|unassigned|resolved` keeps the list's tab ('Minhas', 'Sem responsável', 'Resolvidas';
 * none for 'Todas'), so a reload or a shared link shows the same conversations; `?queue=<id>` the
 * queue it is filtered by (with any queue in Filas, 'Fila' filters the list, and each row names its queue).
 */
export default function ConversationsPage() {
  const user = useAuthenticatedUser();
  const readable = canReadWorkspace(user);
  const [searchParams, setSearchParams] = useSearchParams();
  const thread = parseThreadParams(searchParams);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  // With two numbers or more, each conversation says which one it is on, and the list filters by number.
  const numbers = useConnections().data?.connections ?? [];
  const byNumber = numbers.length >= 2;
  const [numberId, setNumberId] = useState('');
  const activeNumber = byNumber && numbers.some((n) => n.id === numberId) ? numberId : '';
  const filter = parseFilterParam(searchParams.get(FILTER_PARAM));
  // With a queue or more (Filas), the list filters by queue too; `?queue=` keeps the choice in the URL.
  const queues = useQueues(readable).data;
  const queueId = activeQueueId(parseQueueParam(searchParams.get(QUEUE_PARAM)), queues);
  const list = useConversations(q, readable, activeNumber, conversationListParams(filter, queueId));
  // Another tab is not a step back can undo; the open conversation stays open.
  const selectFilter = (next: ConversationFilter) =>
    setSearchParams((prev) => withFilterParam(prev, next), { replace: true });
  const selectQueue = (next: string) => setSearchParams((prev) => withQueueParam(prev, next), { replace: true });
  // Relative times ('5m atrás') and the 'Atendente' badges follow the clock between polls.
  const now = useNow(30_000);

  const select = (next: Thread | null) =>
    setSearchParams(
      (prev) => withThreadParams(prev, next),
      // Opening the first conversation is a step back can undo; switching between them is not.
      { replace: thread !== null || next === null },
    );
  // A pane opened without a number stays the same pane once the URL names it (a reply being typed stays).
  const [renamed, setRenamed] = useState<RenamedThread | null>(null);
  // Opened without a number: name the one the server answered, in place (no new history entry).
  const resolve = (answered: Thread) => {
    if (!thread || thread.connectionId || answered.phone !== thread.phone) return;
    if (!parseNumberParam(answered.connectionId)) return;
    setRenamed({ thread: threadKey(answered), pane: threadKey(thread) });
    setSearchParams((prev) => withThreadParams(prev, answered), { replace: true });
  };

  const header = (
    <div className="grid gap-1">
      <h2 className="text-lg font-semibold">{conversationsMsg.title}</h2>
      <p className="text-sm text-muted-foreground">
        Veja as mensagens dos seus contatos, responda e decida quando o chatbot atende.
      </p>
    </div>
  );

  if (!readable) return <LockedPage header={header} />;

  const listItem = thread ? findConversation(list.data?.conversations, thread) : undefined;
  // Without a number in the URL yet, the row it stands for (the contact's latest) shows as selected.
  const selected = thread && !thread.connectionId && listItem ? threadOf(listItem) : thread;
  const phone = thread?.phone ?? null;

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className={cn(phone && 'max-lg:sr-only')}>{header}</div>
      <Card className="flex h-[calc(100dvh-12rem)] min-h-[28rem] overflow-hidden p-0 lg:h-[calc(100dvh-14rem)]">
        <div
          className={cn('w-full min-w-0 flex-col lg:flex lg:w-80 lg:shrink-0 lg:border-r', phone ? 'hidden' : 'flex')}
        >
          <ConversationList
            list={list}
            search={search}
            onSearchChange={setSearch}
            searching={q !== ''}
            numbers={byNumber ? numbers : null}
            numberId={activeNumber}
            onNumberChange={setNumberId}
            filter={filter}
            onFilterChange={selectFilter}
            queues={queues && queues.length > 0 ? queues : null}
            queueId={queueId}
            onQueueChange={selectQueue}
            selected={selected}
            now={now}
            selfId={user.id}
            onSelect={select}
          />
        </div>
        <div className={cn('min-w-0 flex-1 flex-col lg:flex', phone ? 'flex' : 'hidden')}>
          {thread ? (
            <ConversationPane
              key={paneKeyOf(thread, renamed)}
              thread={thread}
              listItem={listItem}
              showNumber={byNumber}
              onBack={() => select(null)}
              onResolve={resolve}
            />
          ) : (
            <EmptyState
              className="flex-1"
              icon={MessagesSquare}
              title="Selecione uma conversa"
              description="Escolha um contato na lista para ver as mensagens e responder."
            />
          )}
        </div>
      </Card>
    </div>
  );
}

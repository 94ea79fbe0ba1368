import { ArrowLeft, Bot, Headset, MessagesSquare, Smartphone, UserRound } from 'lucide-react';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type Conversation, type ConversationMessage, conversationsMsg } from '#contract/conversations';
import { formatPhone } from '#contract/phone';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { EmptyState, ErrorState } from '#web/components/states';
import { Avatar } from '#web/components/ui/avatar';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Skeleton } from '#web/components/ui/skeleton';
import { Spinner } from '#web/components/ui/spinner';
import { isApiError } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useNow } from '#web/lib/use-now';
import { cn } from '#web/lib/utils';
import { getConversationPage, useConversation } from '../api/get-conversation';
import { useReleaseConversation } from '../api/release-conversation';
import { useTakeOverConversation } from '../api/take-over-conversation';
import { queueBadgeText, statusBadge } from '../conversation-team-view';
import {
  conversationTitle,
  handoffState,
  mayHaveOlder,
  mergeMessages,
  olderCursor,
  type Thread,
  threadOf,
} from '../conversation-view';
import { ConversationTeamBar } from './conversation-team-bar';
import { MessageBubble } from './message-bubble';
import { MessageComposer } from './message-composer';
import { QueueBadge } from './queue-badge';

/** How close to the bottom (px) still counts as reading the newest messages, so new ones scroll in. */
const STICK_TO_BOTTOM_PX = 80;

function MessagesSkeleton() {
  return (
    <div className="grid gap-3 p-4" role="status" aria-busy="true" aria-label="Carregando mensagens">
      {['w-2/3', 'ml-auto w-1/2', 'w-1/3', 'ml-auto w-3/5'].map((w) => (
        <Skeleton key={w} className={cn('h-14 rounded-lg', w)} />
      ))}
    </div>
  );
}

function HandoffBar({ conversation, now }: { conversation: Conversation; now: number }) {
  // The conversation shown: this contact on this number (the bot is silenced per conversation).
  const thread = threadOf(conversation);
  const release = useReleaseConversation();
  const takeOver = useTakeOverConversation();
  const state = handoffState(conversation.takenOverUntil, now);
  const Icon = state.active ? Headset : Bot;
  // While a person answers, the button hands the conversation back; otherwise it takes it over.
  const action = state.active
    ? {
        mutation: release,
        icon: Bot,
        label: 'Devolver ao chatbot',
        done: conversationsMsg.released,
        failed: 'Não foi possível devolver a conversa ao chatbot.',
      }
    : {
        mutation: takeOver,
        icon: Headset,
        label: 'Assumir conversa',
        done: conversationsMsg.takenOver,
        failed: 'Não foi possível assumir a conversa.',
      };
  return (
    <div
      className={cn(
        // One row when the words and the button fit (a phone's 'Chatbot atendendo' too): the pane's
        // bars leave the messages room on a small screen.
        'flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-b px-4 py-2 text-sm',
        state.active ? 'bg-amber-50 text-amber-900' : 'bg-muted/60 text-muted-foreground',
      )}
      data-testid="handoff-state"
    >
      <p className="flex min-w-0 flex-[1_1_8rem] items-center gap-2">
        <Icon aria-hidden className="size-4 shrink-0" />
        <span>{state.text}</span>
      </p>
      <PermissionGatedButton
        kind="message"
        team="agent"
        variant="outline"
        size="sm"
        disabled={action.mutation.isPending}
        icon={action.mutation.isPending ? <Spinner /> : <action.icon aria-hidden />}
        onClick={() =>
          action.mutation.mutate(thread, {
            onSuccess: () => toastSuccess(action.done),
            onError: (error) => toastError(error, action.failed),
          })
        }
      >
        {action.label}
      </PermissionGatedButton>
    </div>
  );
}

function PaneHeader({
  phone,
  conversation,
  showNumber,
  onBack,
}: {
  phone: string;
  conversation: Conversation | undefined;
  showNumber: boolean;
  onBack: () => void;
}) {
  const title = conversation ? conversationTitle(conversation) : formatPhone(phone);
  const showPhone = Boolean(conversation?.name?.trim());
  // The number the contact wrote to: replies go out through it.
  const numberLabel = showNumber ? conversation?.numberLabel : null;
  // Pending or resolved (an open conversation needs no word).
  const status = conversation ? statusBadge(conversation) : null;
  // The queue it is in (Filas), when it is in one.
  const queue = conversation ? queueBadgeText(conversation) : null;
  return (
    <div className="flex items-center gap-3 border-b px-3 py-3 sm:px-4">
      <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Voltar para a lista" onClick={onBack}>
        <ArrowLeft aria-hidden />
      </Button>
      <Avatar name={conversation?.name} />
      <div className="grid min-w-0 flex-1">
        <h3 className="truncate font-semibold" data-testid="conversation-title">
          {title}
        </h3>
        {showPhone || numberLabel || status || queue ? (
          <p className="flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
            {status ? (
              <Badge tone={status.tone} className="shrink-0" data-testid="conversation-status">
                {status.label}
              </Badge>
            ) : null}
            {queue ? <QueueBadge name={queue} className="max-w-40" testId="conversation-queue" /> : null}
            {showPhone ? <span className="truncate tabular-nums">{formatPhone(phone)}</span> : null}
            {numberLabel ? (
              <Badge tone="outline" className="max-w-40 min-w-0" data-testid="conversation-number">
                <Smartphone aria-hidden />
                <span className="truncate">via {numberLabel}</span>
              </Badge>
            ) : null}
          </p>
        ) : null}
      </div>
      {conversation?.contactId ? (
        <Button variant="outline" size="sm" asChild>
          <Link to={`${paths.contacts}?q=${encodeURIComponent(phone)}`} aria-label={`Ver contato ${title}`}>
            <UserRound aria-hidden />
            <span className="max-sm:sr-only">Ver contato</span>
          </Link>
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The open conversation: header, who of the team has it and where it stands, who answers now
 * (chatbot or a person), the messages (newest page polled, older pages on demand, the team's notes
 * among them) and the reply box (or a note's). Keyed by thread, so its state starts over per
 * conversation (a contact on one number).
 */
export function ConversationPane({
  thread,
  listItem,
  showNumber = false,
  onBack,
  onResolve,
}: {
  /** Without a number, the server answers the contact's latest conversation. */
  thread: Thread;
  listItem: Conversation | undefined;
  /** The account has several numbers: the header says which one the conversation is on ('via Vendas'). */
  showNumber?: boolean;
  onBack: () => void;
  /** Opened without a number: the thread the server answered (with its number), once it has. */
  onResolve?: (thread: Thread) => void;
}) {
  const { phone } = thread;
  const detail = useConversation(thread);
  const now = useNow(30_000);
  const [older, setOlder] = useState<ConversationMessage[]>([]);
  const [olderPageFull, setOlderPageFull] = useState<boolean | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const scrollRef = useRef<HTMLElement>(null);
  const stickToBottom = useRef(true);
  /** Distance from the bottom before older messages were added, to keep the view where it was. */
  const restoreFromBottom = useRef<number | null>(null);

  const latest = detail.data?.messages;
  const messages = latest ? mergeMessages(older, latest) : [];
  const conversation = detail.data?.conversation ?? listItem;
  const hasOlder = latest ? (olderPageFull ?? mayHaveOlder(latest.length)) : false;
  const lastId = messages.at(-1)?.id;
  // The number the server answered for (the thread's own, or the one it picked without one).
  const answeredNumber = detail.data?.conversation.connectionId ?? null;
  // Every call (older pages, the reply) goes to the conversation shown, even before the URL names it.
  const resolved: Thread = { phone, connectionId: thread.connectionId ?? answeredNumber };

  // Once per number answered: the URL's change commits in a transition, during which this pane
  // renders again with the old URL; asking again would start the navigation over, and over.
  const resolvedTo = useRef<string | null>(null);
  useEffect(() => {
    if (thread.connectionId || !answeredNumber || resolvedTo.current === answeredNumber) return;
    resolvedTo.current = answeredNumber;
    onResolve?.({ phone, connectionId: answeredNumber });
  }, [phone, thread.connectionId, answeredNumber, onResolve]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest message or the older pages change
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (restoreFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - restoreFromBottom.current;
      restoreFromBottom.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [lastId, older.length]);

  const loadOlder = async () => {
    const before = olderCursor(messages);
    if (!before || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await getConversationPage(resolved, { before });
      const el = scrollRef.current;
      if (el) restoreFromBottom.current = el.scrollHeight - el.scrollTop;
      setOlder((prev) => mergeMessages(page.messages, prev));
      setOlderPageFull(mayHaveOlder(page.messages.length));
    } catch (error) {
      toastError(error, 'Não foi possível carregar as mensagens anteriores.');
    } finally {
      setLoadingOlder(false);
    }
  };

  let body: ReactNode;
  if (detail.isPending) {
    body = <MessagesSkeleton />;
  } else if (detail.isError && !detail.data) {
    // 404: no message with this number yet (a contact opened from the contacts page, say).
    body =
      isApiError(detail.error) && detail.error.status === 404 ? (
        <EmptyState
          icon={MessagesSquare}
          title={conversationsMsg.notFound}
          description="Ainda não há mensagens com este número. Quando o contato escrever ou receber uma mensagem, a conversa aparece aqui."
        />
      ) : (
        <ErrorState
          title="Não foi possível carregar a conversa."
          onRetry={() => void detail.refetch()}
          retrying={detail.isFetching}
        />
      );
  } else if (messages.length === 0) {
    body = (
      <EmptyState
        icon={MessagesSquare}
        title="Nenhuma mensagem ainda"
        description="Escreva abaixo para começar a conversa."
      />
    );
  } else {
    body = (
      <div className="grid gap-3 p-4">
        {hasOlder ? (
          <Button
            variant="outline"
            size="sm"
            className="mx-auto"
            disabled={loadingOlder}
            onClick={() => void loadOlder()}
          >
            {loadingOlder ? <Spinner /> : null}
            Carregar mensagens anteriores
          </Button>
        ) : null}
        <ol className="grid gap-2" aria-label="Mensagens">
          {messages.map((m) => (
            <MessageBubble key={m.id} message={m} now={now} />
          ))}
        </ol>
      </div>
    );
  }

  return (
    <section className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Conversa">
      <PaneHeader phone={phone} conversation={conversation} showNumber={showNumber} onBack={onBack} />
      {conversation ? <ConversationTeamBar conversation={conversation} /> : null}
      {conversation ? <HandoffBar conversation={conversation} now={now} /> : null}
      <section
        ref={scrollRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus to scroll by keyboard (axe scrollable-region-focusable)
        tabIndex={0}
        aria-label={`Mensagens com ${conversation ? conversationTitle(conversation) : formatPhone(phone)}`}
        className="min-h-0 flex-1 overflow-y-auto bg-muted/40 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
        onScroll={(event) => {
          const el = event.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
        }}
      >
        {body}
      </section>
      {detail.data ? <MessageComposer thread={resolved} contact={{ name: conversation?.name, phone }} /> : null}
    </section>
  );
}

import { Clock, type LucideIcon, MessagesSquare, Shuffle, Smartphone, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { QUEUE_ASSIGNMENT_LABELS, type Queue } from '#contract/queues';
import { EditDeleteButtons } from '#web/components/row-actions';
import { Badge } from '#web/components/ui/badge';
import { queueConversationsPath } from '#web/lib/paths';
import { hoursText, namesText, openConversationsText } from '../queue-view';

function Fact({ icon: Icon, label, children }: { icon: LucideIcon; label: string; children: string }) {
  return (
    <div className="grid grid-cols-[7.5rem_minmax(0,1fr)] items-start gap-3 text-sm max-[359px]:grid-cols-1 max-[359px]:gap-0.5">
      <dt className="flex items-center gap-1.5 text-muted-foreground">
        <Icon aria-hidden className="size-4 shrink-0" />
        {label}
      </dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * One queue on Filas: its name and open conversations (a link to them in Conversas), its numbers,
 * people, hours ('24 horas' when always open) and how conversations are handed out; 'Editar' and
 * 'Excluir' for the owner and managers only.
 */
export function QueueCard({
  queue,
  numberNames,
  memberNames,
  onEdit,
  onDelete,
}: {
  queue: Queue;
  /** The account's numbers by id; undefined when the page cannot read them (an agent). */
  numberNames: ReadonlyMap<string, string> | undefined;
  memberNames: ReadonlyMap<string, string> | undefined;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <li className="grid min-w-0 content-start gap-4 rounded-xl border bg-card p-4 shadow-xs" data-testid="queue-card">
      <div className="flex min-w-0 items-start gap-2">
        <div className="grid min-w-0 flex-1 gap-1.5">
          <h3 className="truncate font-semibold" title={queue.name} data-testid="queue-name">
            {queue.name}
          </h3>
          <Link
            to={queueConversationsPath(queue.id)}
            className="flex w-fit items-center gap-1.5 rounded-sm text-sm text-brand-ink underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            data-testid="queue-open"
          >
            <MessagesSquare aria-hidden className="size-4 shrink-0" />
            {openConversationsText(queue.openConversations)}
            <span className="sr-only"> em {queue.name}: ver em Conversas</span>
          </Link>
        </div>
        <div className="-mt-1 -mr-1 flex shrink-0 gap-1">
          <EditDeleteButtons name={queue.name} onEdit={onEdit} onDelete={onDelete} />
        </div>
      </div>
      <dl className="grid gap-2.5">
        <Fact icon={Smartphone} label="Números">
          {namesText(queue.connectionIds, numberNames, {
            one: 'número',
            other: 'números',
            none: 'Nenhum: só pelo chatbot',
          })}
        </Fact>
        <Fact icon={UsersRound} label="Equipe">
          {namesText(queue.memberIds, memberNames, { one: 'pessoa', other: 'pessoas', none: 'Ninguém ainda' })}
        </Fact>
        <Fact icon={Clock} label="Horário">
          {hoursText(queue.hours)}
        </Fact>
        <Fact icon={Shuffle} label="Distribuição">
          {QUEUE_ASSIGNMENT_LABELS[queue.assignment]}
        </Fact>
      </dl>
      {queue.hours === null ? null : (
        <div className="flex flex-wrap gap-1.5">
          <Badge tone={queue.outOfHoursMessage.trim() ? 'blue' : 'neutral'}>
            {queue.outOfHoursMessage.trim() ? 'Com mensagem fora do horário' : 'Sem mensagem fora do horário'}
          </Badge>
        </div>
      )}
    </li>
  );
}

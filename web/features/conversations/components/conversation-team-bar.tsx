import { CircleCheck, CircleDot, Clock, RotateCcw, UserRoundCheck } from 'lucide-react';
import { useId } from 'react';
import type { Conversation, ConversationStatus } from '#contract/conversations';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Label } from '#web/components/ui/label';
import { NativeSelect } from '#web/components/ui/select';
import { Spinner } from '#web/components/ui/spinner';
import { useAuthenticatedUser } from '#web/lib/auth/get-me';
import { canReadAs } from '#web/lib/auth/permissions';
import { useCanAct } from '#web/lib/auth/use-can-act';
import { useTeamDirectory } from '#web/lib/queries/get-team-directory';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { useAssignConversation } from '../api/assign-conversation';
import { useSetConversationStatus } from '../api/set-conversation-status';
import {
  assigneeOptions,
  isAssignedTo,
  NO_ASSIGNEE,
  type StatusAction,
  statusActions,
} from '../conversation-team-view';
import { threadOf } from '../conversation-view';

const STATUS_ICONS: Record<ConversationStatus, typeof CircleCheck> = {
  resolved: CircleCheck,
  open: CircleDot,
  pending: Clock,
};

/** Phones show the secondary status buttons by their state alone; the full label stays their name. */
const COMPACT_LABELS: Partial<Record<ConversationStatus, string>> = { pending: 'Pendente', open: 'Aberta' };

/**
 * Who of the team has the conversation and where it stands: 'Responsável' (the account's people and
 * 'Sem responsável') with 'Assumir' to take it oneself, and the status buttons ('Resolver' or
 * 'Reabrir', 'Marcar como pendente'). Every team role may use them; each answer's `message` is the
 * toast, and the conversation's copies (pane and lists) take the answer at once.
 */
export function ConversationTeamBar({ conversation }: { conversation: Conversation }) {
  const user = useAuthenticatedUser();
  const thread = threadOf(conversation);
  const directory = useTeamDirectory(canReadAs(user, 'agent'));
  const assign = useAssignConversation();
  const setStatus = useSetConversationStatus();
  const can = useCanAct('message');
  const selectId = useId();
  const hintId = useId();

  const options = assigneeOptions(directory.data, conversation, user.id);
  // The choice shows at once while it is saved (and falls back to the answer, or to what was, after).
  const pending = assign.isPending ? (assign.variables.memberId ?? NO_ASSIGNEE) : null;
  const value =
    pending !== null && options.some((o) => o.value === pending) ? pending : (conversation.assigneeId ?? NO_ASSIGNEE);
  const mine = isAssignedTo(conversation, user.id);

  const giveTo = (memberId: string | null) => {
    if (assign.isPending || can.state !== 'allowed') return;
    assign.mutate(
      { thread, memberId },
      {
        onSuccess: (response) => toastSuccess(response.message),
        onError: (error) => toastError(error, 'Não foi possível mudar o responsável pela conversa.'),
      },
    );
  };
  const mark = (action: StatusAction) =>
    setStatus.mutate(
      { thread, status: action.status },
      {
        onSuccess: (response) => toastSuccess(response.message),
        onError: (error) => toastError(error, 'Não foi possível mudar a situação da conversa.'),
      },
    );

  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b px-3 py-2 text-sm sm:px-4"
      data-testid="conversation-team"
    >
      <div className="flex min-w-0 flex-[1_1_16rem] items-center gap-2">
        <Label htmlFor={selectId} className="shrink-0">
          Responsável
        </Label>
        <NativeSelect
          id={selectId}
          className="min-w-0 flex-1 sm:max-w-56"
          value={value}
          // Not disabled while saving: a disabled control would drop the keyboard's focus.
          aria-busy={assign.isPending || undefined}
          disabled={can.state !== 'allowed'}
          aria-describedby={can.state !== 'allowed' ? hintId : undefined}
          onChange={(event) => giveTo(event.target.value || null)}
          data-testid="conversation-assignee"
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
        {can.state !== 'allowed' ? (
          <span id={hintId} className="sr-only">
            {can.hint}
          </span>
        ) : null}
        {mine ? null : (
          <PermissionGatedButton
            kind="message"
            team="agent"
            variant="outline"
            size="sm"
            disabled={assign.isPending}
            icon={
              assign.isPending && assign.variables.memberId === user.id ? <Spinner /> : <UserRoundCheck aria-hidden />
            }
            onClick={() => giveTo(user.id)}
          >
            Assumir<span className="sr-only"> como responsável</span>
          </PermissionGatedButton>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {statusActions(conversation).map((action) => {
          const Icon = action.primary && action.status === 'open' ? RotateCcw : STATUS_ICONS[action.status];
          const compact = action.primary ? undefined : COMPACT_LABELS[action.status];
          return (
            <PermissionGatedButton
              key={action.status}
              kind="message"
              team="agent"
              variant="outline"
              size="sm"
              disabled={setStatus.isPending}
              icon={
                setStatus.isPending && setStatus.variables.status === action.status ? <Spinner /> : <Icon aria-hidden />
              }
              compactLabel={compact}
              onClick={() => mark(action)}
            >
              {action.label}
            </PermissionGatedButton>
          );
        })}
      </div>
    </div>
  );
}

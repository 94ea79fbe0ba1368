import { Pause, Pencil, Play, Trash2 } from 'lucide-react';
import { type AutoReply, autoReplyTypeLabels } from '#contract/bot';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Card } from '#web/components/ui/card';
import { buttonActionLabel } from '../auto-messages';
import { WhatsappPreview } from './whatsapp-preview';

const TYPE_TONES: Record<AutoReply['type'], BadgeTone> = {
  text: 'neutral',
  interactive: 'blue',
  image: 'purple',
  document: 'neutral',
  audio: 'neutral',
  video: 'purple',
  location: 'blue',
  contact: 'blue',
};

/** One rule of the manager: preview, badges, its buttons' actions, edit, pause/activate and delete. */
export function AutoMessageCard({
  reply,
  busy,
  onEdit,
  onToggle,
  onDelete,
}: {
  reply: AutoReply;
  /** A change of this rule is under way. */
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const buttons = reply.type === 'interactive' || reply.type === 'image' ? reply.buttons : [];
  const forTrigger = <span className="sr-only"> a mensagem {reply.trigger}</span>;
  return (
    <Card className="grid gap-4 p-4 sm:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]" data-testid="auto-message-card">
      <WhatsappPreview
        trigger={reply.trigger}
        response={reply.response}
        type={reply.type}
        imageUrl={reply.imageUrl}
        buttons={buttons}
        className={reply.isActive ? undefined : 'opacity-60'}
        extras={{ location: reply.location, contactCard: reply.contactCard }}
      />
      <div className="grid min-w-0 content-start gap-3">
        <div className="grid gap-2">
          <h3 className="min-w-0 text-base font-semibold break-words">
            <span className="sr-only">Palavra-chave: </span>“{reply.trigger}”
          </h3>
          <div className="flex flex-wrap gap-1.5">
            <Badge tone={TYPE_TONES[reply.type]}>{autoReplyTypeLabels[reply.type]}</Badge>
            <Badge tone={reply.isActive ? 'green' : 'yellow'}>{reply.isActive ? 'Ativa' : 'Pausada'}</Badge>
          </div>
        </div>
        {buttons.length > 0 ? (
          <div className="grid gap-1">
            <p className="text-xs font-medium text-muted-foreground">Ações dos botões</p>
            <ul className="grid gap-1 text-sm">
              {buttons.map((b) => (
                <li key={b.id} className="min-w-0 break-words">
                  <span className="font-medium">{b.text}:</span> {buttonActionLabel(b)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2 pt-1">
          <PermissionGatedButton kind="bot" size="sm" variant="outline" icon={<Pencil aria-hidden />} onClick={onEdit}>
            Editar
            {forTrigger}
          </PermissionGatedButton>
          <PermissionGatedButton
            kind="bot"
            size="sm"
            variant="outline"
            disabled={busy}
            icon={reply.isActive ? <Pause aria-hidden /> : <Play aria-hidden />}
            onClick={onToggle}
          >
            {reply.isActive ? 'Pausar' : 'Ativar'}
            {forTrigger}
          </PermissionGatedButton>
          <PermissionGatedButton
            kind="bot"
            size="sm"
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            icon={<Trash2 aria-hidden />}
            onClick={onDelete}
          >
            Excluir
            {forTrigger}
          </PermissionGatedButton>
        </div>
      </div>
    </Card>
  );
}

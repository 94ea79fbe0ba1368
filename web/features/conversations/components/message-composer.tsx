import { SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { conversationsMsg } from '../../../../contract/conversations';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { toastError } from '../../../lib/toasts';
import { PermissionGatedButton } from '../../auth/components/permission-gated-button';
import { useCanAct } from '../../auth/hooks/use-can-act';
import { useSendConversationMessage } from '../api/send-conversation-message';

const MAX_LENGTH = 4096;

/**
 * The reply box: Enter sends, Shift+Enter breaks the line. Sending takes the conversation over.
 * On failure the text stays, with the server's reason in a toast.
 */
export function MessageComposer({ phone }: { phone: string }) {
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const send = useSendConversationMessage();
  const can = useCanAct('message');
  const inputId = useId();
  const hintId = useId();
  const trimmed = text.trim();

  const submit = () => {
    if (!trimmed || send.isPending || can.state !== 'allowed') return;
    setStatus('Enviando...');
    send.mutate(
      { phone, text: trimmed },
      {
        onSuccess: () => {
          // Anything typed while it was sending stays.
          setText((current) => (current.trim() === trimmed ? '' : current));
          setStatus(conversationsMsg.sent);
        },
        onError: (error) => {
          setStatus('');
          toastError(error, conversationsMsg.sendError);
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-1.5 border-t bg-card p-3" aria-label="Responder">
      <Label htmlFor={inputId} className="text-xs">
        Sua resposta
      </Label>
      <div className="flex items-end gap-2">
        <Textarea
          id={inputId}
          aria-describedby={hintId}
          rows={2}
          maxLength={MAX_LENGTH}
          placeholder="Escreva uma mensagem..."
          className="max-h-40 min-h-10 resize-none"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <PermissionGatedButton
          kind="message"
          type="submit"
          disabled={!trimmed || send.isPending}
          icon={send.isPending ? <Spinner /> : <SendHorizontal aria-hidden />}
        >
          Enviar
        </PermissionGatedButton>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        Enter envia, Shift+Enter quebra a linha. Ao responder, o chatbot fica em silêncio com este contato.
      </p>
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
    </form>
  );
}

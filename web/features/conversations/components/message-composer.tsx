import { zodResolver } from '@hookform/resolvers/zod';
import { SendHorizontal } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { conversationsMsg, sendConversationMessageInput } from '#contract/conversations';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { Textarea } from '#web/components/ui/textarea';
import { useCanAct } from '#web/lib/auth/use-can-act';
import { toastError } from '#web/lib/toasts';
import { useSendConversationMessage } from '../api/send-conversation-message';
import type { Thread } from '../conversation-view';

const MAX_LENGTH = 4096;

/**
 * The reply box, validated by the contract's `sendConversationMessageInput`: Enter sends, Shift+Enter
 * breaks the line, an empty text is not sent. Sending takes the conversation over. On failure the text
 * stays, with the server's reason in a toast. The reply goes out through the thread's number.
 */
export function MessageComposer({ thread }: { thread: Thread }) {
  const form = useForm({ resolver: zodResolver(sendConversationMessageInput), defaultValues: { text: '' } });
  const [status, setStatus] = useState('');
  const sending = useSendConversationMessage();
  const can = useCanAct('message');
  const inputId = useId();
  const hintId = useId();
  const empty = !form.watch('text').trim();

  const send = form.handleSubmit(({ text }) => {
    if (sending.isPending || can.state !== 'allowed') return;
    setStatus('Enviando...');
    sending.mutate(
      { thread, text },
      {
        onSuccess: () => {
          // Anything typed while it was sending stays.
          if (form.getValues('text').trim() === text) form.setValue('text', '');
          setStatus(conversationsMsg.sent);
        },
        onError: (error) => {
          setStatus('');
          toastError(error, conversationsMsg.sendError);
        },
      },
    );
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <form onSubmit={send} className="grid gap-1.5 border-t bg-card p-3" aria-label="Responder">
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
          {...form.register('text')}
          onKeyDown={onKeyDown}
        />
        <PermissionGatedButton
          kind="message"
          type="submit"
          disabled={empty || sending.isPending}
          icon={sending.isPending ? <Spinner /> : <SendHorizontal aria-hidden />}
        >
          Enviar
        </PermissionGatedButton>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        Enter envia, Shift+Enter quebra a linha. Ao responder, o chatbot fica em silêncio nesta conversa.
      </p>
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Mic, Paperclip, SendHorizontal, Square, X } from 'lucide-react';
import { type ClipboardEvent, type DragEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { conversationsMsg, sendConversationMessageInput } from '#contract/conversations';
import { FILE_ACCEPT, type Upload } from '#contract/uploads';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Button } from '#web/components/ui/button';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { Textarea } from '#web/components/ui/textarea';
import { useCanAct } from '#web/lib/auth/use-can-act';
import type { QuickReplyContact } from '#web/lib/quick-reply-fill';
import { toastError } from '#web/lib/toasts';
import { uploadFile } from '#web/lib/upload-image';
import { useSendConversationMessage } from '../api/send-conversation-message';
import type { Thread } from '../conversation-view';
import { formatFileSize } from '../message-content-view';
import { QuickReplySuggestions, useQuickReplyPicker } from './quick-reply-picker';
import { useVoiceRecorder } from './use-voice-recorder';

const MAX_LENGTH = 4096;

/**
 * The reply box, validated by the contract's `sendConversationMessageInput`: Enter sends, Shift+Enter
 * breaks the line, an empty text is not sent. A file goes with it: picked, dropped on the box or an
 * image pasted; or a voice note recorded in the page. Sending takes the conversation over. On failure
 * the text and the file stay, with the server's reason in a toast. The reply goes out through the
 * thread's number. Typing `/` offers the team's quick replies, filled for the conversation's `contact`.
 */
export function MessageComposer({ thread, contact }: { thread: Thread; contact: QuickReplyContact }) {
  const form = useForm({
    resolver: zodResolver(sendConversationMessageInput),
    defaultValues: { text: '', mediaUrl: undefined as string | undefined },
  });
  const [status, setStatus] = useState('');
  const [attached, setAttachedState] = useState<Upload | null>(null);
  // The file goes with the form's values, so the contract's rule (a text or a file) sees it.
  const setAttached = (upload: Upload | null) => {
    setAttachedState(upload);
    form.setValue('mediaUrl', upload ? `upload:${upload.id}` : undefined);
  };
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const sending = useSendConversationMessage();
  const can = useCanAct('message');
  const inputId = useId();
  const hintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const empty = !(form.watch('text') ?? '').trim() && !attached;
  const quickReplies = useQuickReplyPicker({
    contact,
    setText: (text) => form.setValue('text', text, { shouldDirty: true }),
    maxLength: MAX_LENGTH,
    tooLong: conversationsMsg.textTooLong,
  });
  const textField = form.register('text');

  const attach = async (file: File, opts: { voice?: boolean } = {}) => {
    if (uploading) return;
    setUploading(true);
    setStatus('Enviando arquivo...');
    try {
      const upload = await uploadFile(file, opts);
      setAttached(upload);
      setStatus(`Arquivo anexado: ${upload.fileName}`);
    } catch (error) {
      setStatus('');
      toastError(error, 'Não foi possível anexar o arquivo. Tente novamente.');
    } finally {
      setUploading(false);
    }
  };
  const recorder = useVoiceRecorder((file) => void attach(file, { voice: true }));

  const send = form.handleSubmit(({ text = '', mediaUrl }) => {
    if (sending.isPending || uploading || can.state !== 'allowed') return;
    if (!text && !mediaUrl) return;
    setStatus('Enviando...');
    sending.mutate(
      { thread, text, mediaUrl },
      {
        onSuccess: () => {
          // Anything typed while it was sending stays.
          if ((form.getValues('text') ?? '').trim() === text) {
            form.setValue('text', '');
            quickReplies.close();
          }
          setAttached(null);
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
    if (quickReplies.onKeyDown(event)) return;
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
    if (!file) return;
    event.preventDefault();
    void attach(file);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void attach(file);
  };

  return (
    <form
      onSubmit={send}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`grid gap-1.5 border-t bg-card p-3 ${dragging ? 'outline-2 outline-dashed outline-primary' : ''}`}
      aria-label="Responder"
    >
      <Label htmlFor={inputId} className="text-xs">
        Sua resposta
      </Label>
      {attached && (
        <div
          className="flex items-center gap-2 rounded-md border bg-muted/50 px-2 py-1 text-sm"
          data-testid="composer-attachment"
        >
          <Paperclip className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span className="min-w-0 flex-1 truncate">{attached.fileName}</span>
          <span className="shrink-0 text-xs text-muted-foreground">{formatFileSize(attached.size)}</span>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-7"
            aria-label={`Remover anexo ${attached.fileName}`}
            onClick={() => setAttached(null)}
          >
            <X className="size-4" aria-hidden />
          </Button>
        </div>
      )}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={FILE_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-label="Anexar arquivo"
          data-testid="composer-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void attach(file);
          }}
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label="Anexar arquivo"
          disabled={uploading || recorder.recording}
          onClick={() => fileInput.current?.click()}
        >
          {uploading ? <Spinner /> : <Paperclip className="size-4" aria-hidden />}
        </Button>
        <div className="relative min-w-0 flex-1">
          <QuickReplySuggestions {...quickReplies.listProps} />
          <Textarea
            id={inputId}
            aria-describedby={hintId}
            rows={2}
            maxLength={MAX_LENGTH}
            placeholder={recorder.recording ? `Gravando... ${recorder.elapsed}` : 'Escreva uma mensagem...'}
            className="max-h-40 min-h-10 resize-none"
            {...textField}
            {...quickReplies.inputProps}
            ref={(el) => {
              textField.ref(el);
              quickReplies.inputRef.current = el;
            }}
            onChange={(event) => {
              void textField.onChange(event);
              quickReplies.track(event.currentTarget);
            }}
            onBlur={(event) => {
              void textField.onBlur(event);
              quickReplies.close();
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
        </div>
        {recorder.supported && (
          <Button
            type="button"
            variant={recorder.recording ? 'destructive' : 'outline'}
            size="icon"
            aria-label={recorder.recording ? 'Parar gravação' : 'Gravar mensagem de voz'}
            aria-pressed={recorder.recording}
            disabled={uploading || Boolean(attached)}
            onClick={() => (recorder.recording ? recorder.stop() : void recorder.start())}
          >
            {recorder.recording ? <Square className="size-4" aria-hidden /> : <Mic className="size-4" aria-hidden />}
          </Button>
        )}
        <PermissionGatedButton
          kind="message"
          team="agent"
          type="submit"
          disabled={empty || sending.isPending || uploading || recorder.recording}
          icon={sending.isPending ? <Spinner /> : <SendHorizontal aria-hidden />}
        >
          Enviar
        </PermissionGatedButton>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        Enter envia, Shift+Enter quebra a linha.
        {quickReplies.available ? ' Digite / para usar uma resposta rápida.' : ''} Anexe, arraste ou cole um arquivo, ou
        grave um áudio. Ao responder, o chatbot fica em silêncio nesta conversa.
      </p>
      <p className="sr-only" aria-live="polite">
        {recorder.error || status}
      </p>
    </form>
  );
}

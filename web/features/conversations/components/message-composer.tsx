import { zodResolver } from '@hookform/resolvers/zod';
import { Mic, Paperclip, SendHorizontal, Square, StickyNote, X } from 'lucide-react';
import { type ClipboardEvent, type DragEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { conversationsMsg, NOTE_TEXT_MAX, sendConversationMessageInput } from '#contract/conversations';
import { FILE_ACCEPT, type Upload } from '#contract/uploads';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Button } from '#web/components/ui/button';
import { Label } from '#web/components/ui/label';
import { Spinner } from '#web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { Textarea } from '#web/components/ui/textarea';
import { useCanAct } from '#web/lib/auth/use-can-act';
import type { QuickReplyContact } from '#web/lib/quick-reply-fill';
import { toastError, toastSuccess } from '#web/lib/toasts';
import { uploadFile } from '#web/lib/upload-image';
import { cn } from '#web/lib/utils';
import { useAddConversationNote } from '../api/add-conversation-note';
import { useSendConversationMessage } from '../api/send-conversation-message';
import type { Thread } from '../conversation-view';
import { formatFileSize } from '../message-content-view';
import { QuickReplySuggestions, useQuickReplyPicker } from './quick-reply-picker';
import { useVoiceRecorder } from './use-voice-recorder';

const MAX_LENGTH = 4096;

/** What the box writes: a reply to the contact, or an internal note for the team. */
type ComposerMode = 'reply' | 'note';

/**
 * The reply box, validated by the contract's `sendConversationMessageInput`: Enter sends, Shift+Enter
 * breaks the line, an empty text is not sent. A file goes with it: picked, dropped on the box or an
 * image pasted; or a voice note recorded in the page. Sending takes the conversation over. On failure
 * the text and the file stay, with the server's reason in a toast. The reply goes out through the
 * thread's number. Typing `/` offers the team's quick replies, filled for the conversation's `contact`.
 *
 * 'Nota interna' turns it into the team's note (amber): text only, never sent to the contact, `@Nome`
 * tells a member. The text carries over between the two tabs; a file waits under 'Responder'.
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
  const adding = useAddConversationNote();
  const [mode, setMode] = useState<ComposerMode>('reply');
  const note = mode === 'note';
  const can = useCanAct('message');
  const inputId = useId();
  const hintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const typed = Boolean((form.watch('text') ?? '').trim());
  const empty = note ? !typed : !typed && !attached;
  const quickReplies = useQuickReplyPicker({
    contact,
    setText: (text) => form.setValue('text', text, { shouldDirty: true }),
    // The reply's file goes with it, in place of one attached before (a note carries no file).
    onMedia: (media) => {
      if (!note) setAttached(media);
    },
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

  // Anything typed while it was saved stays.
  const clearSent = (text: string) => {
    if ((form.getValues('text') ?? '').trim() !== text) return;
    form.setValue('text', '');
    quickReplies.close();
  };

  const addNote = (text: string) => {
    if (adding.isPending || can.state !== 'allowed' || !text) return;
    setStatus('Adicionando nota...');
    adding.mutate(
      { thread, text },
      {
        onSuccess: (response) => {
          clearSent(text);
          setStatus(response.message);
          toastSuccess(response.message);
        },
        onError: (error) => {
          setStatus('');
          toastError(error, 'Não foi possível adicionar a nota. Tente novamente.');
        },
      },
    );
  };

  const send = form.handleSubmit(({ text = '', mediaUrl }) => {
    // A note is text alone: a file attached under 'Responder' waits there.
    if (note) {
      addNote(text);
      return;
    }
    if (sending.isPending || uploading || can.state !== 'allowed') return;
    if (!text && !mediaUrl) return;
    setStatus('Enviando...');
    sending.mutate(
      { thread, text, mediaUrl },
      {
        onSuccess: () => {
          clearSent(text);
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
    if (note) return;
    const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
    if (!file) return;
    event.preventDefault();
    void attach(file);
  };
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDragging(false);
    if (note) return;
    const file = event.dataTransfer.files[0];
    if (file) void attach(file);
  };

  const pending = note ? adding.isPending : sending.isPending;
  return (
    <form
      onSubmit={send}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        // A note takes no file: the pointer says so, and nothing is dropped (nor opened by the browser).
        if (note) event.dataTransfer.dropEffect = 'none';
        else setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cn(
        'grid gap-1.5 border-t p-3 transition-colors',
        note ? 'bg-amber-50' : 'bg-card',
        dragging && !note && 'outline-2 outline-dashed outline-primary',
      )}
      aria-label={note ? 'Nota interna' : 'Responder'}
      data-testid="message-composer"
      data-mode={mode}
    >
      <Tabs value={mode} onValueChange={(value) => setMode(value === 'note' ? 'note' : 'reply')}>
        <TabsList aria-label="Escrever" className="p-0.5">
          <TabsTrigger value="reply" className="min-h-8 py-1 pointer-coarse:min-h-11">
            <SendHorizontal aria-hidden />
            Responder
          </TabsTrigger>
          {/* Not while a voice note is recorded: its stop button is the reply's. */}
          <TabsTrigger
            value="note"
            disabled={recorder.recording}
            className="min-h-8 py-1 data-[state=active]:bg-amber-100 data-[state=active]:text-amber-950 pointer-coarse:min-h-11"
          >
            <StickyNote aria-hidden />
            Nota interna
          </TabsTrigger>
        </TabsList>
        {/* One panel for either tab: the same box, its text kept when switching. */}
        <TabsContent value={mode} className="mt-1.5 grid gap-1.5">
          <Label htmlFor={inputId} className="text-xs">
            {note ? 'Sua nota (só a equipe vê)' : 'Sua resposta'}
          </Label>
          {attached && !note && (
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
            {note ? null : (
              <>
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
              </>
            )}
            <div className="relative min-w-0 flex-1">
              <QuickReplySuggestions {...quickReplies.listProps} />
              <Textarea
                id={inputId}
                aria-describedby={hintId}
                rows={2}
                maxLength={note ? NOTE_TEXT_MAX : MAX_LENGTH}
                placeholder={
                  note
                    ? 'Escreva uma nota para a equipe (@nome menciona alguém)...'
                    : recorder.recording
                      ? `Gravando... ${recorder.elapsed}`
                      : 'Escreva uma mensagem...'
                }
                className={cn(
                  'max-h-40 min-h-10 resize-none',
                  note &&
                    'border-amber-300 bg-amber-100/60 placeholder:text-amber-900/70 focus-visible:border-amber-500 focus-visible:outline-amber-500/40',
                )}
                data-testid="composer-text"
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
            {recorder.supported && !note && (
              <Button
                type="button"
                variant={recorder.recording ? 'destructive' : 'outline'}
                size="icon"
                aria-label={recorder.recording ? 'Parar gravação' : 'Gravar mensagem de voz'}
                aria-pressed={recorder.recording}
                disabled={uploading || Boolean(attached)}
                onClick={() => (recorder.recording ? recorder.stop() : void recorder.start())}
              >
                {recorder.recording ? (
                  <Square className="size-4" aria-hidden />
                ) : (
                  <Mic className="size-4" aria-hidden />
                )}
              </Button>
            )}
            {note ? (
              <PermissionGatedButton
                kind="message"
                team="agent"
                type="submit"
                className="bg-amber-700 text-white hover:bg-amber-800"
                disabled={empty || pending}
                icon={pending ? <Spinner /> : <StickyNote aria-hidden />}
              >
                Adicionar nota
              </PermissionGatedButton>
            ) : (
              <PermissionGatedButton
                kind="message"
                team="agent"
                type="submit"
                disabled={empty || pending || uploading || recorder.recording}
                icon={pending ? <Spinner /> : <SendHorizontal aria-hidden />}
              >
                Enviar
              </PermissionGatedButton>
            )}
          </div>
          <p id={hintId} className={cn('text-xs', note ? 'text-amber-900' : 'text-muted-foreground')}>
            {note ? (
              <>
                Enter adiciona a nota, Shift+Enter quebra a linha. A nota fica só para a equipe: o contato não a recebe.
                Escreva @ e o nome de alguém da equipe para avisá-lo.
                {quickReplies.available ? ' Digite / para usar uma resposta rápida.' : ''}
              </>
            ) : (
              <>
                Enter envia, Shift+Enter quebra a linha.
                {quickReplies.available ? ' Digite / para usar uma resposta rápida.' : ''} Anexe, arraste ou cole um
                arquivo, ou grave um áudio. Ao responder, o chatbot fica em silêncio nesta conversa.
              </>
            )}
          </p>
        </TabsContent>
      </Tabs>
      <p className="sr-only" aria-live="polite">
        {recorder.error || status}
      </p>
    </form>
  );
}

import { FileImage, FileText, Link as LinkIcon, type LucideIcon, Music, Paperclip, Trash2, Video } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useId, useRef, useState } from 'react';
import type { MediaKind } from '#contract/message-content';
import { FILE_ACCEPT, type Upload, uploadIdOf, uploadUrl } from '#contract/uploads';
import { errorMessage } from '#web/lib/api';
import { formatFileSize } from '#web/lib/format';
import { toastError } from '#web/lib/toasts';
import { uploadFile } from '#web/lib/upload-image';
import { cn } from '#web/lib/utils';
import { FieldError } from './field-error';
import { Button, buttonVariants } from './ui/button';
import { Spinner } from './ui/spinner';

/** What the field shows of the attached file: the server's answer for it, or a link's address alone. */
export interface AttachedFile {
  kind?: MediaKind;
  mimeType?: string;
  fileName?: string;
  size?: number;
}

const KIND_ICONS: Record<MediaKind, LucideIcon> = {
  image: FileImage,
  sticker: FileImage,
  document: FileText,
  audio: Music,
  video: Video,
};

const UPLOAD_ERROR = 'Não foi possível anexar o arquivo. Tente novamente.';

/**
 * 'Anexar arquivo': any file the composer of Conversas takes (image, document, audio, video), sent
 * to POST /api/uploads at once through the same `uploadFile`; the server decides by its bytes what
 * it is and refuses, in pt-BR, one too large or of a type it does not take (shown under the button
 * and as a toast). The attached file shows as a thumbnail (an image) or its icon, name and size.
 */
export function FileAttachmentField({
  label = 'Anexar arquivo',
  value,
  file,
  onAttached,
  onRemove,
  onBusyChange,
  hint,
  error,
}: {
  label?: string;
  /** `upload:<id>`, or a link; empty for none. */
  value: string;
  file: AttachedFile | null;
  onAttached: (upload: Upload) => void;
  onRemove: () => void;
  onBusyChange?: (busy: boolean) => void;
  hint?: ReactNode;
  error?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [uploading, setUploading] = useState(false);
  const [refusal, setRefusal] = useState('');
  const shownError = refusal || error;

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (!picked || uploading) return;
    setUploading(true);
    setRefusal('');
    onBusyChange?.(true);
    try {
      onAttached(await uploadFile(picked));
    } catch (err) {
      setRefusal(errorMessage(err, UPLOAD_ERROR));
      toastError(err, UPLOAD_ERROR);
    } finally {
      setUploading(false);
      onBusyChange?.(false);
    }
  };

  const id = value ? uploadIdOf(value) : null;
  const name = file?.fileName || (id ? 'Arquivo anexado' : value);
  const thumbnail = id !== null && (file?.kind === 'image' || file?.kind === 'sticker');
  const Icon = !file?.kind ? (id ? Paperclip : LinkIcon) : KIND_ICONS[file.kind];
  const size = file?.size ? formatFileSize(file.size) : null;
  const describedBy = [hint ? hintId : null, shownError ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          accept={FILE_ACCEPT}
          onChange={(e) => void pick(e)}
          disabled={uploading}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={describedBy}
          className="peer sr-only"
          data-testid="attachment-file"
        />
        {/* The native picker speaks the browser's language; the label is the visible, Portuguese button. */}
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'outline', size: 'sm' }),
            'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
          )}
        >
          {uploading ? <Spinner /> : <Paperclip aria-hidden />}
          {value ? 'Trocar arquivo' : label}
        </label>
      </div>
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={shownError} />
      {uploading ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Enviando arquivo...
        </p>
      ) : value ? (
        <div className="flex min-w-0 items-center gap-3 rounded-md border p-2" data-testid="attached-file">
          {thumbnail && id ? (
            <img src={uploadUrl(id)} alt={`Miniatura de ${name}`} className="size-12 shrink-0 rounded object-cover" />
          ) : (
            <span className="flex size-12 shrink-0 items-center justify-center rounded bg-muted text-muted-foreground">
              <Icon aria-hidden className="size-5" />
            </span>
          )}
          <span className="grid min-w-0 flex-1">
            <span className="truncate text-sm" title={name}>
              {name}
            </span>
            {size ? <span className="text-xs text-muted-foreground">{size}</span> : null}
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setRefusal('');
              onRemove();
              inputRef.current?.focus();
            }}
            aria-label={`Remover anexo ${name}`}
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      ) : null}
    </div>
  );
}

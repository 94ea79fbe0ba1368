import { ImageUp, Trash2 } from 'lucide-react';
import { type ChangeEvent, useId, useRef } from 'react';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, type Upload, uploadsMsg } from '#contract/uploads';
import { toastError } from '#web/lib/toasts';
import { useUploadImage } from '#web/lib/upload-image';
import { cn } from '#web/lib/utils';
import { FieldError } from './field-error';
import { Button, buttonVariants } from './ui/button';
import { Spinner } from './ui/spinner';

/**
 * 'Upload de Arquivo': picks an image, sends it to POST /api/uploads at once and keeps what the
 * server answers (its id and name), showing a thumbnail of the stored image.
 */
export function ImageUploadField({
  value,
  onUploaded,
  onRemove,
  onBusyChange,
  error,
}: {
  value: { uploadId: string | null; uploadUrl: string | null; imageFile: string };
  onUploaded: (upload: Upload) => void;
  onRemove: () => void;
  onBusyChange: (busy: boolean) => void;
  error?: string;
}) {
  const upload = useUploadImage();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      toastError(uploadsMsg.tooLarge);
      return;
    }
    onBusyChange(true);
    upload.mutate(file, {
      onSuccess: onUploaded,
      onError: (err) => toastError(err, uploadsMsg.uploadError),
      onSettled: () => onBusyChange(false),
    });
  };

  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-3">
          {/* The native picker speaks the browser's language; the label is the visible, Portuguese button. */}
          <input
            id={inputId}
            ref={inputRef}
            type="file"
            accept={UPLOAD_ACCEPT}
            onChange={pick}
            disabled={upload.isPending}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="peer sr-only"
          />
          <label
            htmlFor={inputId}
            className={cn(
              buttonVariants({ variant: 'outline', size: 'sm' }),
              'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
            )}
          >
            <ImageUp aria-hidden />
            {value.uploadId ? 'Trocar imagem' : 'Escolher imagem'}
          </label>
        </div>
        <p id={hintId} className="text-xs text-muted-foreground">
          JPEG, PNG ou WebP, até {UPLOAD_MAX_MB} MB.
        </p>
        <FieldError id={errorId} message={error} />
      </div>

      {upload.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Enviando imagem...
        </p>
      ) : value.uploadId ? (
        <div className="flex items-center gap-3 rounded-md border p-2">
          {value.uploadUrl ? (
            <img
              src={value.uploadUrl}
              alt={`Miniatura de ${value.imageFile || 'imagem enviada'}`}
              className="size-16 shrink-0 rounded object-cover"
            />
          ) : (
            <span className="flex size-16 shrink-0 items-center justify-center rounded bg-muted text-muted-foreground">
              <ImageUp aria-hidden className="size-6" />
            </span>
          )}
          <span className="min-w-0 flex-1 truncate text-sm" title={value.imageFile}>
            {value.imageFile || 'Imagem enviada'}
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              onRemove();
              inputRef.current?.focus();
            }}
            aria-label="Remover imagem"
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      ) : null}
    </div>
  );
}

import { useId } from 'react';
import { type SavedMessage, savedMessageImageRef } from '#contract/saved-messages';
import { UPLOAD_REF_PREFIX, uploadIdOf } from '#contract/uploads';
import { type AttachedFile, FileAttachmentField } from '#web/components/file-attachment-field';
import { FormField } from '#web/components/form-field';
import { ImageUploadField } from '#web/components/image-upload-field';
import { Label } from '#web/components/ui/label';
import { NativeSelect } from '#web/components/ui/select';
import { useSavedMessages } from '#web/lib/queries/get-saved-messages';

/**
 * A saved message as the starting point (its text as WhatsApp gets it, and its image), the image:
 * a link, or a file uploaded to the account; or, instead of the image, any file ('Anexar arquivo').
 */
export function CampaignContentFields({
  active,
  imageUrl,
  onImageChange,
  onUseSaved,
  onBusyChange,
  mediaUrl,
  mediaFile,
  mediaError,
  onMediaChange,
}: {
  active: boolean;
  imageUrl: string;
  onImageChange: (value: string) => void;
  /** The saved message's text, its image (a link or `upload:<id>`), and its file of another kind with what it is. */
  onUseSaved: (message: string, imageUrl: string, media?: { mediaUrl: string; file: SavedMessage['media'] }) => void;
  onBusyChange: (busy: boolean) => void;
  mediaUrl: string;
  mediaFile: AttachedFile | null;
  mediaError?: string;
  /** A file attached (`upload:<id>` and what it is), or null once removed. */
  onMediaChange: (value: { mediaUrl: string; file: AttachedFile } | null) => void;
}) {
  const id = useId();
  const saved = useSavedMessages(active);
  const uploadId = uploadIdOf(imageUrl);
  const messages = saved.data ?? [];

  return (
    <div className="grid gap-4">
      {messages.length > 0 ? (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-saved`}>Usar uma mensagem salva (opcional)</Label>
          <NativeSelect
            id={`${id}-saved`}
            value=""
            onChange={(e) => {
              const m = messages.find((x) => x.id === e.target.value);
              if (!m) return;
              if (!m.hasImage && m.mediaUrl) onUseSaved(m.preview, '', { mediaUrl: m.mediaUrl, file: m.media ?? null });
              else onUseSaved(m.preview, savedMessageImageRef(m) ?? '');
            }}
          >
            <option value="">Escolha para copiar o texto e a imagem…</option>
            {messages.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="URL da imagem (opcional)"
          type="url"
          inputMode="url"
          value={uploadId ? '' : imageUrl}
          onChange={(e) => onImageChange(e.target.value)}
          placeholder="https://"
          hint="A mensagem vai como legenda da imagem."
          autoComplete="off"
          disabled={uploadId !== null}
        />
        <div className="grid gap-2">
          <span className="text-sm font-medium">Ou envie uma imagem</span>
          <ImageUploadField
            value={{
              uploadId,
              uploadUrl: uploadId ? `/api/uploads/${uploadId}` : null,
              imageFile: uploadId ? 'Imagem enviada' : '',
            }}
            onUploaded={(u) => onImageChange(`${UPLOAD_REF_PREFIX}${u.id}`)}
            onRemove={() => onImageChange('')}
            onBusyChange={onBusyChange}
          />
        </div>
      </div>
      <div className="grid gap-2">
        <span className="text-sm font-medium">Ou anexe um arquivo (opcional)</span>
        <FileAttachmentField
          value={mediaUrl}
          file={mediaFile}
          error={mediaError}
          onAttached={(u) =>
            onMediaChange({
              mediaUrl: `${UPLOAD_REF_PREFIX}${u.id}`,
              file: { kind: u.kind, mimeType: u.mimeType, fileName: u.fileName, size: u.size },
            })
          }
          onRemove={() => onMediaChange(null)}
          onBusyChange={onBusyChange}
          hint={
            <>
              Imagem, documento (PDF, DOC, XLS, PPT, TXT, CSV), áudio ou vídeo; o arquivo substitui a imagem. A mensagem
              vai como legenda; em áudios e figurinhas, que não têm legenda, o texto vai numa mensagem separada.
            </>
          }
        />
      </div>
    </div>
  );
}

import { useId } from 'react';
import { savedMessageImageRef } from '#contract/saved-messages';
import { UPLOAD_REF_PREFIX, uploadIdOf } from '#contract/uploads';
import { FormField } from '#web/components/form-field';
import { ImageUploadField } from '#web/components/image-upload-field';
import { Label } from '#web/components/ui/label';
import { NativeSelect } from '#web/components/ui/select';
import { useSavedMessages } from '#web/lib/queries/get-saved-messages';

/**
 * A saved message as the starting point (its text as WhatsApp gets it, and its image), and the
 * image: a link, or a file uploaded to the account.
 */
export function CampaignContentFields({
  active,
  imageUrl,
  onImageChange,
  onUseSaved,
  onBusyChange,
}: {
  active: boolean;
  imageUrl: string;
  onImageChange: (value: string) => void;
  onUseSaved: (message: string, imageUrl: string) => void;
  onBusyChange: (busy: boolean) => void;
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
              if (m) onUseSaved(m.preview, savedMessageImageRef(m) ?? '');
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
    </div>
  );
}

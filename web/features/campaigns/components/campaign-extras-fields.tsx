import { Contact, MapPin, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import type { ContactCardDraft, LocationDraft } from '#contract/campaign-form';
import { CONTACT_CARD_NAME_MAX, LOCATION_ADDRESS_MAX, LOCATION_NAME_MAX } from '#contract/message-content';
import { FormField } from '#web/components/form-field';
import { Button } from '#web/components/ui/button';
import { emptyContactCard, emptyLocation } from '../campaign-form';

type Errors<T> = Partial<Record<keyof T, string | undefined>>;

/** One optional part of the campaign: a button adds it, a button removes it. */
function ExtraSection({
  title,
  icon,
  added,
  addLabel,
  removeLabel,
  onAdd,
  onRemove,
  children,
}: {
  title: string;
  icon: ReactNode;
  added: boolean;
  addLabel: string;
  removeLabel: string;
  onAdd: () => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="grid min-w-0 gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="flex items-center gap-2 text-sm font-semibold">
          {icon}
          {title}
        </h3>
        {added ? (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            <Trash2 aria-hidden />
            {removeLabel}
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={onAdd}>
            <Plus aria-hidden />
            {addLabel}
          </Button>
        )}
      </div>
      {added ? children : null}
    </section>
  );
}

/**
 * 'Localização' and 'Cartão de contato': sent after the message (the location first), or alone.
 * Null is a section removed (the request clears it), absent one never added.
 */
export function CampaignExtrasFields({
  location,
  contactCard,
  locationErrors = {},
  contactCardErrors = {},
  onLocationChange,
  onContactCardChange,
}: {
  location: LocationDraft | null | undefined;
  contactCard: ContactCardDraft | null | undefined;
  locationErrors?: Errors<LocationDraft>;
  contactCardErrors?: Errors<ContactCardDraft>;
  onLocationChange: (value: LocationDraft | null) => void;
  onContactCardChange: (value: ContactCardDraft | null) => void;
}) {
  const editLocation = (key: keyof LocationDraft, value: string) =>
    onLocationChange({ ...(location ?? emptyLocation), [key]: value });
  const editCard = (key: keyof ContactCardDraft, value: string) =>
    onContactCardChange({ ...(contactCard ?? emptyContactCard), [key]: value });

  return (
    <div className="grid gap-4">
      <ExtraSection
        title="Localização"
        icon={<MapPin aria-hidden className="size-4" />}
        added={Boolean(location)}
        addLabel="Adicionar localização"
        removeLabel="Remover localização"
        onAdd={() => onLocationChange({ ...emptyLocation })}
        onRemove={() => onLocationChange(null)}
      >
        <p className="text-xs text-muted-foreground">Enviada depois da mensagem, como um ponto no mapa.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Latitude"
            inputMode="decimal"
            autoComplete="off"
            placeholder="-23.5505"
            value={location?.latitude ?? ''}
            onChange={(e) => editLocation('latitude', e.target.value)}
            error={locationErrors.latitude}
          />
          <FormField
            label="Longitude"
            inputMode="decimal"
            autoComplete="off"
            placeholder="-46.6333"
            value={location?.longitude ?? ''}
            onChange={(e) => editLocation('longitude', e.target.value)}
            error={locationErrors.longitude}
          />
          <FormField
            label="Nome do local (opcional)"
            autoComplete="off"
            placeholder="Loja Centro"
            maxLength={LOCATION_NAME_MAX}
            value={location?.name ?? ''}
            onChange={(e) => editLocation('name', e.target.value)}
            error={locationErrors.name}
          />
          <FormField
            label="Endereço (opcional)"
            autoComplete="off"
            placeholder="Rua Exemplo, 100 - São Paulo"
            maxLength={LOCATION_ADDRESS_MAX}
            value={location?.address ?? ''}
            onChange={(e) => editLocation('address', e.target.value)}
            error={locationErrors.address}
          />
        </div>
      </ExtraSection>

      <ExtraSection
        title="Cartão de contato"
        icon={<Contact aria-hidden className="size-4" />}
        added={Boolean(contactCard)}
        addLabel="Adicionar cartão"
        removeLabel="Remover cartão"
        onAdd={() => onContactCardChange({ ...emptyContactCard })}
        onRemove={() => onContactCardChange(null)}
      >
        <p className="text-xs text-muted-foreground">Enviado por último, para o contato salvar na agenda.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Nome do contato"
            autoComplete="off"
            placeholder="Ana Vendas"
            maxLength={CONTACT_CARD_NAME_MAX}
            value={contactCard?.name ?? ''}
            onChange={(e) => editCard('name', e.target.value)}
            error={contactCardErrors.name}
          />
          <FormField
            label="Telefone do contato"
            type="tel"
            autoComplete="off"
            placeholder="(21) 99876-5432"
            value={contactCard?.phone ?? ''}
            onChange={(e) => editCard('phone', e.target.value)}
            error={contactCardErrors.phone}
          />
        </div>
      </ExtraSection>
    </div>
  );
}

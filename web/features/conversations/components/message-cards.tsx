import { ExternalLink, MapPin, UserPlus, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { type MessageContactCard, type MessageLocation, mapLink } from '#contract/message-content';
import { formatPhone } from '#contract/phone';
import { Button } from '#web/components/ui/button';
import { saveContactHref } from '../message-content-view';

const CARD = 'grid w-64 max-w-full min-w-0 gap-1.5 rounded-md border bg-card/70 px-2.5 py-2';
const CARD_LINK =
  'inline-flex w-fit items-center gap-1 rounded-sm text-xs font-medium text-brand-ink underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring pointer-coarse:min-h-11';

/** A location the contact sent: its name and address, and a link to see it on a map. */
export function LocationCard({ location }: { location: MessageLocation }) {
  const name = location.name?.trim();
  const address = location.address?.trim();
  return (
    <div className={CARD} data-testid="message-location">
      <div className="flex min-w-0 items-start gap-2">
        <MapPin aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-ink" />
        <div className="grid min-w-0">
          <span className="font-medium break-words">{name || address || 'Localização'}</span>
          {name && address ? <span className="text-xs break-words text-muted-foreground">{address}</span> : null}
        </div>
      </div>
      <a href={mapLink(location)} target="_blank" rel="noopener noreferrer" className={CARD_LINK}>
        <ExternalLink aria-hidden className="size-3.5" />
        Abrir no mapa
      </a>
    </div>
  );
}

/** A contact card the contact sent: the name, the number, and a way to save it as a contact. */
export function ContactCard({ card }: { card: MessageContactCard }) {
  const name = card.name.trim() || 'Contato';
  return (
    <div className={CARD} data-testid="message-contact-card">
      <div className="flex min-w-0 items-center gap-2">
        <span className="grid size-8 shrink-0 place-items-center rounded-full bg-muted">
          <UserRound aria-hidden className="size-4 text-muted-foreground" />
        </span>
        <div className="grid min-w-0">
          <span className="truncate font-medium" title={name}>
            {name}
          </span>
          <span className="text-xs text-muted-foreground">{card.phone ? formatPhone(card.phone) : 'Sem número'}</span>
        </div>
      </div>
      {card.phone ? (
        <Button asChild variant="outline" size="sm" className="w-full">
          <Link to={saveContactHref({ name: card.name, phone: card.phone })}>
            <UserPlus aria-hidden />
            Salvar contato
          </Link>
        </Button>
      ) : null}
    </div>
  );
}

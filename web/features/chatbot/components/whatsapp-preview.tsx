import { CornerUpLeft, ExternalLink, FileText, MapPin, Mic, Phone, UserRound, Video } from 'lucide-react';
import { type AutoReplyType, type BotButton, type BotButtonType, isFileRule } from '#contract/bot';
import { WhatsappMessage } from '#web/components/whatsapp-message';
import { cn } from '#web/lib/utils';

const BUTTON_ICONS: Record<BotButtonType, typeof Phone> = {
  url: ExternalLink,
  phone: Phone,
  quick_reply: CornerUpLeft,
};

const FILE_ICONS = { document: FileText, audio: Mic, video: Video } as const;
const FILE_LABELS = { document: 'Documento', audio: 'Áudio', video: 'Vídeo' } as const;

/** What a rule sends besides its text: the file's name, the place, the card. */
export interface PreviewExtras {
  fileName?: string | null;
  location?: {
    latitude?: number | string;
    longitude?: number | string;
    name?: string | null;
    address?: string | null;
  } | null;
  contactCard?: { name?: string; phone?: string } | null;
}

const BUBBLE = 'rounded-lg rounded-tl-none bg-white p-2 text-sm text-zinc-900 shadow-xs';

/** The bubble of what is not text: a file (its kind and name), a location, a contact card. */
function ExtraBubble({ type, extras }: { type: AutoReplyType; extras: PreviewExtras }) {
  if (isFileRule(type)) {
    const Icon = FILE_ICONS[type];
    return (
      <div className={cn(BUBBLE, 'flex min-w-0 items-center gap-2')} data-testid="preview-file">
        <Icon aria-hidden className="size-5 shrink-0 text-zinc-500" />
        <span className="min-w-0 truncate">{extras.fileName || FILE_LABELS[type]}</span>
      </div>
    );
  }
  if (type === 'location') {
    const place = extras.location;
    const title = place?.name?.trim() || 'Localização';
    return (
      <div className={cn(BUBBLE, 'grid gap-0.5')} data-testid="preview-location">
        <span className="flex items-center gap-1.5 font-medium">
          <MapPin aria-hidden className="size-4 shrink-0 text-red-600" />
          <span className="truncate">{title}</span>
        </span>
        {place?.address?.trim() ? <span className="text-xs text-zinc-600">{place.address}</span> : null}
        {place && `${place.latitude ?? ''}` !== '' && `${place.longitude ?? ''}` !== '' ? (
          <span className="text-xs text-zinc-500">
            {place.latitude}, {place.longitude}
          </span>
        ) : null}
      </div>
    );
  }
  if (type === 'contact') {
    const card = extras.contactCard;
    return (
      <div className={cn(BUBBLE, 'flex min-w-0 items-center gap-2')} data-testid="preview-contact">
        <UserRound aria-hidden className="size-8 shrink-0 rounded-full bg-zinc-200 p-1.5 text-zinc-600" />
        <span className="grid min-w-0">
          <span className="truncate font-medium">{card?.name?.trim() || 'Contato'}</span>
          {card?.phone?.trim() ? <span className="truncate text-xs text-zinc-600">{card.phone}</span> : null}
        </span>
      </div>
    );
  }
  return null;
}

/**
 * A phone-style preview of one rule: the customer's keyword, the bot's bubble (its image, its text
 * formatted as WhatsApp formats it) and the buttons under it, as WhatsApp shows them. A file,
 * location or card rule shows what is sent (the file's kind and name, the place, the card) and its
 * text, if any, as the message WhatsApp shows with it.
 */
export function WhatsappPreview({
  trigger,
  response,
  type,
  imageUrl,
  buttons,
  className,
  extras = {},
}: {
  trigger: string;
  response: string;
  type: AutoReplyType;
  imageUrl: string;
  buttons: readonly BotButton[];
  className?: string;
  extras?: PreviewExtras;
}) {
  const extra = isFileRule(type) || type === 'location' || type === 'contact';
  const shownButtons = type === 'text' ? [] : buttons;
  return (
    <figure
      className={cn('grid content-start gap-2 rounded-2xl border-4 border-zinc-800 bg-[#efeae2] p-3', className)}
      aria-label={`Pré-visualização da resposta para "${trigger}"`}
    >
      {trigger ? (
        <p className="max-w-[85%] justify-self-end rounded-lg rounded-tr-none bg-[#d9fdd3] px-3 py-1.5 text-sm break-words text-zinc-900 shadow-xs">
          {trigger}
        </p>
      ) : null}
      <div className="grid min-w-0 max-w-[90%] gap-1 justify-self-start">
        {extra ? <ExtraBubble type={type} extras={extras} /> : null}
        {!extra || response.trim() ? (
          <WhatsappMessage
            text={response || '…'}
            imageUrl={type === 'image' ? imageUrl : null}
            className={BUBBLE}
            textClassName="px-1"
          />
        ) : null}
        {shownButtons.length > 0 ? (
          <ul className="grid gap-1" aria-label="Botões">
            {shownButtons.map((b) => {
              const Icon = BUTTON_ICONS[b.type];
              return (
                <li
                  key={b.id}
                  className="flex items-center justify-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-sky-700 shadow-xs"
                >
                  <Icon aria-hidden className="size-3.5 shrink-0" />
                  <span className="truncate">{b.text}</span>
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
    </figure>
  );
}

import { CornerUpLeft, ExternalLink, ImageIcon, Phone } from 'lucide-react';
import { useState } from 'react';
import type { AutoReplyType, BotButton, BotButtonType } from '../../../../contract/bot';
import { isHttpUrl } from '../../../../contract/saved-messages';
import { cn } from '../../../lib/utils';

const BUTTON_ICONS: Record<BotButtonType, typeof Phone> = {
  url: ExternalLink,
  phone: Phone,
  quick_reply: CornerUpLeft,
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Whether the page may show the image: the server's security policy (img-src) admits only its own
 * images, so another site's image would be refused (with an error in the console) instead of shown.
 */
function isOwnImage(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/** The image of the bubble, or where it comes from with a link to open it. */
function BubbleImage({ url }: { url: string }) {
  const [failed, setFailed] = useState(false);
  if (!isHttpUrl(url) || failed || !isOwnImage(url)) {
    return (
      <div className="flex aspect-video w-full min-w-0 flex-col items-center justify-center gap-1 rounded-md bg-zinc-200 px-2 text-center text-xs text-zinc-700">
        <ImageIcon aria-hidden className="size-5" />
        {isHttpUrl(url) ? (
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className="block max-w-full truncate font-medium text-sky-800 underline underline-offset-2"
          >
            Abrir imagem de {hostOf(url)}
          </a>
        ) : (
          <span>Imagem</span>
        )}
      </div>
    );
  }
  return (
    <img
      src={url}
      alt="Imagem da mensagem"
      loading="lazy"
      referrerPolicy="no-referrer"
      className="aspect-video w-full rounded-md bg-zinc-200 object-cover"
      onError={() => setFailed(true)}
    />
  );
}

/**
 * A phone-style preview of one rule: the customer's keyword, the bot's bubble (with its image) and
 * the buttons under it, as WhatsApp shows them.
 */
export function WhatsappPreview({
  trigger,
  response,
  type,
  imageUrl,
  buttons,
  className,
}: {
  trigger: string;
  response: string;
  type: AutoReplyType;
  imageUrl: string;
  buttons: readonly BotButton[];
  className?: string;
}) {
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
        <div className="grid min-w-0 gap-2 rounded-lg rounded-tl-none bg-white p-2 text-sm text-zinc-900 shadow-xs">
          {type === 'image' ? <BubbleImage url={imageUrl} /> : null}
          <p className="px-1 break-words whitespace-pre-wrap">{response || '…'}</p>
        </div>
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

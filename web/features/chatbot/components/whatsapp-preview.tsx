import { CornerUpLeft, ExternalLink, Phone } from 'lucide-react';
import type { AutoReplyType, BotButton, BotButtonType } from '#contract/bot';
import { WhatsappMessage } from '#web/components/whatsapp-message';
import { cn } from '#web/lib/utils';

const BUTTON_ICONS: Record<BotButtonType, typeof Phone> = {
  url: ExternalLink,
  phone: Phone,
  quick_reply: CornerUpLeft,
};

/**
 * A phone-style preview of one rule: the customer's keyword, the bot's bubble (its image, its text
 * formatted as WhatsApp formats it) and the buttons under it, as WhatsApp shows them.
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
        <WhatsappMessage
          text={response || '…'}
          imageUrl={type === 'image' ? imageUrl : null}
          className="rounded-lg rounded-tl-none bg-white p-2 text-sm text-zinc-900 shadow-xs"
          textClassName="px-1"
        />
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

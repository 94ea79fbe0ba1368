import { ImageIcon } from 'lucide-react';
import { Fragment, type ReactNode, useMemo, useState } from 'react';
import { isHttpUrl } from '#contract/saved-messages';
import { uploadIdOf, uploadUrl } from '#contract/uploads';
import { tokenizeWhatsapp, type WhatsappRun } from '#contract/whatsapp-text';
import { cn } from '#web/lib/utils';

function Run({ run }: { run: WhatsappRun }) {
  let node: ReactNode = run.text;
  if (run.mono) node = <code className="rounded-sm bg-black/5 px-0.5 font-mono text-[0.92em]">{node}</code>;
  if (run.strike) node = <s>{node}</s>;
  if (run.italic) node = <em>{node}</em>;
  if (run.bold) node = <strong className="font-semibold">{node}</strong>;
  return node;
}

/**
 * A message's text as WhatsApp shows it: `*bold*`, `_italic_`, `~strike~`, ```monospace``` and
 * `code` formatted by WhatsApp's own rules (contract/whatsapp-text.ts), line breaks kept. Every
 * piece is a React text node: nothing of the message is ever read as HTML.
 */
export function WhatsappText({ text, className }: { text: string; className?: string }) {
  const runs = useMemo(() => tokenizeWhatsapp(text), [text]);
  return (
    <p className={cn('break-words whitespace-pre-wrap', className)} data-testid="whatsapp-text">
      {runs.map((run, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional pieces of one text.
        <Fragment key={i}>
          <Run run={run} />
        </Fragment>
      ))}
    </p>
  );
}

/**
 * Where the page may load a message's image from: an upload of the account (`upload:<id>` or its
 * address) or an absolute http(s) link (anything else, such as a link still being typed, is no
 * image); `own` when it is this site's, the only images the security policy (img-src) lets the page
 * show — another site's would be refused with an error in the console.
 */
function imageSource(ref: string): { href: string; own: boolean } | null {
  const uploadId = uploadIdOf(ref);
  const upload = uploadId === null ? null : uploadUrl(uploadId);
  if (!upload && !ref.startsWith(uploadUrl('')) && !isHttpUrl(ref)) return null;
  try {
    const url = new URL(upload ?? ref, window.location.href);
    return { href: url.href, own: url.origin === window.location.origin };
  } catch {
    return null;
  }
}

function hostOf(href: string): string {
  try {
    return new URL(href).host;
  } catch {
    return href;
  }
}

/** A message's image: shown when this site serves it, else where it comes from with a link to open it. */
export function MessageImage({ src, className }: { src: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const source = imageSource(src);
  if (!source?.own || failed === source.href) {
    return (
      <div
        className={cn(
          'flex aspect-video w-full min-w-0 flex-col items-center justify-center gap-1 rounded-md bg-zinc-200 px-2 text-center text-xs text-zinc-700',
          className,
        )}
        data-testid="message-image"
      >
        <ImageIcon aria-hidden className="size-5" />
        {source && !source.own ? (
          <a
            href={source.href}
            target="_blank"
            rel="noopener noreferrer"
            className="block max-w-full truncate font-medium text-sky-800 underline underline-offset-2"
          >
            Abrir imagem de {hostOf(source.href)}
          </a>
        ) : (
          <span>Imagem</span>
        )}
      </div>
    );
  }
  return (
    <img
      src={source.href}
      alt="Imagem da mensagem"
      loading="lazy"
      referrerPolicy="no-referrer"
      className={cn('aspect-video w-full rounded-md bg-zinc-200 object-cover', className)}
      data-testid="message-image"
      onError={() => setFailed(source.href)}
    />
  );
}

/**
 * A message as it arrives: its image above its formatted text. `imageUrl` null or absent: no image;
 * a text that is no image address (empty, half typed) shows the image's place.
 */
export function WhatsappMessage({
  text,
  imageUrl,
  className,
  textClassName,
  imageClassName,
}: {
  text: string;
  imageUrl?: string | null;
  className?: string;
  textClassName?: string;
  imageClassName?: string;
}) {
  return (
    <div className={cn('grid min-w-0 gap-2', className)}>
      {imageUrl != null ? <MessageImage src={imageUrl} className={imageClassName} /> : null}
      <WhatsappText text={text} className={textClassName} />
    </div>
  );
}

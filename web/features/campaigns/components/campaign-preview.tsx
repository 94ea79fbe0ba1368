import { Eye, UserRoundX } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { type CampaignTargetType, campaignMsg } from '#contract/campaigns';
import { parseTags } from '#contract/contacts';
import { nameVariables, renderMessage, seededRandom, unknownVariable } from '#contract/personalize';
import { Skeleton } from '#web/components/ui/skeleton';
import { WhatsappMessage } from '#web/components/whatsapp-message';
import { errorMessage } from '#web/lib/api';
import { maskPhone } from '#web/lib/mask';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { useCampaignPreview } from '../api/preview-campaign';

const PREVIEW_DEBOUNCE_MS = 400;

/** Shown when the account has no contact to preview with. */
const SAMPLE_RECIPIENT = { name: 'Maria Silva', phone: '+55 11 98765-4321', email: 'maria@exemplo.com.br' };

/** The fallback the notice suggests for a name variable that has none. */
const SUGGESTED_FALLBACK = 'cliente';

function Bubble({
  name,
  phone,
  text,
  imageUrl,
}: {
  name: string;
  phone: string;
  text: string;
  imageUrl: string | null;
}) {
  // Masked as the contacts list masks it: the preview is no place to read numbers off.
  const masked = maskPhone(phone);
  return (
    <li className="grid gap-1" data-testid="campaign-preview-item">
      <span className="flex min-w-0 items-baseline justify-between gap-2 text-xs text-muted-foreground">
        {/* A contact without a name is known by its number. */}
        <span className="truncate font-medium text-foreground">{name || masked}</span>
        {name ? <span className="shrink-0 tabular-nums">{masked}</span> : null}
      </span>
      <WhatsappMessage
        text={text}
        imageUrl={imageUrl}
        className="rounded-lg rounded-tl-none border border-emerald-200 bg-brand-soft p-2 text-sm text-foreground shadow-xs"
        textClassName="px-1"
        imageClassName="max-h-40"
      />
    </li>
  );
}

/**
 * Who of the audience has no name, when the message writes it: they get the variables' fallback,
 * or nothing, and the way to give them one.
 */
function NamelessNote({ message, count, examples }: { message: string; count: number; examples: string[] }) {
  const uses = nameVariables(message);
  if (count === 0 || uses.length === 0) return null;
  const bare = uses.find((u) => !u.fallback);
  const text = bare
    ? campaignMsg.namelessEmpty(count, `{{${bare.name}|${SUGGESTED_FALLBACK}}}`)
    : campaignMsg.namelessFallback(count, [...new Set(uses.map((u) => u.fallback as string))]);
  return (
    <div
      className={
        bare
          ? 'flex gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950'
          : 'flex gap-2 rounded-md border bg-card px-3 py-2 text-xs text-muted-foreground'
      }
      data-testid="campaign-preview-nameless"
    >
      <UserRoundX aria-hidden className="mt-0.5 size-3.5 shrink-0" />
      <p className="grid gap-0.5">
        <span className={bare ? 'font-medium' : undefined}>{text}</span>
        {examples.length > 0 ? (
          <span className="tabular-nums">
            {count > examples.length ? 'Por exemplo: ' : ''}
            {examples.map(maskPhone).join(', ')}
          </span>
        ) : null}
      </p>
    </div>
  );
}

/**
 * 'Pré-visualização': the message as three real recipients get it (variables and spintax filled in
 * by the server, formatting and image as WhatsApp shows them), refreshed a moment after typing
 * stops, and a note on the audience's contacts without a name when the message writes the name.
 */
export function CampaignPreview({
  message,
  imageUrl,
  targetType,
  tags,
  active,
  extras = [],
}: {
  message: string;
  /** The campaign's image: a link or `upload:<id>`; empty for none. */
  imageUrl: string;
  targetType: CampaignTargetType;
  /** The form's tags, comma-separated (they narrow a contacts audience). */
  tags: string;
  active: boolean;
  /** What goes with or after the text (the file, the location, the card), one line each. */
  extras?: readonly string[];
}) {
  const debounced = useDebouncedValue(message.trim(), PREVIEW_DEBOUNCE_MS);
  const tagsKey = useDebouncedValue(targetType === 'contacts' ? parseTags(tags).join(',') : '', PREVIEW_DEBOUNCE_MS);
  // The server refuses an unknown variable with a 400; say it here without the round trip.
  const unknown = debounced ? unknownVariable(debounced) : null;
  const localError = unknown ? campaignMsg.unknownVariable(unknown) : null;
  const preview = useCampaignPreview(
    debounced,
    { targetType, targetTags: tagsKey ? tagsKey.split(',') : [] },
    active && debounced !== '' && !localError,
  );
  const titleId = useId();
  const image = imageUrl.trim() || null;

  let body: ReactNode;
  if (!message.trim()) {
    body = (
      <p className="text-sm text-muted-foreground">Escreva a mensagem para ver como ela chega aos seus contatos.</p>
    );
  } else if (localError) {
    body = <p className="text-sm font-medium text-red-700">{localError}</p>;
  } else if (preview.isError) {
    body = (
      <p className="text-sm font-medium text-red-700">
        {errorMessage(preview.error, 'Não foi possível gerar a pré-visualização.')}
      </p>
    );
  } else if (!preview.data) {
    body = (
      <div className="grid gap-3" aria-hidden>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  } else if (preview.data.previews.length === 0) {
    body = (
      <div className="grid gap-2">
        <p className="text-xs text-muted-foreground">
          Você ainda não tem contatos ativos; veja um exemplo com um contato fictício.
        </p>
        <ul className="grid gap-3">
          <Bubble
            name={SAMPLE_RECIPIENT.name}
            phone={SAMPLE_RECIPIENT.phone}
            text={renderMessage(debounced, SAMPLE_RECIPIENT, seededRandom(debounced))}
            imageUrl={image}
          />
        </ul>
      </div>
    );
  } else {
    body = (
      <div className="grid gap-3">
        <ul className="grid gap-3">
          {preview.data.previews.map((p) => (
            <Bubble key={`${p.phone}-${p.name}`} name={p.name} phone={p.phone} text={p.text} imageUrl={image} />
          ))}
        </ul>
        <NamelessNote message={debounced} count={preview.data.fallbackCount} examples={preview.data.fallbackExamples} />
      </div>
    );
  }

  return (
    <section
      aria-labelledby={titleId}
      aria-busy={preview.isFetching}
      className="grid content-start gap-3 rounded-lg border bg-muted/60 p-4"
      data-testid="campaign-preview"
    >
      <h3 id={titleId} className="flex items-center gap-2 text-sm font-semibold">
        <Eye aria-hidden className="size-4 text-brand-strong" />
        Pré-visualização
      </h3>
      {body}
      {extras.length > 0 ? (
        <div className="grid gap-1 rounded-md border bg-card px-3 py-2 text-xs" data-testid="campaign-preview-extras">
          <span className="font-medium text-foreground">Cada contato também recebe:</span>
          <ul className="grid gap-0.5 text-muted-foreground">
            {extras.map((line) => (
              <li key={line} className="truncate">
                {line}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

import { Eye } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { campaignMsg } from '../../../../contract/campaigns';
import { renderMessage, seededRandom, unknownVariable } from '../../../../contract/personalize';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api';
import { useCampaignPreview } from '../api/preview-campaign';
import { useDebouncedValue } from '../use-debounced-value';

const PREVIEW_DEBOUNCE_MS = 400;

/** Shown when the account has no contact to preview with. */
const SAMPLE_RECIPIENT = { name: 'Maria Silva', phone: '+55 11 98765-4321', email: 'maria@exemplo.com.br' };

function Bubble({ name, phone, text }: { name: string; phone: string; text: string }) {
  return (
    <li className="grid gap-1" data-testid="campaign-preview-item">
      <span className="flex min-w-0 items-baseline justify-between gap-2 text-xs text-muted-foreground">
        <span className="truncate font-medium text-foreground">{name}</span>
        <span className="shrink-0 tabular-nums">{phone}</span>
      </span>
      <p className="rounded-lg rounded-tl-none border border-emerald-200 bg-brand-soft px-3 py-2 text-sm break-words whitespace-pre-wrap text-foreground shadow-xs">
        {text}
      </p>
    </li>
  );
}

/**
 * 'Pré-visualização': the message as three real recipients get it (variables and spintax filled in
 * by the server), refreshed a moment after typing stops.
 */
export function CampaignPreview({ message, active }: { message: string; active: boolean }) {
  const debounced = useDebouncedValue(message.trim(), PREVIEW_DEBOUNCE_MS);
  // The server refuses an unknown variable with a 400; say it here without the round trip.
  const unknown = debounced ? unknownVariable(debounced) : null;
  const localError = unknown ? campaignMsg.unknownVariable(unknown) : null;
  const preview = useCampaignPreview(debounced, active && debounced !== '' && !localError);
  const titleId = useId();

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
  } else if (preview.data.length === 0) {
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
          />
        </ul>
      </div>
    );
  } else {
    body = (
      <ul className="grid gap-3">
        {preview.data.map((p) => (
          <Bubble key={`${p.phone}-${p.name}`} name={p.name} phone={p.phone} text={p.text} />
        ))}
      </ul>
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
    </section>
  );
}

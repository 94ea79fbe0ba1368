import {
  CircleAlert,
  Download,
  FileArchive,
  FileImage,
  FileSpreadsheet,
  FileText,
  type LucideIcon,
  Mic,
  Music,
} from 'lucide-react';
import { useId } from 'react';
import { type MessageMedia, messageContentMsg } from '#contract/message-content';
import { Skeleton } from '#web/components/ui/skeleton';
import { cn } from '#web/lib/utils';
import {
  audioLabel,
  type DocumentIcon,
  documentIcon,
  formatFileSize,
  mediaLabel,
  mediaState,
} from '../message-content-view';

const DOCUMENT_ICONS: Record<DocumentIcon, LucideIcon> = {
  spreadsheet: FileSpreadsheet,
  archive: FileArchive,
  image: FileImage,
  text: FileText,
};

/** A file still coming from WhatsApp: its place, with what it will be. */
function MediaPending({ media }: { media: MessageMedia }) {
  const sticker = media.kind === 'sticker';
  return (
    <div
      role="status"
      className={cn(
        'relative grid max-w-full place-items-center overflow-hidden rounded-md',
        sticker ? 'size-32' : media.kind === 'audio' || media.kind === 'document' ? 'h-14 w-64' : 'aspect-video w-64',
      )}
      data-testid="message-media-pending"
    >
      <Skeleton aria-hidden className="absolute inset-0 rounded-md" />
      <span className="relative px-2 text-center text-xs text-muted-foreground">
        <span className="sr-only">{mediaLabel(media)}: </span>
        Baixando arquivo…
      </span>
    </div>
  );
}

/** A file WhatsApp did not give us. */
function MediaFailed({ media }: { media: MessageMedia }) {
  return (
    <p
      className="flex max-w-64 items-start gap-2 rounded-md bg-muted px-2 py-1.5 text-xs text-muted-foreground"
      data-testid="message-media-failed"
    >
      <CircleAlert aria-hidden className="mt-px size-4 shrink-0" />
      <span className="min-w-0 break-words">
        {media.kind === 'document' && media.fileName ? `${media.fileName}: ` : null}
        {messageContentMsg.failed}
      </span>
    </p>
  );
}

function MediaImage({ media }: { media: MessageMedia }) {
  const alt = mediaLabel(media);
  if (media.kind === 'sticker') {
    return (
      <img src={media.url} alt={alt} loading="lazy" className="size-32 object-contain" data-testid="message-sticker" />
    );
  }
  return (
    <a
      href={media.url}
      target="_blank"
      rel="noopener noreferrer"
      className="block w-fit max-w-full rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      title="Abrir em nova aba"
    >
      <img
        src={media.url}
        alt={alt}
        loading="lazy"
        className="block max-h-80 w-auto max-w-[min(260px,100%)] rounded-md bg-zinc-200 object-contain"
        data-testid="message-media-image"
      />
    </a>
  );
}

function MediaAudio({ media }: { media: MessageMedia }) {
  const labelId = useId();
  const Icon = media.voice ? Mic : Music;
  return (
    <div className="grid w-64 max-w-full gap-1" data-testid="message-audio">
      <span id={labelId} className="flex items-center gap-1.5 text-xs text-muted-foreground">
        <Icon aria-hidden className="size-3.5 shrink-0" />
        {audioLabel(media)}
      </span>
      {/* biome-ignore lint/a11y/useMediaCaption: a contact's audio comes with no captions to give */}
      <audio controls preload="none" src={media.url} aria-labelledby={labelId} className="h-10 w-full max-w-full" />
    </div>
  );
}

function MediaVideo({ media }: { media: MessageMedia }) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: a contact's video comes with no captions to give
    <video
      controls
      preload="metadata"
      src={media.url}
      aria-label={mediaLabel(media)}
      className="block w-[280px] max-w-full rounded-md bg-zinc-900"
      data-testid="message-video"
    />
  );
}

function MediaDocument({ media }: { media: MessageMedia }) {
  const Icon = DOCUMENT_ICONS[documentIcon(media)];
  const name = mediaLabel(media);
  const size = formatFileSize(media.size);
  return (
    <div
      className="flex w-72 max-w-full min-w-0 items-center gap-2 rounded-md border bg-card/70 px-2 py-1.5"
      data-testid="message-document"
    >
      <Icon aria-hidden className="size-8 shrink-0 text-brand-ink" />
      <div className="grid min-w-0 flex-1">
        <span className="truncate font-medium" title={name}>
          {name}
        </span>
        {size ? <span className="text-xs text-muted-foreground">{size}</span> : null}
      </div>
      <a
        href={media.url}
        download={media.fileName || true}
        className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-brand-ink hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring pointer-coarse:min-h-11"
      >
        <Download aria-hidden className="size-3.5" />
        Baixar<span className="sr-only"> {name}</span>
      </a>
    </div>
  );
}

/** A message's file as WhatsApp shows it: the photo, the player, the document to download. */
export function MessageAttachment({ media }: { media: MessageMedia }) {
  const state = mediaState(media);
  if (state === 'pending') return <MediaPending media={media} />;
  if (state === 'failed') return <MediaFailed media={media} />;
  switch (media.kind) {
    case 'image':
    case 'sticker':
      return <MediaImage media={media} />;
    case 'audio':
      return <MediaAudio media={media} />;
    case 'video':
      return <MediaVideo media={media} />;
    case 'document':
      return <MediaDocument media={media} />;
  }
}

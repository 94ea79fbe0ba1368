import { Pause, Play } from 'lucide-react';
import { useRef, useState } from 'react';

/** The product clip shipped with the app (web/public/media), with a play/pause button. */
export function VideoPlayer() {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const toggle = () => {
    const video = ref.current;
    if (!video) return;
    if (video.paused) void video.play().catch(() => setPlaying(false));
    else video.pause();
  };
  return (
    <figure className="grid gap-3">
      <div className="relative overflow-hidden rounded-lg border bg-zinc-900 shadow-md">
        <video
          ref={ref}
          className="aspect-video w-full object-cover"
          src="/media/disparo-demo.webm"
          preload="none"
          poster="/og-image.jpg"
          muted
          loop
          playsInline
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          aria-label="Vídeo: uma campanha sendo enviada pelo Disparo"
          data-testid="landing-video"
        />
        {!playing ? (
          <button
            type="button"
            onClick={toggle}
            aria-hidden
            tabIndex={-1}
            className="absolute inset-0 flex items-center justify-center bg-zinc-950/30"
          >
            <span className="flex size-16 items-center justify-center rounded-full bg-brand text-primary-foreground shadow-lg">
              <Play aria-hidden className="size-7 translate-x-0.5" />
            </span>
          </button>
        ) : null}
      </div>
      <figcaption className="flex items-center justify-between gap-3 text-sm text-muted-foreground">
        <span>Veja uma campanha sendo enviada em poucos segundos.</span>
        <button
          type="button"
          onClick={toggle}
          className="inline-flex h-9 shrink-0 items-center gap-2 rounded-md border border-input bg-card px-3 font-medium text-foreground shadow-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {playing ? <Pause aria-hidden className="size-4" /> : <Play aria-hidden className="size-4" />}
          {playing ? 'Pausar vídeo' : 'Reproduzir vídeo'}
        </button>
      </figcaption>
    </figure>
  );
}

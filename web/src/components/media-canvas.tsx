// The scene canvas beside a chat: the latest video in video mode (autoplay,
// loop, muted, controls), else the latest image, else 'No Media Yet'. A click opens the large preview.
// A video that cannot play falls back to its image; media that cannot load at all are reported (their
// signed URL may have expired, so the owner re-reads them) and the empty state shows meanwhile.
import { Clapperboard, ImageIcon, Maximize2 } from "lucide-react";
import { useState } from "react";
import { Spinner } from "./button";

export interface CanvasContent {
  image: string | null;
  video: string | null;
  isVideoMode: boolean;
}

export interface CanvasPreview {
  url: string;
  type: "image" | "video";
}

interface MediaCanvasProps {
  media: CanvasContent | null;
  onOpen: (preview: CanvasPreview) => void;
  onMediaError?: () => void;
  /** What is being made right now, if anything: shown over the canvas. */
  generating?: "image" | "video" | null;
  className?: string;
}

export function MediaCanvas({
  media,
  onOpen,
  onMediaError,
  generating = null,
  className = "",
}: MediaCanvasProps) {
  // Failures are remembered per address: a fresh signed URL for the same media gets a new chance.
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const fail = (url: string) => {
    setFailed((set) => new Set(set).add(url));
    onMediaError?.();
  };

  const video = media?.isVideoMode && media.video && !failed.has(media.video) ? media.video : null;
  const image = media?.image && !failed.has(media.image) ? media.image : null;

  return (
    <section
      aria-label="Scene canvas"
      className={`relative isolate flex min-h-0 items-center justify-center overflow-hidden bg-surface-2 dark:bg-[#05040a] ${className}`}
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,rgb(139_92_246/0.18),transparent_60%),radial-gradient(ellipse_at_bottom_right,rgb(192_38_211/0.12),transparent_55%)]"
      />
      {video ? (
        <div className="relative flex h-full w-full items-center justify-center p-3 sm:p-6">
          <video
            key={video}
            src={video}
            poster={image ?? undefined}
            autoPlay
            loop
            muted
            controls
            playsInline
            aria-label="Generated story video"
            onError={() => fail(video)}
            className="max-h-full max-w-full rounded-2xl bg-black shadow-lifted"
          />
          <button
            type="button"
            onClick={() => onOpen({ url: video, type: "video" })}
            aria-label="Open large preview"
            title="Open large preview"
            className="absolute top-5 right-5 grid size-10 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-black/75 sm:top-8 sm:right-8"
          >
            <Maximize2 aria-hidden="true" className="size-5" />
          </button>
        </div>
      ) : image ? (
        <button
          type="button"
          onClick={() => onOpen({ url: image, type: "image" })}
          aria-label="Open large preview"
          className="group relative flex h-full w-full cursor-zoom-in items-center justify-center p-3 sm:p-6"
        >
          <img
            key={image}
            src={image}
            alt="Generated story scene"
            onError={() => fail(image)}
            className="max-h-full max-w-full rounded-2xl object-contain shadow-lifted transition duration-200 group-hover:brightness-105"
          />
          <span
            aria-hidden="true"
            className="absolute top-5 right-5 grid size-10 place-items-center rounded-xl bg-black/55 text-white opacity-0 backdrop-blur-md transition duration-200 group-hover:opacity-100 group-focus-visible:opacity-100 sm:top-8 sm:right-8"
          >
            <Maximize2 className="size-5" />
          </span>
        </button>
      ) : (
        <div className="flex items-center gap-4 px-5 py-4 text-left lg:flex-col lg:gap-0 lg:px-6 lg:py-6 lg:text-center">
          <span className="grid size-11 shrink-0 place-items-center rounded-2xl border border-line bg-surface text-accent-ink shadow-soft lg:size-14">
            <ImageIcon aria-hidden="true" className="size-6 lg:size-7" />
          </span>
          <div>
            <p className="text-base font-semibold text-ink lg:mt-4">No Media Yet</p>
            <p className="mt-0.5 max-w-xs text-sm text-ink-muted lg:mt-1">
              Start your story to see the generated scene here
            </p>
          </div>
        </div>
      )}
      {generating ? (
        <p
          role="status"
          className="absolute bottom-4 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-full border border-white/10 bg-black/65 px-4 py-2 text-xs font-semibold whitespace-nowrap text-white shadow-lifted backdrop-blur-md"
        >
          <Spinner />
          {generating === "video" ? (
            <>
              <Clapperboard aria-hidden="true" className="size-4" /> Rendering the next video…
            </>
          ) : (
            "Painting the next scene…"
          )}
        </p>
      ) : null}
    </section>
  );
}

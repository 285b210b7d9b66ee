// The scene canvas beside a chat: the latest video in video mode (autoplay,
// loop, muted, controls), else the latest image, else 'No Media Yet'. A click opens the large preview.
// A video that cannot play falls back to its image; media that cannot load at all are reported (their
// signed URL may have expired, so the owner re-reads them) and the empty state shows meanwhile.
// Image and video fill one frame of the scene's shape (4:3 unless the story asks for another of its six
// shapes), the largest that fits the canvas, so switching between them never shrinks or letterboxes the scene. The canvas can fold
// (`fold`): to a slim strip above a phone's chat, to a narrow rail beside a desktop's.
import {
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  ChevronUp,
  Clapperboard,
  ImageIcon,
  Images,
  Maximize2,
} from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
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
  /** The scene folds to a strip (phone) or a rail (desktop); the owner remembers the choice. */
  fold?: { collapsed: boolean; onToggle: (collapsed: boolean) => void } | null;
  /** A desktop's choice to see the canvas's picture in the story too (it is shown once by default). */
  alsoInStory?: { on: boolean; onToggle: (on: boolean) => void } | null;
  className?: string;
}

/** The frame: the scene's own shape (4:3 until it is known), as large as the canvas allows. */
const FRAME = "relative overflow-hidden rounded-2xl bg-black shadow-lifted";
/** A story's scenes are 4:3 unless its settings ask for another shape (1:1, 3:4, 16:9, 9:16, 21:9). */
const DEFAULT_RATIO = 4 / 3;

/** The frame's size for a width:height ratio (container query units of the canvas's inner box). */
const frameSize = (ratio: number) => ({
  aspectRatio: String(ratio),
  width: `min(100cqw, calc(100cqh * ${ratio}))`,
});
const FILL = "absolute inset-0 size-full object-cover";

export function MediaCanvas({
  media,
  onOpen,
  onMediaError,
  generating = null,
  fold = null,
  alsoInStory = null,
  className = "",
}: MediaCanvasProps) {
  const { t } = useTranslation("common");
  const collapsed = Boolean(fold?.collapsed);
  // Failures are remembered per address: a fresh signed URL for the same media gets a new chance.
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  // The shape of the scene shown, read from the picture or clip once it loads.
  const [ratio, setRatio] = useState(DEFAULT_RATIO);
  const measure = (width: number, height: number) => {
    if (width > 0 && height > 0) setRatio(width / height);
  };
  const fail = (url: string) => {
    setFailed((set) => new Set(set).add(url));
    onMediaError?.();
  };

  const video = media?.isVideoMode && media.video && !failed.has(media.video) ? media.video : null;
  const image = media?.image && !failed.has(media.image) ? media.image : null;

  return (
    <section
      aria-label={t("mediaCanvas.label")}
      className={`relative isolate flex min-h-0 items-center justify-center overflow-hidden bg-surface-2 dark:bg-[#05040a] ${className}`}
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,rgb(139_92_246/0.18),transparent_60%),radial-gradient(ellipse_at_bottom_right,rgb(192_38_211/0.12),transparent_55%)]"
      />
      {collapsed && fold ? (
        <button
          type="button"
          onClick={() => fold.onToggle(false)}
          aria-expanded="false"
          aria-label={t("mediaCanvas.showScene")}
          className="flex h-full w-full items-center gap-3 px-4 text-start text-sm font-semibold text-ink lg:flex-col lg:justify-start lg:gap-2 lg:px-2 lg:pt-4 lg:text-center lg:text-xs"
        >
          <ChevronLeft aria-hidden="true" className="hidden size-5 shrink-0 text-ink-muted lg:block" />
          {image ? (
            <img src={image} alt="" className="h-9 w-12 shrink-0 rounded-lg object-cover shadow-soft" />
          ) : (
            <ImageIcon aria-hidden="true" className="size-5 shrink-0 text-accent-ink" />
          )}
          <span className="flex-1 lg:flex-none">{t("mediaCanvas.showScene")}</span>
          <ChevronDown aria-hidden="true" className="size-5 shrink-0 text-ink-muted lg:hidden" />
        </button>
      ) : null}
      {video || image ? (
        <div
          className={`h-full w-full items-center justify-center p-1.5 [container-type:size] sm:p-6 ${
            collapsed ? "hidden" : "flex"
          }`}
        >
          {video ? (
            <div data-testid="scene-frame" className={FRAME} style={frameSize(ratio)}>
              <video
                key={video}
                src={video}
                poster={image ?? undefined}
                autoPlay
                loop
                muted
                controls
                playsInline
                aria-label={t("mediaCanvas.video")}
                onLoadedMetadata={(event) =>
                  measure(event.currentTarget.videoWidth, event.currentTarget.videoHeight)
                }
                onError={() => fail(video)}
                className={FILL}
              />
              <button
                type="button"
                onClick={() => onOpen({ url: video, type: "video" })}
                aria-label={t("mediaCanvas.openPreview")}
                title={t("mediaCanvas.openPreview")}
                className="absolute top-2 inset-e-2 grid size-10 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-black/75 sm:top-3 sm:inset-e-3"
              >
                <Maximize2 aria-hidden="true" className="size-5" />
              </button>
            </div>
          ) : image ? (
            <button
              type="button"
              data-testid="scene-frame"
              onClick={() => onOpen({ url: image, type: "image" })}
              aria-label={t("mediaCanvas.openPreview")}
              className={`group cursor-zoom-in ${FRAME}`}
              style={frameSize(ratio)}
            >
              <img
                key={image}
                src={image}
                alt={t("mediaCanvas.image")}
                onLoad={(event) =>
                  measure(event.currentTarget.naturalWidth, event.currentTarget.naturalHeight)
                }
                onError={() => fail(image)}
                className={`${FILL} transition duration-200 group-hover:brightness-105`}
              />
              <span
                aria-hidden="true"
                className="absolute top-2 inset-e-2 grid size-10 place-items-center rounded-xl bg-black/55 text-white opacity-0 backdrop-blur-md transition duration-200 group-hover:opacity-100 group-focus-visible:opacity-100 sm:top-3 sm:inset-e-3"
              >
                <Maximize2 className="size-5" />
              </span>
            </button>
          ) : null}
        </div>
      ) : collapsed ? null : (
        <div className="flex items-center gap-4 px-5 py-4 text-start lg:flex-col lg:gap-0 lg:px-6 lg:py-6 lg:text-center">
          <span className="grid size-11 shrink-0 place-items-center rounded-2xl border border-line bg-surface text-accent-ink shadow-soft lg:size-14">
            <ImageIcon aria-hidden="true" className="size-6 lg:size-7" />
          </span>
          <div>
            <p className="text-base font-semibold text-ink lg:mt-4">{t("mediaCanvas.emptyTitle")}</p>
            <p className="mt-0.5 max-w-xs text-sm text-ink-muted lg:mt-1">{t("mediaCanvas.emptyBody")}</p>
          </div>
        </div>
      )}
      {fold && !collapsed && (video || image) ? (
        <button
          type="button"
          onClick={() => fold.onToggle(true)}
          aria-expanded="true"
          aria-label={t("mediaCanvas.hideScene")}
          title={t("mediaCanvas.hideScene")}
          className="absolute top-3 inset-s-3 grid size-10 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-black/75"
        >
          <ChevronUp aria-hidden="true" className="size-5 lg:hidden" />
          <ChevronRight aria-hidden="true" className="hidden size-5 lg:block" />
        </button>
      ) : null}
      {alsoInStory && !collapsed && (video || image) ? (
        <button
          type="button"
          onClick={() => alsoInStory.onToggle(!alsoInStory.on)}
          aria-pressed={alsoInStory.on}
          title={alsoInStory.on ? t("mediaCanvas.alsoInStoryOn") : t("mediaCanvas.alsoInStoryOff")}
          className="absolute bottom-3 inset-s-3 hidden h-9 items-center gap-1.5 rounded-xl bg-black/55 px-3 text-xs font-semibold text-white backdrop-blur-md transition duration-200 hover:bg-black/75 aria-pressed:bg-black/80 aria-pressed:ring-2 aria-pressed:ring-white/70 lg:inline-flex"
        >
          <Images aria-hidden="true" className="size-4" />
          {t("mediaCanvas.alsoInStory")}
        </button>
      ) : null}
      {generating ? (
        <p
          role="status"
          className={`absolute flex items-center gap-2 rounded-full border border-white/10 bg-black/65 px-4 py-2 text-xs font-semibold whitespace-nowrap text-white shadow-lifted backdrop-blur-md ${
            collapsed
              ? "top-1/2 inset-e-11 -translate-y-1/2 lg:top-auto lg:inset-e-auto lg:bottom-4 lg:left-1/2 lg:-translate-x-1/2 lg:translate-y-0 lg:px-2.5"
              : "bottom-4 left-1/2 -translate-x-1/2"
          }`}
        >
          <Spinner />
          {/* Folded to a desktop's rail, the spinner says it; the words stay for screen readers. */}
          <span className={`flex items-center gap-2 ${collapsed ? "lg:sr-only" : ""}`}>
            {generating === "video" ? (
              <>
                <Clapperboard aria-hidden="true" className="size-4" /> {t("mediaCanvas.renderingVideo")}
              </>
            ) : (
              t("mediaCanvas.paintingScene")
            )}
          </span>
        </p>
      ) : null}
    </section>
  );
}

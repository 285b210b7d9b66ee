// The full-screen media viewer shared by the Gallery, the Studio and the story views: one item at a
// time with download, close, previous, next and its position 'n of total'. Escape closes (Radix Dialog),
// the arrow keys step through the items, videos play muted with their controls. The caller owns the
// index, so it can open the viewer at any item and keep it in step with its own list. A caller that can edit
// pictures passes onEdit: an Edit button then shows on pictures (decision 0148); one that can extend clips passes
// onExtend: "Extend this clip" then shows on videos (decision 0160).
import * as Dialog from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight, Download, Timer, WandSparkles, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiDownload } from "../lib/api-client";
import { Spinner } from "./button";

export interface LightboxItem {
  url: string;
  type: "image" | "video";
  description?: string;
  /** The file name to save a download under; otherwise the server's name or one made from the URL. */
  downloadName?: string;
}

export interface LightboxProps {
  items: LightboxItem[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** Edit the picture at this index (shown on pictures only); the caller opens its editor. */
  onEdit?: (index: number) => void;
  /** Extend the clip at this index by 5 seconds (shown on videos only); the caller opens its dialog. */
  onExtend?: (index: number) => void;
}

const controlClasses =
  "inline-grid size-11 shrink-0 place-items-center rounded-full bg-white/10 text-white backdrop-blur " +
  "transition duration-200 hover:bg-white/20 disabled:cursor-not-allowed disabled:opacity-40 " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white";

/** A name for the saved file: the caller's, the server's, or the last segment of the URL's path. */
export function downloadFileName(item: LightboxItem, fromServer: string | null): string {
  if (item.downloadName) return item.downloadName;
  if (fromServer) return fromServer;
  try {
    const last = new URL(item.url, window.location.href).pathname.split("/").pop();
    if (last) return decodeURIComponent(last);
  } catch {
    // fall through to the generic name
  }
  return item.type === "video" ? "storyverse-video.mp4" : "storyverse-image.png";
}

function saveFile(href: string, filename: string, newTab = false): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  if (newTab) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Saves the item as a file: fetched through /api/download with the user's token (the media host's own
 * URL is cross-origin, where the download attribute is ignored); if that fails, the plain URL is
 * handed to the browser instead.
 */
export async function downloadMedia(item: LightboxItem): Promise<void> {
  try {
    const { blob, filename } = await apiDownload(`/api/download?url=${encodeURIComponent(item.url)}`);
    const objectUrl = URL.createObjectURL(blob);
    saveFile(objectUrl, downloadFileName(item, filename));
    // Give the browser a moment to start the download before the URL is revoked.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  } catch {
    saveFile(item.url, downloadFileName(item, null), true);
  }
}

export function Lightbox({ items, index, onIndexChange, onClose, onEdit, onExtend }: LightboxProps) {
  const { t } = useTranslation("common");
  const total = items.length;
  const current = total > 0 ? Math.min(Math.max(index, 0), total - 1) : -1;
  const item = current >= 0 ? items[current] : undefined;
  const [downloading, setDownloading] = useState(false);
  const mounted = useRef(true);
  // What had the focus when the viewer opened (the picture clicked): it gets the focus back when the viewer
  // goes, whether it closes itself or its owner unmounts it, instead of the page body.
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    mounted.current = true;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      mounted.current = false;
      const back = opener.current;
      // After the dialog's own focus handling has run.
      if (back) requestAnimationFrame(() => back.isConnected && back.focus({ preventScroll: true }));
    };
  }, []);

  const hasPrevious = current > 0;
  const hasNext = current >= 0 && current < total - 1;
  const previous = () => {
    if (hasPrevious) onIndexChange(current - 1);
  };
  const next = () => {
    if (hasNext) onIndexChange(current + 1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    // Arrows inside the video's own controls seek or change the volume; leave them to the player.
    if (event.target instanceof HTMLMediaElement) return;
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      previous();
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      next();
    }
  };

  const download = async () => {
    if (!item || downloading) return;
    setDownloading(true);
    try {
      await downloadMedia(item);
    } finally {
      if (mounted.current) setDownloading(false);
    }
  };

  const label =
    item?.description?.trim() || (item?.type === "video" ? t("lightbox.video") : t("lightbox.image"));

  return (
    <Dialog.Root open={item !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/90 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content
          aria-describedby={undefined}
          onKeyDown={onKeyDown}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus({ preventScroll: true });
          }}
          className="fixed inset-0 z-[60] flex flex-col text-white outline-none motion-safe:animate-fade-in"
          data-testid="lightbox"
        >
          <Dialog.Title className="sr-only">{t("lightbox.title")}</Dialog.Title>
          <div className="flex items-center justify-between gap-3 p-3 sm:p-4">
            <p
              className="rounded-full bg-white/10 px-3 py-1.5 text-sm font-medium tabular-nums"
              aria-live="polite"
            >
              {t("lightbox.position", { current: current + 1, total })}
            </p>
            <div className="flex items-center gap-2">
              {onEdit && item?.type === "image" ? (
                <button
                  type="button"
                  className="inline-flex h-11 shrink-0 items-center gap-2 rounded-full bg-white/10 px-4 text-sm font-semibold text-white backdrop-blur transition duration-200 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                  onClick={() => onEdit(current)}
                >
                  <WandSparkles aria-hidden="true" className="size-5" />
                  {t("lightbox.edit")}
                </button>
              ) : null}
              {onExtend && item?.type === "video" ? (
                <button
                  type="button"
                  className="inline-flex h-11 shrink-0 items-center gap-2 rounded-full bg-white/10 px-4 text-sm font-semibold text-white backdrop-blur transition duration-200 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                  onClick={() => onExtend(current)}
                >
                  <Timer aria-hidden="true" className="size-5" />
                  {t("lightbox.extendClip")}
                </button>
              ) : null}
              <button
                type="button"
                className={controlClasses}
                onClick={download}
                disabled={downloading}
                aria-label={t("lightbox.download")}
                title={t("lightbox.download")}
              >
                {downloading ? (
                  <Spinner className="size-5" />
                ) : (
                  <Download aria-hidden="true" className="size-5" />
                )}
              </button>
              <Dialog.Close
                className={controlClasses}
                aria-label={t("lightbox.close")}
                title={t("lightbox.closeHint")}
              >
                <X aria-hidden="true" className="size-5" />
              </Dialog.Close>
            </div>
          </div>

          <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-2 sm:px-16 sm:pb-6">
            {item ? (
              item.type === "video" ? (
                <video
                  key={item.url}
                  src={item.url}
                  controls
                  muted
                  playsInline
                  autoPlay
                  aria-label={label}
                  className="max-h-full max-w-full rounded-lg bg-black shadow-lifted"
                />
              ) : (
                <img
                  key={item.url}
                  src={item.url}
                  alt={label}
                  className="max-h-full max-w-full rounded-lg object-contain shadow-lifted"
                />
              )
            ) : null}

            <button
              type="button"
              className={`${controlClasses} absolute top-1/2 inset-s-2 -translate-y-1/2 sm:inset-s-4`}
              onClick={previous}
              disabled={!hasPrevious}
              aria-label={t("lightbox.previous")}
              title={t("lightbox.previousHint")}
            >
              <ChevronLeft aria-hidden="true" className="size-6" />
            </button>
            <button
              type="button"
              className={`${controlClasses} absolute top-1/2 inset-e-2 -translate-y-1/2 sm:inset-e-4`}
              onClick={next}
              disabled={!hasNext}
              aria-label={t("lightbox.next")}
              title={t("lightbox.nextHint")}
            >
              <ChevronRight aria-hidden="true" className="size-6" />
            </button>
          </div>

          {item?.description ? (
            <p
              data-user-text
              className="mx-auto max-w-3xl px-4 pb-4 text-center text-sm text-white/80 sm:pb-6"
            >
              {item.description}
            </p>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

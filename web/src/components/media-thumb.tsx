// A small square picture of one gallery item for grids (Gallery, Studio results, the picker): always the
// item's thumbnail (a webp of at most 512 px), never the 2K original. A video shows its poster with a play
// badge; a picture that fails to load (an expired link) becomes a quiet placeholder, and one still loading
// shows a soft pulse, never the browser's broken-image icon (issue 45 item 9).
//
// Pictures below the fold are fetched only when they come within LAZY_MARGIN of the viewport. The
// browser's own loading="lazy" starts 1,250 px or more ahead, which on a wide screen pulls a whole second
// screen of thumbnails into the first; this keeps the Gallery's first screen to what is on it.
import { ImageOff, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";

export const LAZY_MARGIN = "300px";

type Listener = (near: boolean) => void;
let sharedObserver: IntersectionObserver | null = null;
const listeners = new WeakMap<Element, Listener>();

/** One observer for every thumbnail on the page. */
function observe(element: Element, listener: Listener): () => void {
  if (typeof IntersectionObserver === "undefined") {
    listener(true);
    return () => {};
  }
  sharedObserver ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting);
    },
    { rootMargin: LAZY_MARGIN },
  );
  listeners.set(element, listener);
  sharedObserver.observe(element);
  return () => {
    listeners.delete(element);
    sharedObserver?.unobserve(element);
  };
}

export interface MediaThumbProps {
  /** The thumbnail to show; null when the item has none. */
  src: string | null;
  type: "image" | "video";
  alt: string;
  /** Load at once (the first rows of a grid, a small strip) rather than when scrolled near. */
  eager?: boolean;
  className?: string;
}

export function MediaThumb({ src, type, alt, eager = false, className = "" }: MediaThumbProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const [near, setNear] = useState(eager);
  const frame = useRef<HTMLSpanElement>(null);
  const broken = !src || failed === src;

  useEffect(() => {
    if (eager || near || !frame.current) return;
    return observe(frame.current, (isNear) => {
      if (isNear) setNear(true);
    });
  }, [eager, near]);

  return (
    <span ref={frame} className={`relative block overflow-hidden bg-surface-2 ${className}`}>
      {broken ? (
        <span className="absolute inset-0 grid place-items-center text-ink-muted">
          <ImageOff aria-hidden="true" className="size-6" />
          <span className="sr-only">{alt}</span>
        </span>
      ) : (
        <>
          {loaded === src ? null : (
            <span
              aria-hidden="true"
              data-placeholder=""
              className="absolute inset-0 bg-gradient-to-br from-accent-500/10 via-transparent to-glow-600/10 motion-safe:animate-pulse"
            />
          )}
          {/* No src until near: an img without one would show the browser's broken-image icon. */}
          {near || eager ? (
            <img
              src={src}
              alt={alt}
              loading={eager ? "eager" : "lazy"}
              decoding="async"
              draggable={false}
              onLoad={() => setLoaded(src)}
              onError={() => setFailed(src)}
              className={`absolute inset-0 size-full object-cover text-transparent transition-opacity duration-200 ${
                loaded === src ? "opacity-100" : "opacity-0"
              }`}
            />
          ) : (
            <span className="sr-only">{alt}</span>
          )}
        </>
      )}
      {type === "video" ? (
        <span
          aria-hidden="true"
          className="absolute top-1/2 left-1/2 grid size-11 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full bg-black/55 text-white ring-1 ring-white/30 backdrop-blur-sm"
        >
          <Play className="ms-0.5 size-5 fill-current" />
        </span>
      ) : null}
    </span>
  );
}

// The Studio showcase's image carousel (WAI-ARIA APG carousel pattern). It advances every 2 seconds
// (spec §9), stops while the visitor's keyboard focus is inside it or after they press Pause, and only
// drops the cross-fade, never the rotation, when reduced motion is requested.
import { Pause, Play } from "lucide-react";
import { type FocusEvent, useEffect, useId, useState } from "react";
import type { Artwork } from "./landing-art";

export const CAROUSEL_INTERVAL_MS = 2000;

export interface CarouselSlide extends Artwork {
  title: string;
  meta: string;
}

interface StudioCarouselProps {
  slides: readonly CarouselSlide[];
  intervalMs?: number;
  label?: string;
}

export function StudioCarousel({
  slides,
  intervalMs = CAROUSEL_INTERVAL_MS,
  label = "Studio showcase",
}: StudioCarouselProps) {
  const [active, setActive] = useState(0);
  const [paused, setPaused] = useState(false);
  const [keyboardFocusInside, setKeyboardFocusInside] = useState(false);
  const slidesId = useId();
  const rotating = !paused && !keyboardFocusInside && slides.length > 1;

  useEffect(() => {
    if (!rotating) return;
    // Keyed on `active`, so a slide picked from its dot also gets its full interval.
    const timer = window.setTimeout(() => setActive((active + 1) % slides.length), intervalMs);
    return () => window.clearTimeout(timer);
  }, [rotating, active, intervalMs, slides.length]);

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    // A mouse click focuses the button too; only a keyboard user reading the slides should stop them.
    if (event.target.matches(":focus-visible")) setKeyboardFocusInside(true);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setKeyboardFocusInside(false);
  };

  return (
    <section aria-roledescription="carousel" aria-label={label} onFocus={onFocus} onBlur={onBlur}>
      <div
        id={slidesId}
        aria-live={rotating ? "off" : "polite"}
        className="relative aspect-[16/10] overflow-hidden rounded-2xl bg-surface-2"
      >
        {slides.map((slide, index) => {
          const current = index === active;
          return (
            // biome-ignore lint/a11y/useSemanticElements: the APG carousel marks each slide as a group
            <div
              key={slide.src}
              role="group"
              aria-roledescription="slide"
              aria-label={`Slide ${index + 1} of ${slides.length}`}
              aria-hidden={!current}
              inert={!current}
              className={`absolute inset-0 motion-safe:transition-opacity motion-safe:duration-200 ${
                current ? "opacity-100" : "opacity-0"
              }`}
            >
              <img
                src={slide.src}
                alt={slide.alt}
                width={1600}
                height={1000}
                loading="lazy"
                draggable={false}
                className="size-full object-cover"
              />
              <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/85 via-black/50 to-transparent px-6 pt-16 pb-5">
                <p className="text-base font-semibold text-white">{slide.title}</p>
                <p className="mt-0.5 text-sm text-white/85">{slide.meta}</p>
              </div>
            </div>
          );
        })}
      </div>

      <div className="mt-4 flex items-center justify-between gap-4">
        <button
          type="button"
          aria-controls={slidesId}
          onClick={() => setPaused((value) => !value)}
          className="inline-flex h-10 items-center gap-2 rounded-xl px-3 text-sm font-medium text-ink-muted transition duration-200 hover:bg-surface-2 hover:text-ink"
        >
          {paused ? (
            <Play aria-hidden="true" className="size-4" />
          ) : (
            <Pause aria-hidden="true" className="size-4" />
          )}
          <span className="sr-only sm:not-sr-only">{paused ? "Play slideshow" : "Pause slideshow"}</span>
        </button>
        <div className="flex items-center gap-1">
          {slides.map((slide, index) => (
            <button
              key={slide.src}
              type="button"
              aria-label={`Show slide ${index + 1}: ${slide.title}`}
              aria-current={index === active ? "true" : undefined}
              aria-controls={slidesId}
              onClick={() => setActive(index)}
              className="group grid h-10 min-w-6 place-items-center rounded-full px-1"
            >
              <span
                aria-hidden="true"
                className={`block h-2 rounded-full transition-all duration-200 ${
                  index === active ? "w-6 bg-accent-500" : "w-2 bg-ink-muted/40 group-hover:bg-ink-muted/70"
                }`}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

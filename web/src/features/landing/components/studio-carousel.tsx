// The Studio showcase's image carousel: it advances every 2 seconds, with a dot per slide and a pause
// button (the rotation rules are useCarousel's).
import { Pause, Play } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { CarouselDots } from "../../../components/carousel-dots";
import { useCarousel } from "../../../components/use-carousel";
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

export function StudioCarousel({ slides, intervalMs = CAROUSEL_INTERVAL_MS, label }: StudioCarouselProps) {
  const { t } = useTranslation("landing");
  const carousel = useCarousel(slides.length, intervalMs);
  const { active, slidesId } = carousel;

  return (
    <section {...carousel.rootProps} aria-label={label ?? t("carousel.label")}>
      <div
        {...carousel.slidesProps}
        className="relative aspect-[16/10] overflow-hidden rounded-2xl bg-surface-2"
      >
        {slides.map((slide, index) => {
          const current = index === active;
          return (
            <div
              key={slide.src}
              {...carousel.slideProps(index)}
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
        <Button
          variant="ghost"
          size="sm"
          aria-controls={slidesId}
          onClick={carousel.togglePaused}
          icon={
            carousel.paused ? (
              <Play aria-hidden="true" className="size-4" />
            ) : (
              <Pause aria-hidden="true" className="size-4" />
            )
          }
        >
          <span className="sr-only sm:not-sr-only">
            {carousel.paused ? t("carousel.play") : t("carousel.pause")}
          </span>
        </Button>
        <CarouselDots carousel={carousel} slides={slides} tone="on-page" />
      </div>
    </section>
  );
}

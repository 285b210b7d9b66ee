// A carousel's dot selectors: one button per slide, the current one drawn long. Over a picture the dots
// are white; on the page they take the accent.
import { useTranslation } from "react-i18next";
import type { Carousel } from "./use-carousel";

interface CarouselDotsProps {
  carousel: Carousel;
  slides: readonly { src: string; title: string }[];
  tone: "on-image" | "on-page";
}

const TONES = {
  "on-image": { current: "w-7 bg-white", other: "w-2 bg-white/45 group-hover:bg-white/75" },
  "on-page": { current: "w-6 bg-accent-500", other: "w-2 bg-ink-muted/40 group-hover:bg-ink-muted/70" },
} as const;

export function CarouselDots({ carousel, slides, tone }: CarouselDotsProps) {
  const { t } = useTranslation("common");
  const colours = TONES[tone];
  return (
    <div className="flex items-center gap-1">
      {slides.map((slide, index) => (
        <button
          key={slide.src}
          type="button"
          aria-label={t("carousel.showSlide", { index: index + 1, title: slide.title })}
          aria-current={index === carousel.active ? "true" : undefined}
          aria-controls={carousel.slidesId}
          onClick={() => carousel.select(index)}
          className="group grid h-10 min-w-6 place-items-center rounded-full px-1"
        >
          <span
            aria-hidden="true"
            className={`block h-2 rounded-full transition-all duration-200 ${
              index === carousel.active ? colours.current : colours.other
            }`}
          />
        </button>
      ))}
    </div>
  );
}

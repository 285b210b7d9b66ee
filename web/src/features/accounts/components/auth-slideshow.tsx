// The auth screen's right-hand slideshow: 5 of the project's own scenes, advancing every 5 s, with a dot
// per slide and a pause button (the rotation rules are useCarousel's).
import { Pause, Play } from "lucide-react";
import { useTranslation } from "react-i18next";
import castleDragon from "../../../assets/art/castle-dragon.svg";
import floatingIsles from "../../../assets/art/floating-isles.svg";
import neonCity from "../../../assets/art/neon-city.svg";
import oceanLighthouse from "../../../assets/art/ocean-lighthouse.svg";
import wandererPortrait from "../../../assets/art/wanderer-portrait.svg";
import { CarouselDots } from "../../../components/carousel-dots";
import { useCarousel } from "../../../components/use-carousel";

export const SLIDESHOW_INTERVAL_MS = 5_000;

export interface AuthSlide {
  src: string;
  alt: string;
  title: string;
  caption: string;
}

/** The slides' pictures, in order; their words are the `accounts` namespace's authSlideshow.slides. */
const SLIDE_ART = [
  { src: castleDragon, key: "castleDragon" },
  { src: neonCity, key: "neonCity" },
  { src: wandererPortrait, key: "wandererPortrait" },
  { src: oceanLighthouse, key: "oceanLighthouse" },
  { src: floatingIsles, key: "floatingIsles" },
] as const;

/** The five slides in the interface's language. */
function useAuthSlides(): AuthSlide[] {
  const { t } = useTranslation("accounts");
  return SLIDE_ART.map(({ src, key }) => ({
    src,
    alt: t(`authSlideshow.slides.${key}.alt`),
    title: t(`authSlideshow.slides.${key}.title`),
    caption: t(`authSlideshow.slides.${key}.caption`),
  }));
}

interface AuthSlideshowProps {
  slides?: readonly AuthSlide[];
  intervalMs?: number;
  className?: string;
}

export function AuthSlideshow({
  slides: chosenSlides,
  intervalMs = SLIDESHOW_INTERVAL_MS,
  className = "",
}: AuthSlideshowProps) {
  const { t } = useTranslation("accounts");
  const ownSlides = useAuthSlides();
  const slides = chosenSlides ?? ownSlides;
  const carousel = useCarousel(slides.length, intervalMs);
  const { active, slidesId } = carousel;

  return (
    <section
      {...carousel.rootProps}
      aria-label={t("authSlideshow.label")}
      className={`relative isolate overflow-hidden rounded-[28px] bg-surface-2 shadow-lifted ${className}`}
    >
      <div {...carousel.slidesProps} className="absolute inset-0">
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
                loading={index === 0 ? "eager" : "lazy"}
                draggable={false}
                className="size-full object-cover"
              />
              <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/90 via-black/60 to-transparent px-8 pt-32 pb-24 sm:px-10">
                <p className="text-2xl font-semibold tracking-tight text-white xl:text-3xl">{slide.title}</p>
                <p className="mt-2 max-w-md text-base leading-7 text-white/85">{slide.caption}</p>
              </div>
            </div>
          );
        })}
      </div>

      <div className="absolute inset-x-0 bottom-0 flex items-center justify-between gap-4 px-6 pb-6 sm:px-8">
        <CarouselDots carousel={carousel} slides={slides} tone="on-image" />
        <button
          type="button"
          aria-controls={slidesId}
          onClick={carousel.togglePaused}
          className="inline-flex h-10 items-center gap-2 rounded-xl bg-black/35 px-3 text-sm font-medium text-white backdrop-blur transition duration-200 hover:bg-black/55"
        >
          {carousel.paused ? (
            <Play aria-hidden="true" className="size-4" />
          ) : (
            <Pause aria-hidden="true" className="size-4" />
          )}
          {carousel.paused ? t("authSlideshow.play") : t("authSlideshow.pause")}
        </button>
      </div>
    </section>
  );
}

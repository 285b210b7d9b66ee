import { ArrowRight, ImagePlus, Layers, MessageSquareText, Repeat2, Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { type ArtName, art } from "./landing-art";
import { SectionHeading } from "./section-heading";
import { type CarouselSlide, StudioCarousel } from "./studio-carousel";

const SLIDES = [
  { art: "neonCity", key: "neonCity" },
  { art: "lanternForest", key: "lanternForest" },
  { art: "starRelic", key: "starRelic" },
  { art: "wandererPortrait", key: "wanderer" },
  { art: "desertRuins", key: "caravan" },
] as const satisfies readonly { art: ArtName; key: string }[];

const POINTS = [
  { icon: Layers, key: "batches" },
  { icon: ImagePlus, key: "inputs" },
  { icon: MessageSquareText, key: "advisor" },
  { icon: Repeat2, key: "reuse" },
] as const;

export function StudioSection({ onGetStarted }: { onGetStarted: () => void }) {
  const { t } = useTranslation("landing");
  const slides: CarouselSlide[] = SLIDES.map((slide) => ({
    ...art(slide.art),
    title: t(`studio.slides.${slide.key}.title`),
    meta: t(`studio.slides.${slide.key}.meta`),
  }));
  return (
    <section
      id="studio"
      aria-labelledby="studio-title"
      className="scroll-mt-16 border-y border-line bg-surface-2/50 py-24 sm:py-32 dark:bg-surface/40"
    >
      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-16 px-4 sm:px-6 lg:grid-cols-[0.9fr_1.1fr] lg:px-8">
        <div>
          <SectionHeading
            id="studio-title"
            eyebrow={t("studio.eyebrow")}
            title={t("studio.title")}
            align="left"
          >
            {t("studio.lede")}
          </SectionHeading>
          <ul className="mt-8 flex flex-col gap-4">
            {POINTS.map(({ icon: Icon, key }) => (
              <li key={key} className="flex items-start gap-4">
                <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="pt-2 leading-6">{t(`studio.points.${key}`)}</span>
              </li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-10" onClick={onGetStarted}>
            {t("studio.open")}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Button>
        </div>

        <div className="relative">
          <div
            aria-hidden="true"
            className="bg-primary-gradient absolute -inset-6 -z-10 rounded-[48px] opacity-15 blur-3xl dark:opacity-25"
          />
          <div className="rounded-3xl border border-line bg-surface p-4 shadow-lifted sm:p-6">
            <div aria-hidden="true" className="mb-4 flex flex-wrap items-center gap-2">
              <div className="flex h-12 min-w-0 flex-1 basis-64 items-center gap-3 rounded-xl border border-line bg-surface-2 px-4 text-sm">
                <Sparkles className="size-4 shrink-0 text-accent-ink" />
                <span className="truncate text-ink-muted">{t("studio.mock.prompt")}</span>
              </div>
              <span className="inline-flex h-12 items-center rounded-xl border border-line px-4 text-sm font-medium">
                {t("studio.mock.batch")}
              </span>
              <span className="bg-primary-gradient inline-flex h-12 items-center rounded-xl px-5 text-sm font-semibold text-white">
                {t("studio.mock.generate")}
              </span>
            </div>
            <StudioCarousel slides={slides} />
          </div>
        </div>
      </div>
    </section>
  );
}

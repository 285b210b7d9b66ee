import { ArrowRight, ImagePlus, Layers, MessageSquareText, Repeat2, Sparkles } from "lucide-react";
import { Button } from "../../../components/button";
import { art } from "./landing-art";
import { SectionHeading } from "./section-heading";
import { type CarouselSlide, StudioCarousel } from "./studio-carousel";

const SLIDES: CarouselSlide[] = [
  { ...art.neonCity, title: "Neon Metropolis", meta: "Batch of 4 · 2K · rain, midnight, cinematic" },
  { ...art.lanternForest, title: "Lantern Forest", meta: "2K · volumetric fog, warm lanterns" },
  { ...art.starRelic, title: "Relic of the Ninth Star", meta: "Batch of 2 · 2K · from 3 reference images" },
  { ...art.wandererPortrait, title: "The Wanderer", meta: "2K · character sheet, rim light" },
  { ...art.desertRuins, title: "Twin Suns Caravan", meta: "Batch of 3 · 2K · golden hour" },
];

const POINTS = [
  { icon: Layers, text: "Batches of one to four images from a single prompt" },
  { icon: ImagePlus, text: "Up to 10 input images: upload, paste or pick from your gallery" },
  { icon: MessageSquareText, text: "An advisor chat that sharpens your prompt before you spend a credit" },
  { icon: Repeat2, text: "Select any result and reuse it as the next input" },
];

export function StudioSection({ onGetStarted }: { onGetStarted: () => void }) {
  return (
    <section
      id="studio"
      aria-labelledby="studio-title"
      className="scroll-mt-16 border-y border-line bg-surface-2/50 py-24 sm:py-32 dark:bg-surface/40"
    >
      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-16 px-4 sm:px-6 lg:grid-cols-[0.9fr_1.1fr] lg:px-8">
        <div>
          <SectionHeading id="studio-title" eyebrow="Studio" title="Direct Every Frame" align="left">
            Describe a shot and Studio paints it in 2K. Feed it your own references to keep characters,
            artifacts and products consistent from one image to the next.
          </SectionHeading>
          <ul className="mt-8 flex flex-col gap-4">
            {POINTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-4">
                <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="pt-2 leading-6">{text}</span>
              </li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-10" onClick={onGetStarted}>
            Open the Studio
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
                <span className="truncate text-ink-muted">
                  A neon metropolis at midnight, rain on the streets, cinematic lighting
                </span>
              </div>
              <span className="inline-flex h-12 items-center rounded-xl border border-line px-4 text-sm font-medium">
                Batch 4
              </span>
              <span className="bg-primary-gradient inline-flex h-12 items-center rounded-xl px-5 text-sm font-semibold text-white">
                Generate
              </span>
            </div>
            <StudioCarousel slides={SLIDES} />
          </div>
        </div>
      </div>
    </section>
  );
}

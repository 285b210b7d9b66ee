import { BookOpenText, Check, Images, type LucideIcon, WandSparkles } from "lucide-react";
import { SectionHeading } from "./section-heading";

interface Feature {
  icon: LucideIcon;
  title: string;
  description: string;
  points: string[];
}

const FEATURES: Feature[] = [
  {
    icon: BookOpenText,
    title: "Stories",
    description:
      "Named, persistent adventures, like saved games. Each keeps its title, its context, its chat and a canvas that paints every turn.",
    points: [
      "An AI narrator that remembers your world",
      "A 2K image for every scene",
      "Switch to video for motion",
    ],
  },
  {
    icon: WandSparkles,
    title: "Studio",
    description:
      "Image generation in batches. Bring input images by upload, paste or from your gallery, and ask the advisor when a prompt needs work.",
    points: [
      "One to four images per prompt",
      "Up to 10 reference images",
      "Reuse any result as the next input",
    ],
  },
  {
    icon: Images,
    title: "Gallery",
    description:
      "Every image and clip you make lands in one place, newest first, with the story it came from. Browse it in a lightbox and download the originals.",
    points: ["All your media, newest first", "Keyboard-friendly lightbox", "Download originals in 2K"],
  },
];

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-16 py-24 sm:py-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="features-title" eyebrow="Platform" title="Core Platform Features">
          Three tools that work as one: tell the story, direct the shots, keep every frame.
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-1 gap-6 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description, points }) => (
            <li
              key={title}
              className="group relative flex flex-col rounded-3xl border border-line bg-surface p-8 shadow-soft transition duration-200 hover:-translate-y-0.5 hover:shadow-lifted"
            >
              <span className="bg-primary-gradient grid size-12 place-items-center rounded-2xl text-white shadow-[0_8px_20px_-8px_rgb(124_58_237/0.7)]">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <h3 className="mt-6 text-xl font-semibold tracking-tight">{title}</h3>
              <p className="mt-3 leading-7 text-ink-muted">{description}</p>
              <ul className="mt-6 flex flex-col gap-3 border-t border-line pt-6 text-sm">
                {points.map((point) => (
                  <li key={point} className="flex items-start gap-3">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-ink" />
                    {point}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

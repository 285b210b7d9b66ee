import { Clapperboard, ImageIcon } from "lucide-react";
import { EmailCapture } from "./email-capture";
import { type Artwork, art } from "./landing-art";
import { SectionHeading } from "./section-heading";

interface GalleryItem {
  image: Artwork;
  title: string;
  kind: "image" | "motion";
}

const ITEMS: GalleryItem[] = [
  { image: art.castleDragon, title: "The Ember Crown", kind: "motion" },
  { image: art.floatingIsles, title: "Skyward Isles", kind: "image" },
  { image: art.neonCity, title: "Neon Metropolis", kind: "image" },
  { image: art.starRelic, title: "Relic of the Ninth Star", kind: "motion" },
  { image: art.desertRuins, title: "Twin Suns Caravan", kind: "image" },
  { image: art.lanternForest, title: "Lantern Forest", kind: "motion" },
  { image: art.oceanLighthouse, title: "The Last Beacon", kind: "motion" },
  { image: art.nebulaPeaks, title: "Nebula Peaks", kind: "image" },
  { image: art.wandererPortrait, title: "The Wanderer", kind: "image" },
];

export function GallerySection() {
  return (
    <section id="gallery" aria-labelledby="gallery-title" className="scroll-mt-16 pb-24 sm:pb-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="gallery-title" eyebrow="Gallery" title="Made in Storyverse">
          Every frame a 2K image; many brought to life as 5-second motion clips.
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-2 gap-4 md:grid-cols-4">
          {ITEMS.map((item, index) => (
            <li
              key={item.title}
              className={`group relative overflow-hidden rounded-2xl border border-line bg-surface-2 shadow-soft ${
                index === 0 ? "col-span-2 row-span-2" : "aspect-square"
              }`}
            >
              <figure className="size-full">
                <img
                  src={item.image.src}
                  alt={item.image.alt}
                  width={1600}
                  height={1000}
                  loading="lazy"
                  className="size-full object-cover transition duration-200 group-hover:scale-[1.03]"
                />
                <figcaption className="absolute inset-x-0 bottom-0 flex items-end justify-between gap-2 bg-gradient-to-t from-black/85 via-black/45 to-transparent px-4 pt-10 pb-3 text-white">
                  <span className="truncate text-sm font-semibold">{item.title}</span>
                  <span className="inline-flex shrink-0 items-center gap-1 text-xs text-white/85">
                    {item.kind === "motion" ? (
                      <Clapperboard aria-hidden="true" className="size-3.5" />
                    ) : (
                      <ImageIcon aria-hidden="true" className="size-3.5" />
                    )}
                    {item.kind === "motion" ? "5 s" : "2K"}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <EmailCapture />
      </div>
    </section>
  );
}

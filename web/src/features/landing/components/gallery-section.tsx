import { Clapperboard, ImageIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmailCapture } from "./email-capture";
import { type ArtName, art } from "./landing-art";
import { SectionHeading } from "./section-heading";

const ITEMS = [
  { image: "castleDragon", key: "emberCrown", kind: "motion" },
  { image: "floatingIsles", key: "skywardIsles", kind: "image" },
  { image: "neonCity", key: "neonCity", kind: "image" },
  { image: "starRelic", key: "starRelic", kind: "motion" },
  { image: "desertRuins", key: "caravan", kind: "image" },
  { image: "lanternForest", key: "lanternForest", kind: "motion" },
  { image: "oceanLighthouse", key: "lastBeacon", kind: "motion" },
  { image: "nebulaPeaks", key: "nebulaPeaks", kind: "image" },
  { image: "wandererPortrait", key: "wanderer", kind: "image" },
] as const satisfies readonly { image: ArtName; key: string; kind: "image" | "motion" }[];

export function GallerySection() {
  const { t } = useTranslation("landing");
  return (
    <section id="gallery" aria-labelledby="gallery-title" className="scroll-mt-16 pb-24 sm:pb-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="gallery-title" eyebrow={t("gallery.eyebrow")} title={t("gallery.title")}>
          {t("gallery.lede")}
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-2 gap-4 md:grid-cols-4">
          {ITEMS.map((item, index) => (
            <li
              key={item.key}
              className={`group relative overflow-hidden rounded-2xl border border-line bg-surface-2 shadow-soft ${
                index === 0 ? "col-span-2 row-span-2" : "aspect-square"
              }`}
            >
              <figure className="size-full">
                <img
                  src={art(item.image).src}
                  alt={art(item.image).alt}
                  width={1600}
                  height={1000}
                  loading="lazy"
                  className="size-full object-cover transition duration-200 group-hover:scale-[1.03]"
                />
                <figcaption className="absolute inset-x-0 bottom-0 flex items-end justify-between gap-2 bg-gradient-to-t from-black/85 via-black/45 to-transparent px-4 pt-10 pb-3 text-white">
                  <span className="truncate text-sm font-semibold">{t(`showcase.${item.key}`)}</span>
                  <span className="inline-flex shrink-0 items-center gap-1 text-xs text-white/85">
                    {item.kind === "motion" ? (
                      <Clapperboard aria-hidden="true" className="size-3.5" />
                    ) : (
                      <ImageIcon aria-hidden="true" className="size-3.5" />
                    )}
                    {item.kind === "motion" ? t("gallery.motion") : t("gallery.image")}
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

import { Play } from "lucide-react";
import { useTranslation } from "react-i18next";
import { type ArtName, art } from "./landing-art";
import { SectionHeading } from "./section-heading";

const CREATIONS = [
  { key: "characters", image: "wandererPortrait" },
  { key: "artifacts", image: "starRelic" },
  { key: "worlds", image: "nebulaPeaks" },
  { key: "motion", image: "oceanLighthouse", badge: "0:05" },
  { key: "rpg", image: "rpgDungeon" },
  { key: "prototypes", image: "prototypeHeadphones" },
] as const satisfies readonly { key: string; image: ArtName; badge?: string }[];

export function CreateSection() {
  const { t } = useTranslation("landing");
  return (
    <section id="create" aria-labelledby="create-title" className="scroll-mt-16 py-24 sm:py-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="create-title" eyebrow={t("create.eyebrow")} title={t("sections.create")}>
          {t("create.lede")}
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {CREATIONS.map((item) => (
            <li
              key={item.key}
              className="group flex flex-col overflow-hidden rounded-3xl border border-line bg-surface shadow-soft transition duration-200 hover:-translate-y-0.5 hover:shadow-lifted"
            >
              <div className="relative aspect-[4/3] overflow-hidden bg-surface-2">
                <img
                  src={art(item.image).src}
                  alt={art(item.image).alt}
                  width={1600}
                  height={1000}
                  loading="lazy"
                  className="size-full object-cover transition duration-200 group-hover:scale-[1.03]"
                />
                {"badge" in item ? (
                  <span className="absolute top-4 inset-s-4 inline-flex items-center gap-1.5 rounded-full bg-black/65 px-3 py-1 text-xs font-semibold text-white backdrop-blur-md">
                    <Play aria-hidden="true" className="size-3 fill-white" />
                    <span className="sr-only">{t("create.motionClip", { length: item.badge })}</span>
                    <span aria-hidden="true">{item.badge}</span>
                  </span>
                ) : null}
              </div>
              <div className="flex flex-1 flex-col p-6">
                <h3 className="text-lg font-semibold tracking-tight">
                  {t(`create.items.${item.key}.title`)}
                </h3>
                <p className="mt-2 leading-7 text-ink-muted">{t(`create.items.${item.key}.description`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import { BookOpenText, Check, Images, type LucideIcon, WandSparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { SectionHeading } from "./section-heading";

const FEATURES = [
  { icon: BookOpenText, key: "stories" },
  { icon: WandSparkles, key: "studio" },
  { icon: Images, key: "gallery" },
] as const satisfies readonly { icon: LucideIcon; key: string }[];

const POINTS = ["one", "two", "three"] as const;

export function FeaturesSection() {
  const { t } = useTranslation("landing");
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-16 py-24 sm:py-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="features-title" eyebrow={t("features.eyebrow")} title={t("features.title")}>
          {t("features.lede")}
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-1 gap-6 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, key }) => (
            <li
              key={key}
              className="group relative flex flex-col rounded-3xl border border-line bg-surface p-8 shadow-soft transition duration-200 hover:-translate-y-0.5 hover:shadow-lifted"
            >
              <span className="bg-primary-gradient grid size-12 place-items-center rounded-2xl text-white shadow-[0_8px_20px_-8px_rgb(124_58_237/0.7)]">
                <Icon aria-hidden="true" className="size-6" />
              </span>
              <h3 className="mt-6 text-xl font-semibold tracking-tight">
                {t(`features.items.${key}.title`)}
              </h3>
              <p className="mt-3 leading-7 text-ink-muted">{t(`features.items.${key}.description`)}</p>
              <ul className="mt-6 flex flex-col gap-3 border-t border-line pt-6 text-sm">
                {POINTS.map((point) => (
                  <li key={point} className="flex items-start gap-3">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-ink" />
                    {t(`features.items.${key}.points.${point}`)}
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

import { ArrowRight, Sparkles } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { StoryWindow } from "./story-window";

const STATS = ["images", "clips", "credits"] as const;

export function HeroSection({ onCreateAccount }: { onCreateAccount: () => void }) {
  const { t } = useTranslation("landing");
  return (
    <section id="top" aria-labelledby="hero-title" className="relative isolate scroll-mt-16 overflow-hidden">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 h-[640px] w-[1100px] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,rgb(139_92_246/0.28),transparent)] dark:bg-[radial-gradient(closest-side,rgb(139_92_246/0.35),transparent)]" />
        <div className="absolute top-40 -inset-e-40 h-[480px] w-[640px] rounded-full bg-[radial-gradient(closest-side,rgb(192_38_211/0.16),transparent)] dark:bg-[radial-gradient(closest-side,rgb(192_38_211/0.22),transparent)]" />
        <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(120_100_200/0.08)_1px,transparent_1px),linear-gradient(to_bottom,rgb(120_100_200/0.08)_1px,transparent_1px)] bg-[size:64px_64px] [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]" />
      </div>

      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-16 px-4 pt-32 pb-16 sm:px-6 sm:pt-40 lg:grid-cols-[1.05fr_1fr] lg:gap-12 lg:px-8 lg:pt-48 lg:pb-32">
        <div className="max-w-2xl">
          <p className="inline-flex items-center gap-2 rounded-full border border-line bg-surface/80 px-4 py-1.5 text-sm font-medium text-ink-muted shadow-soft">
            <Sparkles aria-hidden="true" className="size-4 text-accent-ink" />
            {t("hero.badge")}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-5xl leading-[1.02] font-semibold tracking-tight text-balance sm:text-6xl lg:text-7xl"
          >
            <Trans t={t} i18nKey="hero.title" components={{ accent: <span className="text-gradient" /> }} />
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-ink-muted">{t("hero.lede")}</p>
          <div className="mt-8 flex flex-col gap-4 sm:flex-row">
            <Button size="lg" onClick={onCreateAccount}>
              {t("hero.createFirst")}
              <ArrowRight aria-hidden="true" className="size-5" />
            </Button>
            <a href="#create" className={buttonClasses("secondary", "lg")}>
              {t("hero.seeWhat")}
            </a>
          </div>
          <dl className="mt-12 grid max-w-lg grid-cols-3 gap-4 border-t border-line pt-8">
            {STATS.map((stat) => (
              <div key={stat} className="flex flex-col gap-1">
                <dt className="order-2 text-sm leading-5 text-ink-muted">{t(`hero.stats.${stat}.label`)}</dt>
                <dd className="order-1 text-3xl font-semibold tracking-tight">
                  {t(`hero.stats.${stat}.value`)}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <StoryWindow />
      </div>
    </section>
  );
}

// The Updates & News page: what credits cost, the Stories, Studio and Gallery features,
// quick-start steps and tips. Updated weekly; support and billing live in the profile or account menu.
import { NEW_ACCOUNT_CREDITS } from "@storyverse/contract/accounts";
import { CREDIT_PACKS } from "@storyverse/contract/billing";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import {
  ArrowRight,
  BookOpenText,
  CalendarClock,
  Clapperboard,
  Coins,
  Gift,
  Image as ImageIcon,
  Images,
  LifeBuoy,
  Lightbulb,
  type LucideIcon,
  MessageCircle,
  Sparkles,
  WandSparkles,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";

export type NewsDestination = "stories" | "studio" | "library" | "subscription";

interface NewsPageProps {
  onOpen: (destination: NewsDestination) => void;
}

const PRICES = [
  { icon: MessageCircle, key: "chat", cost: CREDIT_COSTS.chat },
  { icon: ImageIcon, key: "image", cost: CREDIT_COSTS.image },
  { icon: Clapperboard, key: "video", cost: CREDIT_COSTS.video },
] as const satisfies readonly { icon: LucideIcon; key: string; cost: number }[];

const FEATURES = [
  { icon: BookOpenText, key: "stories", destination: "stories" },
  { icon: WandSparkles, key: "studio", destination: "studio" },
  { icon: Images, key: "gallery", destination: "library" },
] as const satisfies readonly { icon: LucideIcon; key: string; destination: NewsDestination }[];

const STEPS = ["create", "talk", "bring", "refine"] as const;

const TIPS = ["select", "specific", "plan", "keys", "advisor"] as const;

export function NewsPage({ onOpen }: NewsPageProps) {
  const { t } = useTranslation("news");
  /** "0.5 credits", "3.0 credits": prices keep their one decimal. */
  const credits = (amount: number) =>
    t("credits", {
      count: amount,
      amount: formatNumber(amount, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    });
  return (
    <div className="px-4 pb-16 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto max-w-5xl">
        <header className="pt-10 pb-8 sm:pt-12">
          <p className="inline-flex items-center gap-2 rounded-full border border-line bg-surface px-3 py-1 text-xs font-semibold text-accent-ink shadow-soft">
            <CalendarClock aria-hidden="true" className="size-3.5" />
            {t("header.badge")}
          </p>
          <h1 id="view-title" className="mt-4 text-3xl font-semibold tracking-tight sm:text-4xl">
            {t("header.title")}
          </h1>
          <p className="mt-3 max-w-2xl text-lg leading-8 text-ink-muted">{t("header.lede")}</p>
        </header>

        <section
          aria-labelledby="news-credits"
          className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
        >
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <h2 id="news-credits" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
                <Coins aria-hidden="true" className="size-5 text-accent-ink" />
                {t("prices.title")}
              </h2>
              <p className="mt-1 text-sm text-ink-muted">
                {t("prices.lede", { fourImages: credits(CREDIT_COSTS.image * 4) })}
              </p>
            </div>
            <p className="inline-flex items-center gap-2 self-start rounded-full bg-success/10 px-3 py-1 text-sm font-semibold text-success sm:self-auto">
              <Gift aria-hidden="true" className="size-4" />
              {t("prices.freeCredits", { count: NEW_ACCOUNT_CREDITS })}
            </p>
          </div>
          <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {PRICES.map(({ icon: Icon, key, cost }) => (
              <li key={key} className="flex items-center gap-4 rounded-2xl bg-surface-2 p-4">
                <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <p className="text-sm font-medium text-ink-muted">{t(`prices.items.${key}.label`)}</p>
                  <p className="text-lg font-semibold">{credits(cost)}</p>
                  <p className="text-xs text-ink-muted">{t(`prices.items.${key}.per`)}</p>
                </div>
              </li>
            ))}
          </ul>

          <h3 className="mt-8 text-base font-semibold">{t("packs.title")}</h3>
          <p className="mt-1 text-sm text-ink-muted">{t("packs.lede")}</p>
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {CREDIT_PACKS.map((pack) => (
              <li
                key={pack.name}
                className="flex flex-col rounded-2xl border border-line p-4 transition duration-200 hover:border-accent-400/60"
              >
                <p className="text-sm font-semibold">{t(`packs.names.${pack.id}`)}</p>
                <p className="mt-2 text-3xl font-semibold tracking-tight">
                  {formatNumber(pack.price_usd, {
                    style: "currency",
                    currency: "USD",
                    minimumFractionDigits: 0,
                  })}
                </p>
                <p className="mt-1 text-sm text-ink-muted">
                  {formatCreditAmount(pack.credits)}
                  {pack.bonus_credits > 0 ? (
                    <span className="ms-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">
                      {t("packs.bonus", { bonus: formatNumber(pack.bonus_credits) })}
                    </span>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
          <Button variant="secondary" size="sm" className="mt-6" onClick={() => onOpen("subscription")}>
            {t("manageCredits")}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Button>
        </section>

        <section aria-labelledby="news-features" className="mt-12">
          <h2 id="news-features" className="text-xl font-semibold tracking-tight">
            {t("features.title")}
          </h2>
          <ul className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-3">
            {FEATURES.map(({ icon: Icon, key, destination }) => (
              <li
                key={key}
                className="flex flex-col rounded-3xl border border-line bg-surface p-6 shadow-soft"
              >
                <span className="bg-primary-gradient grid size-11 place-items-center rounded-xl text-white">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="mt-5 text-lg font-semibold">{t(`features.items.${key}.title`)}</h3>
                <p className="mt-2 flex-1 text-sm leading-6 text-ink-muted">
                  {t(`features.items.${key}.text`)}
                </p>
                <button
                  type="button"
                  onClick={() => onOpen(destination)}
                  className="mt-5 inline-flex items-center gap-2 self-start rounded-lg text-sm font-semibold text-accent-ink hover:underline"
                >
                  {t(`features.items.${key}.action`)}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        </section>

        <div className="mt-12 grid grid-cols-1 gap-4 lg:grid-cols-[1.2fr_1fr]">
          <section
            aria-labelledby="news-start"
            className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
          >
            <h2 id="news-start" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              <Sparkles aria-hidden="true" className="size-5 text-accent-ink" />
              {t("steps.title")}
            </h2>
            <ol className="mt-6 flex flex-col gap-5">
              {STEPS.map((step, index) => (
                <li key={step} className="flex gap-4">
                  <span
                    aria-hidden="true"
                    className="grid size-8 shrink-0 place-items-center rounded-full bg-accent-soft text-sm font-semibold text-accent-ink"
                  >
                    {formatNumber(index + 1)}
                  </span>
                  <div>
                    <h3 className="font-semibold">{t(`steps.items.${step}.title`)}</h3>
                    <p className="mt-1 text-sm leading-6 text-ink-muted">{t(`steps.items.${step}.text`)}</p>
                  </div>
                </li>
              ))}
            </ol>
          </section>

          <section
            aria-labelledby="news-tips"
            className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
          >
            <h2 id="news-tips" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              <Lightbulb aria-hidden="true" className="size-5 text-accent-ink" />
              {t("tips.title")}
            </h2>
            <ul className="mt-6 flex flex-col gap-4">
              {TIPS.map((tip) => (
                <li key={tip} className="flex gap-3 text-sm leading-6 text-ink-muted">
                  <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-accent-500" />
                  {t(`tips.items.${tip}`)}
                </li>
              ))}
            </ul>
          </section>
        </div>

        <section
          aria-labelledby="news-support"
          className="mt-12 flex flex-col gap-4 rounded-3xl bg-accent-soft p-6 sm:flex-row sm:items-center sm:p-8"
        >
          <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-surface text-accent-ink shadow-soft">
            <LifeBuoy aria-hidden="true" className="size-6" />
          </span>
          <div className="flex-1">
            <h2 id="news-support" className="text-lg font-semibold text-ink">
              {t("support.title")}
            </h2>
            <p className="mt-1 text-sm leading-6 text-ink">{t("support.text")}</p>
          </div>
        </section>
      </div>
    </div>
  );
}

// 'Top Up Credits': the three one-time packs. Buy starts a checkout session and the browser
// goes to the payment page; it comes back to the Credits page (payment-return.ts).
import { CREDIT_PACKS, type CreditPack } from "@storyverse/contract/billing";
import { Check, Sparkles } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useBanner } from "../../../shared/banner-provider";
import { useCreateCheckoutSession } from "../api/create-checkout-session";
import { packName } from "../format";
import { redirectTo } from "./redirect";

export const TOP_UP_HEADING_ID = "top-up-title";

/** The pack the page points out. */
const FEATURED_PACK = "pro";

/** "$25" (a pack's price, in dollars, written the interface's way). */
const usd = (amount: number) =>
  formatNumber(amount, { style: "currency", currency: "USD", maximumFractionDigits: 0 });

export function TopUpPacks() {
  const { t } = useTranslation("credits");
  const checkout = useCreateCheckoutSession();
  const { showError } = useBanner();
  // The pack whose checkout is starting or whose payment page is loading: every Buy waits meanwhile.
  const [buying, setBuying] = useState<string | null>(null);

  const buy = (pack: CreditPack) => {
    if (buying) return;
    setBuying(pack.id);
    checkout.mutate(pack, {
      onSuccess: ({ checkout_url }) => {
        if (!redirectTo(checkout_url, () => setBuying(null))) {
          setBuying(null);
          showError(t("topUp.invalidAddress"));
        }
      },
      onError: (error) => {
        setBuying(null);
        showError(t("topUp.checkoutFailed", { message: translateServerMessage(errorMessage(error)) }));
      },
    });
  };

  return (
    <section aria-labelledby={TOP_UP_HEADING_ID} className="mt-10">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2
            id={TOP_UP_HEADING_ID}
            tabIndex={-1}
            className="scroll-mt-24 text-xl font-semibold tracking-tight outline-none"
          >
            {t("topUp.title")}
          </h2>
          <p className="mt-1 text-sm text-ink-muted">{t("topUp.lede")}</p>
        </div>
      </div>
      <ul className="mt-5 grid grid-cols-1 gap-4 md:grid-cols-3">
        {CREDIT_PACKS.map((pack) => {
          const featured = pack.id === FEATURED_PACK;
          const busy = buying === pack.id;
          const name = packName(pack);
          return (
            <li
              key={pack.id}
              aria-labelledby={`pack-${pack.id}`}
              className={`relative flex flex-col rounded-3xl border bg-surface p-6 shadow-soft transition duration-200 ${
                featured ? "border-accent-400/60 shadow-lifted" : "border-line hover:border-accent-400/40"
              }`}
            >
              {featured ? (
                <p className="bg-primary-gradient absolute -top-3 inset-s-6 inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs font-semibold text-white shadow-soft">
                  <Sparkles aria-hidden="true" className="size-3.5" />
                  {t("topUp.bestValue")}
                </p>
              ) : null}
              <h3 id={`pack-${pack.id}`} className="text-base font-semibold">
                {name}
              </h3>
              <p className="mt-3 text-4xl font-semibold tracking-tight">{usd(pack.price_usd)}</p>
              <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
                <span className="font-semibold text-ink">{formatCreditAmount(pack.credits)}</span>
                {pack.bonus_credits > 0 ? (
                  <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">
                    {t("topUp.bonus", { amount: pack.bonus_credits })}
                  </span>
                ) : null}
              </p>
              <ul className="mt-4 space-y-2 text-sm text-ink-muted">
                <li className="flex items-center gap-2">
                  <Check aria-hidden="true" className="size-4 shrink-0 text-success" />
                  {t("topUp.perDollar", { count: perDollar(pack) })}
                </li>
                <li className="flex items-center gap-2">
                  <Check aria-hidden="true" className="size-4 shrink-0 text-success" />
                  {t("topUp.neverExpire")}
                </li>
              </ul>
              <div className="mt-auto pt-6">
                <Button
                  onClick={() => buy(pack)}
                  disabled={buying !== null}
                  loading={busy}
                  loadingText={t("topUp.openingCheckout")}
                  variant={featured ? "primary" : "secondary"}
                  size="sm"
                  className="w-full"
                >
                  {t("topUp.buy", { name })}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Credits per dollar, to one decimal. */
function perDollar(pack: CreditPack): number {
  return Math.round((pack.credits / pack.price_usd) * 10) / 10;
}

// The Credits card: credits available (infinity for an unlimited account), the last top-up or
// 'None', and every credit ever added.
import { creditCost } from "@storyverse/contract/credits";
import { Coins, Plus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { costLabel, formatBalance } from "../../../lib/credits";
import { useCreditBalance } from "../../../shared/credits/credit-balance";
import { useSubscriptionDetails } from "../api/subscription-details";
import { formatTopUpDate } from "../format";
import { accountDataError, LoadError, Skeleton } from "./card-states";
import { TOP_UP_HEADING_ID } from "./top-up-packs";

/** Brings the packs into view and moves focus to their heading, so keyboard users land there too. */
function showTopUps() {
  const heading = document.getElementById(TOP_UP_HEADING_ID);
  if (!heading) return;
  const reduce = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  heading.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  heading.focus({ preventScroll: true });
}

export function CreditsCard() {
  const { t } = useTranslation("credits");
  const balance = useCreditBalance();
  const details = useSubscriptionDetails();
  const { remaining, unlimited } = balance;

  return (
    <section
      aria-labelledby="credits-card-title"
      className="relative flex flex-col overflow-hidden rounded-3xl border border-accent-400/40 bg-surface p-6 shadow-lifted"
    >
      <div
        aria-hidden="true"
        className="bg-primary-gradient pointer-events-none absolute -top-24 -inset-e-24 size-56 rounded-full opacity-20 blur-3xl"
      />
      <h2 id="credits-card-title" className="flex items-center gap-2 text-sm font-semibold text-ink-muted">
        <Coins aria-hidden="true" className="size-4 text-accent-ink" />
        {t("creditsCard.title")}
      </h2>
      <p className="mt-4 flex items-baseline gap-2" data-testid="credits-available">
        {unlimited ? (
          <>
            <span className="text-5xl font-semibold tracking-tight">∞</span>
            <span className="text-base font-medium text-ink-muted">{t("creditsCard.unlimited")}</span>
          </>
        ) : (
          <>
            <span className="text-5xl font-semibold tracking-tight tabular-nums">
              {formatBalance(remaining)}
            </span>
            <span className="text-base font-medium text-ink-muted">
              {t("creditsCard.available", { count: remaining })}
            </span>
          </>
        )}
      </p>

      {details.isError ? (
        <div className="mt-6">
          <LoadError
            error={details.error}
            message={accountDataError()}
            onRetry={() => void details.refetch()}
          />
        </div>
      ) : (
        <dl className="mt-6 grid grid-cols-2 gap-4 border-t border-line pt-5 text-sm">
          <div>
            <dt className="text-ink-muted">{t("creditsCard.lastTopUp")}</dt>
            <dd className="mt-1 font-semibold">
              {details.data ? (
                formatTopUpDate(details.data.last_top_up_at)
              ) : (
                <Skeleton className="h-5 w-24" />
              )}
            </dd>
          </div>
          <div>
            <dt className="text-ink-muted">{t("creditsCard.lifetime")}</dt>
            <dd className="mt-1 font-semibold tabular-nums">
              {details.data ? (
                formatBalance(details.data.lifetime_credits)
              ) : (
                <Skeleton className="h-5 w-16" />
              )}
            </dd>
          </div>
        </dl>
      )}
      <div className="relative mt-auto pt-6">
        {unlimited ? null : (
          <p className="mb-3 text-xs leading-5 text-ink-muted">
            {t("creditsCard.costs", {
              chat: costLabel(creditCost("chat")),
              image: costLabel(creditCost("image")),
              video: costLabel(creditCost("video")),
            })}
          </p>
        )}
        <Button onClick={showTopUps} variant="secondary" size="sm" className="w-full">
          <Plus aria-hidden="true" className="size-4" />
          {t("creditsCard.topUp")}
        </Button>
      </div>
    </section>
  );
}

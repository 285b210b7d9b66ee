// Cost against balance before anything is sent: a request the account cannot pay for says so beside the
// send button (and the button is disabled by its feature), instead of being refused afterwards.
import { CircleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { i18n } from "../../i18n/i18n";
import { costLabel } from "../../lib/credits";
import { useView } from "../view-provider";
import { useCreditBalance } from "./credit-balance";
import type { Shortfall } from "./out-of-credits";
import { CREDITS_VIEW } from "./quota-prompt-provider";
import { rememberCreditsReturn } from "./story-return";

/** How short the account is for a request of this cost; null when it can pay (or is unlimited). */
export function useCreditShortfall(cost: number): Shortfall | null {
  const { remaining, unlimited, isPlaceholder } = useCreditBalance();
  // Until the server has confirmed the balance, do not refuse on a stored number.
  if (unlimited || isPlaceholder || cost <= remaining) return null;
  return { cost, remaining };
}

export function shortfallText({ cost, remaining }: Shortfall): string {
  return remaining > 0
    ? i18n.t("credits:shortfall.notEnough", { cost: costLabel(cost), count: remaining })
    : i18n.t("credits:shortfall.noneLeft", { cost: costLabel(cost) });
}

/** Something cheaper the account can pay for now, offered beside the shortfall ("Send as Chat"). */
export interface CheaperOffer {
  label: string;
  cost: number;
  onAccept: () => void;
}

export function CreditShortfallNotice({
  shortfall,
  offer = null,
  className = "",
}: {
  shortfall: Shortfall;
  offer?: CheaperOffer | null;
  className?: string;
}) {
  const { t } = useTranslation("credits");
  const { navigate, storyId } = useView();
  return (
    <p
      role="status"
      className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded-xl border border-amber-500/40 bg-amber-400/10 px-3 py-2 text-xs font-medium text-amber-900 dark:text-amber-100 ${className}`}
    >
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      <span>{shortfallText(shortfall)}</span>
      {offer ? (
        <button
          type="button"
          onClick={offer.onAccept}
          className="rounded-md font-semibold underline underline-offset-2 hover:no-underline"
        >
          {t("shortfall.offer", { label: offer.label, cost: costLabel(offer.cost) })}
        </button>
      ) : null}
      <button
        type="button"
        onClick={() => {
          // From a story, a paid return comes back to it, with the draft still in the composer.
          if (storyId) rememberCreditsReturn(storyId);
          navigate(CREDITS_VIEW);
        }}
        className="rounded-md font-semibold underline underline-offset-2 hover:no-underline"
      >
        {t("shortfall.getCredits")}
      </button>
    </p>
  );
}

// 'Billing and Payments': the billing type and Manage Billing, which opens the payment provider's
// billing portal, or says why there is none yet.
import { ExternalLink, Info, Wallet } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useBanner } from "../../../shared/banner-provider";
import { useManageBilling } from "../api/manage-billing";
import { manageBillingOutcome } from "../billing-outcome";
import { cardClasses } from "./card-states";
import { redirectTo } from "./redirect";

export function BillingCard() {
  const { t } = useTranslation("credits");
  const manage = useManageBilling();
  const { showError } = useBanner();
  const [notice, setNotice] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const busy = manage.isPending || leaving;

  const openPortal = () => {
    if (busy) return;
    setNotice(null);
    manage.mutate(undefined, {
      onSuccess: (response) => {
        const outcome = manageBillingOutcome(response);
        if (outcome.kind === "redirect") {
          if (redirectTo(outcome.url, () => setLeaving(false))) setLeaving(true);
          else showError(t("billing.invalidAddress"));
        } else if (outcome.kind === "notice") setNotice(outcome.message);
        else showError(outcome.message);
      },
      onError: (error) =>
        showError(t("billing.portalFailed", { message: translateServerMessage(errorMessage(error)) })),
    });
  };

  return (
    <section aria-labelledby="billing-card-title" className={`${cardClasses} flex flex-col`}>
      <h2 id="billing-card-title" className="text-lg font-semibold tracking-tight">
        {t("billing.title")}
      </h2>
      <dl className="mt-5 flex items-center justify-between gap-3 rounded-2xl bg-surface-2 p-4">
        <dt className="flex items-center gap-2 text-sm text-ink-muted">
          <Wallet aria-hidden="true" className="size-4 text-accent-ink" />
          {t("billing.type")}
        </dt>
        <dd className="text-sm font-semibold">{t("billing.payAsYouGo")}</dd>
      </dl>
      <p className="mt-4 text-sm leading-6 text-ink-muted">{t("billing.text")}</p>
      <div className="mt-auto pt-5">
        <Button onClick={openPortal} loading={busy} variant="secondary" size="sm" className="w-full">
          {busy ? null : <ExternalLink aria-hidden="true" className="size-4" />}
          {t("billing.manage")}
        </Button>
        <div role="status">
          {notice ? (
            <p className="mt-3 flex items-start gap-2 rounded-xl bg-accent-soft px-3 py-2 text-sm leading-6 text-ink">
              <Info aria-hidden="true" className="mt-1 size-4 shrink-0 text-accent-ink" />
              <span data-server-text>{notice}</span>
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

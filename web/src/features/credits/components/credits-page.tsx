// The Credits page (the account page): the Credits card, this month's activity,
// billing, the media storage, the Top Up packs and the credit history; then what the app puts below it (the
// account's data: its download and deletion).
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useCreditBalance } from "../../../shared/credits/credit-balance";
import { BillingCard } from "./billing-card";
import { CreditHistory } from "./credit-history";
import { CreditsCard } from "./credits-card";
import { MonthlyActivityCard } from "./monthly-activity-card";
import { StorageCard } from "./storage-card";
import { TopUpPacks } from "./top-up-packs";

export function CreditsPage({ footer }: { footer?: ReactNode }) {
  const { t } = useTranslation("credits");
  const { unlimited } = useCreditBalance();
  return (
    <div className="px-4 pb-16 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto max-w-6xl">
        <div className="pt-10 pb-8 sm:pt-12">
          <h1 id="view-title" className="text-3xl font-semibold tracking-tight sm:text-4xl">
            {t("page.title")}
          </h1>
          <p className="mt-2 text-ink-muted">{t("page.lede")}</p>
        </div>
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
          <CreditsCard />
          <MonthlyActivityCard unlimited={unlimited} />
          <BillingCard />
        </div>
        <StorageCard />
        <TopUpPacks />
        <CreditHistory />
        {footer}
      </div>
    </div>
  );
}

// The price beside an action against what the account has ("1.5 credits · 9 left"), hidden for unlimited
// users.
import { creditCost } from "@storyverse/contract/credits";
import { useTranslation } from "react-i18next";
import { formatBalance, visibleCostLabel } from "../../lib/credits";
import { useCreditBalance } from "./credit-balance";

interface CostLabelProps {
  /** chat, image, video, advisor ... (unknown kinds cost 1). */
  kind: string;
  quantity?: number;
  className?: string;
}

export function CostLabel({ kind, quantity = 1, className }: CostLabelProps) {
  const { t } = useTranslation("credits");
  const { unlimited, remaining, isPlaceholder } = useCreditBalance();
  const label = visibleCostLabel(creditCost(kind, quantity), unlimited);
  if (label === null) return null;
  return (
    <span className={className}>
      {label}
      {isPlaceholder ? null : (
        <span className="font-normal"> · {t("costLabel.left", { balance: formatBalance(remaining) })}</span>
      )}
    </span>
  );
}

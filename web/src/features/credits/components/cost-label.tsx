// The price beside an action ("1.5 credits", "1 credit"), hidden for unlimited users.
import { creditCost } from "@storyverse/contract/credits";
import { visibleCostLabel } from "../../../lib/credits";
import { useCreditBalance } from "../api/credit-balance";

interface CostLabelProps {
  /** chat, image, video, advisor ... (unknown kinds cost 1). */
  kind: string;
  quantity?: number;
  className?: string;
}

export function CostLabel({ kind, quantity = 1, className }: CostLabelProps) {
  const { unlimited } = useCreditBalance();
  const label = visibleCostLabel(creditCost(kind, quantity), unlimited);
  if (label === null) return null;
  return <span className={className}>{label}</span>;
}

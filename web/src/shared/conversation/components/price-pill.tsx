// The price on a paid action's button (Retry's choices, Continue), like the composer's price pill: what the
// action will charge, hidden for unlimited accounts.
import { creditCost } from "@storyverse/contract/credits";
import { visibleCostLabel } from "../../../lib/credits";
import { useCreditBalance } from "../../credits/credit-balance";

export function PricePill({ kind }: { kind: "chat" | "image" | "video" }) {
  const { unlimited } = useCreditBalance();
  const label = visibleCostLabel(creditCost(kind), unlimited);
  if (label === null) return null;
  // The space keeps the button's name readable ("Continue 0.5 credits"); the flex gap does the spacing.
  return (
    <>
      {" "}
      <span className="ms-1 rounded-full bg-accent-soft px-1.5 py-0.5 text-[0.6875rem] font-semibold text-accent-ink tabular-nums">
        {label}
      </span>
    </>
  );
}

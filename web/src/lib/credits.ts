// How the web app reads credits out loud, in the interface's language (decision 0155). Prices and packs live
// in the contract (@storyverse/contract/credits and /billing); these helpers only format them.
import { formatBalanceAmount, formatCreditAmount } from "../i18n/format";
import { i18n } from "../i18n/i18n";

/** "15", "14.5", "1,250", or "∞" for an unlimited account (-1). */
export const formatBalance: (remaining: number) => string = formatBalanceAmount;

/** 'credit' for exactly 1, otherwise 'credits' (decimals kept: "0.5 credits"), without the number. */
export function creditLabel(amount: number): string {
  return i18n.t("common:credits.unit", { count: amount });
}

/** A cost label: "1 credit", "0.5 credits", "6 credits"; decimals kept (the contract's wording). */
export const costLabel: (amount: number) => string = formatCreditAmount;

/**
 * The cost label to show beside an action, or null for an unlimited user (costs are hidden for users
 * who are never charged).
 */
export function visibleCostLabel(amount: number, unlimited: boolean): string | null {
  return unlimited ? null : costLabel(amount);
}

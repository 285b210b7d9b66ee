// How the web app reads credits out loud. Prices and packs live in the contract
// (@storyverse/contract/credits and /billing); these helpers only format them.
import { formatCredits, UNLIMITED_CREDITS } from "@storyverse/contract/credits";

const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** "15", "14.5", "1,250", or "∞" for an unlimited account (-1). */
export function formatBalance(remaining: number): string {
  return remaining === UNLIMITED_CREDITS ? "∞" : numberFormat.format(remaining);
}

/** 'credit' for exactly 1, otherwise 'credits' (decimals kept: "0.5 credits"). */
export function creditLabel(amount: number): string {
  return Math.abs(amount) === 1 ? "credit" : "credits";
}

/** A cost label: "1 credit", "0.5 credits", "6 credits"; decimals kept (the contract's wording). */
export const costLabel: (amount: number) => string = formatCredits;

/**
 * The cost label to show beside an action, or null for an unlimited user (costs are hidden for users
 * who are never charged).
 */
export function visibleCostLabel(amount: number, unlimited: boolean): string | null {
  return unlimited ? null : costLabel(amount);
}

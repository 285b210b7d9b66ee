// Credit prices, packs and how a balance reads (spec §9). The credits module will own these on the
// server; until its contract lands they live here, beside the one helper that formats a balance.

/** Credits per item, by kind of request. */
export const CREDIT_COSTS = { chat: 0.5, image: 1.5, video: 3.0 } as const;

export interface CreditPack {
  name: string;
  priceUsd: number;
  credits: number;
  bonus: number;
}

/** One-time packs; purchased credits never expire. */
export const CREDIT_PACKS: readonly CreditPack[] = [
  { name: "Starter Pack", priceUsd: 10, credits: 100, bonus: 0 },
  { name: "Pro Pack", priceUsd: 25, credits: 275, bonus: 25 },
  { name: "Expert Pack", priceUsd: 50, credits: 600, bonus: 100 },
];

/** The balance the server reports for an account that is never charged. */
export const UNLIMITED_CREDITS = -1;

const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** "15", "14.5", or "∞" for an unlimited account. */
export function formatCredits(remaining: number): string {
  return remaining === UNLIMITED_CREDITS ? "∞" : numberFormat.format(remaining);
}

/** 'credit' for exactly 1, otherwise 'credits' (decimals kept: "0.5 credits"). */
export function creditLabel(amount: number): string {
  return amount === 1 ? "credit" : "credits";
}

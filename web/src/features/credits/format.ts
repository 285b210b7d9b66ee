// How the Credits page names transactions and writes amounts and dates.
import {
  STUDIO_IMAGE_USAGE,
  TRANSACTION_TYPES,
  USAGE_TRANSACTION_PREFIX,
} from "@storyverse/contract/billing";
import { formatBalance } from "../../lib/credits";

const NAMED_TYPES: Record<string, string> = {
  [TRANSACTION_TYPES.signupBonus]: "Sign-up bonus",
  [TRANSACTION_TYPES.purchase]: "Credit purchase",
  [TRANSACTION_TYPES.adminGrant]: "Credits granted",
  [TRANSACTION_TYPES.adminTakeBack]: "Credits taken back",
  [TRANSACTION_TYPES.refund]: "Refund",
};

const USAGE_NAMES: Record<string, string> = {
  chat: "Chat message",
  image: "Image generation",
  [STUDIO_IMAGE_USAGE]: "Studio images",
  video: "Video generation",
  advisor: "Prompt advisor",
  transcription: "Transcription",
  speech: "Narration",
};

/** "Credit purchase", "Image generation", "Usage: upscale" for a kind this page does not know yet. */
export function transactionLabel(type: string): string {
  const named = NAMED_TYPES[type];
  if (named) return named;
  if (type.startsWith(USAGE_TRANSACTION_PREFIX)) {
    const kind = type.slice(USAGE_TRANSACTION_PREFIX.length);
    return USAGE_NAMES[kind] ?? `Usage: ${kind.replaceAll("_", " ")}`;
  }
  const words = type.replaceAll("_", " ").trim();
  return words === "" ? "Transaction" : words.charAt(0).toUpperCase() + words.slice(1);
}

export type TransactionCategory = "purchase" | "bonus" | "refund" | "usage";

export function transactionCategory(type: string, amount: number): TransactionCategory {
  if (type === TRANSACTION_TYPES.purchase) return "purchase";
  if (type === TRANSACTION_TYPES.refund) return "refund";
  if (type.startsWith(USAGE_TRANSACTION_PREFIX) || amount < 0) return "usage";
  return "bonus";
}

/** "+275", "−0.5" (a true minus sign), "0". */
export function signedAmount(amount: number): string {
  if (amount > 0) return `+${formatBalance(amount)}`;
  if (amount < 0) return `\u2212${formatBalance(-amount)}`;
  return "0";
}

const dateFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

function parseDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Jan 5, 2026", or 'None' when there has been no top-up. */
export function formatTopUpDate(iso: string | null): string {
  const date = iso === null ? null : parseDate(iso);
  return date ? dateFormat.format(date) : "None";
}

/** "Jan 5, 2026, 3:04 PM", or the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = parseDate(iso);
  return date ? dateTimeFormat.format(date) : iso;
}

/** "May 2026" for the month the activity counts ("2026-05", UTC). */
export function formatActivityMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return "This month";
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

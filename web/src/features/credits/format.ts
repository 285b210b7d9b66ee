// How the Credits page names transactions and packs and writes amounts, sizes and dates, in the interface's
// language (decision 0155).
import {
  CREDIT_PACKS,
  STUDIO_IMAGE_USAGE,
  TRANSACTION_TYPES,
  USAGE_TRANSACTION_PREFIX,
} from "@storyverse/contract/billing";
import { formatDate, formatNumber } from "../../i18n/format";
import { i18n } from "../../i18n/i18n";
import { formatBalance } from "../../lib/credits";

const NAMED_TYPES: Record<string, () => string> = {
  [TRANSACTION_TYPES.signupBonus]: () => i18n.t("credits:transactions.signupBonus"),
  [TRANSACTION_TYPES.purchase]: () => i18n.t("credits:transactions.purchase"),
  [TRANSACTION_TYPES.adminGrant]: () => i18n.t("credits:transactions.adminGrant"),
  [TRANSACTION_TYPES.adminTakeBack]: () => i18n.t("credits:transactions.adminTakeBack"),
  [TRANSACTION_TYPES.refund]: () => i18n.t("credits:transactions.refund"),
};

const USAGE_NAMES: Record<string, () => string> = {
  chat: () => i18n.t("credits:transactions.usage.chat"),
  image: () => i18n.t("credits:transactions.usage.image"),
  [STUDIO_IMAGE_USAGE]: () => i18n.t("credits:transactions.usage.studioImage"),
  video: () => i18n.t("credits:transactions.usage.video"),
  advisor: () => i18n.t("credits:transactions.usage.advisor"),
  transcription: () => i18n.t("credits:transactions.usage.transcription"),
  speech: () => i18n.t("credits:transactions.usage.speech"),
};

/** "Credit purchase", "Image generation", "Usage: upscale" for a kind this page does not know yet. */
export function transactionLabel(type: string): string {
  const named = Object.hasOwn(NAMED_TYPES, type) ? NAMED_TYPES[type] : undefined;
  if (named) return named();
  if (type.startsWith(USAGE_TRANSACTION_PREFIX)) {
    const kind = type.slice(USAGE_TRANSACTION_PREFIX.length);
    const usage = Object.hasOwn(USAGE_NAMES, kind) ? USAGE_NAMES[kind] : undefined;
    return usage ? usage() : i18n.t("credits:transactions.usage.other", { kind: kind.replaceAll("_", " ") });
  }
  // A type this page has no words for: its own name, made readable.
  const words = type.replaceAll("_", " ").trim();
  return words === "" ? i18n.t("credits:transactions.other") : words.charAt(0).toUpperCase() + words.slice(1);
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
  return formatNumber(0);
}

/** A pack's name ("Pro Pack"), in the interface's language. */
export function packName(pack: { id: string; name: string }): string {
  switch (pack.id) {
    case "starter":
      return i18n.t("credits:packs.starter");
    case "pro":
      return i18n.t("credits:packs.pro");
    case "expert":
      return i18n.t("credits:packs.expert");
    default:
      return pack.name;
  }
}

/** The name the payment return reports ("Pro Pack"): one of the packs in the interface's language, else as sent. */
export function planName(name: string): string {
  const pack = CREDIT_PACKS.find((candidate) => candidate.name === name);
  return pack ? packName(pack) : name;
}

function parseDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Jan 5, 2026", or 'None' when there has been no top-up. */
export function formatTopUpDate(iso: string | null): string {
  const date = iso === null ? null : parseDate(iso);
  return date
    ? formatDate(date, { month: "short", day: "numeric", year: "numeric" })
    : i18n.t("credits:creditsCard.noTopUp");
}

/** "Jan 5, 2026, 3:04 PM", or the raw text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = parseDate(iso);
  return date
    ? formatDate(date, {
        month: "short",
        day: "numeric",
        year: "numeric",
        hour: "numeric",
        minute: "2-digit",
      })
    : iso;
}

/** "May 2026" for the month the activity counts ("2026-05", UTC). */
export function formatActivityMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return i18n.t("credits:activity.thisMonth");
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return formatDate(date, { month: "long", year: "numeric", timeZone: "UTC" });
}

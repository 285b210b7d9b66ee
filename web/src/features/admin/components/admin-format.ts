// Small shared pieces of the admin console: its card, reading a credits field, and the dates and sizes it shows
// (in the interface's language).
import { formatDate, formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";

export const cardClasses = "rounded-3xl border border-line bg-surface p-6 shadow-soft";

/** A credits field's value: a number with at most one decimal, null when empty, undefined when invalid. */
export function parseCredits(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (!/^\d+(\.\d)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export const capText = (value: number | null) => (value === null ? "" : String(value));

/** A moment as the console shows it: "Jan 10, 2026, 11:30 AM" in English. */
export const dateTimeText = (iso: string) => formatDate(iso, { dateStyle: "medium", timeStyle: "short" });

/** Bytes as the contract's formatStorageBytes writes them ("5.0 MB", "12 KB"), in the interface's language. */
export function storageText(bytes: number): string {
  const mb = 1024 * 1024;
  const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (bytes >= 1024 * mb)
    return i18n.t("admin:storage.gigabytes", { size: formatNumber(bytes / (1024 * mb), oneDecimal) });
  if (bytes >= mb) return i18n.t("admin:storage.megabytes", { size: formatNumber(bytes / mb, oneDecimal) });
  if (bytes >= 1024)
    return i18n.t("admin:storage.kilobytes", { size: formatNumber(Math.round(bytes / 1024)) });
  return i18n.t("admin:storage.bytes", { size: formatNumber(bytes) });
}

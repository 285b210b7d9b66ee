// Numbers, dates and credit amounts in the interface's language (decision 0155). Everything the app shows that
// Intl formats goes through here, so a pseudo-language accents it too and a German player reads "1.250".
import { UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import { currentLanguage, i18n } from "./i18n";
import { intlLocaleOf, isPseudoLanguage } from "./languages";
import { pseudoLocalize } from "./pseudo";

const finish = (text: string) => (isPseudoLanguage(currentLanguage()) ? pseudoLocalize(text) : text);
const locale = () => intlLocaleOf(currentLanguage());

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return finish(new Intl.NumberFormat(locale(), options).format(value));
}

/** A date or time; a value that is not a date shows nothing. */
export function formatDate(value: string | number | Date, options?: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return finish(new Intl.DateTimeFormat(locale(), options).format(date));
}

/** "in 3 days", "2 hours ago", "yesterday". */
export function formatRelative(value: number, unit: Intl.RelativeTimeFormatUnit): string {
  return finish(new Intl.RelativeTimeFormat(locale(), { numeric: "auto" }).format(value, unit));
}

/** A list: "Mara, Tomas and Ida" / "Mara, Tomas und Ida". */
export function formatList(items: readonly string[], type: Intl.ListFormatType = "conjunction"): string {
  return new Intl.ListFormat(locale(), { style: "long", type }).format(items);
}

/** "1 credit", "0.5 credits", "1,250 credits" (decimals kept), in the interface's language. */
export function formatCreditAmount(amount: number): string {
  return i18n.t("common:credits.amount", { count: amount });
}

/** A balance: "15", "14.5", "1,250", or "∞" for an unlimited account. */
export function formatBalanceAmount(remaining: number): string {
  return remaining === UNLIMITED_CREDITS ? "∞" : formatNumber(remaining, { maximumFractionDigits: 1 });
}

const MIB = 1024 * 1024;
const TENTHS = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
/** Up to "1024 KB": never grouped, as the server writes it. */
const WHOLE = { useGrouping: false };

/**
 * A size as the contract's formatStorageBytes words it ("5.2 MB", "2.0 GB", "340 KB", "12 B"), its number in
 * the interface's language ("5,2 MB"), never grouped ("1023 B").
 */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${formatNumber(bytes / (1024 * MIB), TENTHS)} GB`;
  if (bytes >= MIB) return `${formatNumber(bytes / MIB, TENTHS)} MB`;
  if (bytes >= 1024) return `${formatNumber(Math.round(bytes / 1024), WHOLE)} KB`;
  return `${formatNumber(bytes, WHOLE)} B`;
}

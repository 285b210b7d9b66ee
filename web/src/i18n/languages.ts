// The interface languages (decision 0155): English is the source, German and Spanish complete translations;
// two pseudo-languages exist for tests only (en-XA: every letter accented and every string longer, to find
// untranslated strings and clipped layouts; ar-XB: the same, written right to left).
import { LOCALES, type Locale } from "@storyverse/contract/accounts";

export const PSEUDO_LANGUAGES = ["en-XA", "ar-XB"] as const;
export type PseudoLanguage = (typeof PSEUDO_LANGUAGES)[number];
export type AppLanguage = Locale | PseudoLanguage;

/** Each language's name in itself, as the language picker lists it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch", es: "Español" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export function isPseudoLanguage(value: unknown): value is PseudoLanguage {
  return typeof value === "string" && (PSEUDO_LANGUAGES as readonly string[]).includes(value);
}

export function isAppLanguage(value: unknown): value is AppLanguage {
  return isLocale(value) || isPseudoLanguage(value);
}

/** The writing direction of a language: only the right-to-left pseudo-language for now. */
export function directionOf(language: AppLanguage): "ltr" | "rtl" {
  return language === "ar-XB" ? "rtl" : "ltr";
}

/** The locale Intl formats numbers and dates in: a pseudo-language formats as English, then accents it. */
export function intlLocaleOf(language: AppLanguage): Locale {
  return isPseudoLanguage(language) ? "en" : language;
}

/** The first of the browser's preferred languages the app speaks ("de-AT" is German), else English. */
export function matchBrowserLanguage(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLocale(base)) return base;
  }
  return "en";
}

// The language picker (decision 0155): the interface switches at once; a signed-in player's choice is also kept
// on the account (so their other devices and the mails follow it). The picker lists each language in itself.
import { LOCALES, type Locale } from "@storyverse/contract/accounts";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/i18n";
import { isLocale, LANGUAGE_NAMES } from "../../i18n/languages";
import { useAuth } from "../auth";
import { saveLanguage } from "./save-language";

export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation("common");
  const { isAuthenticated } = useAuth();
  const id = useId();
  const value: Locale = isLocale(i18n.language) ? i18n.language : "en";

  const choose = async (locale: Locale) => {
    await setLanguage(locale);
    // The interface has already switched; an account that cannot be reached keeps this browser's choice.
    if (isAuthenticated) await saveLanguage(locale).catch(() => undefined);
  };

  return (
    <div className={compact ? "flex items-center gap-2" : "flex flex-col gap-1.5"}>
      <label htmlFor={id} className={compact ? "sr-only" : "text-sm font-semibold text-ink"}>
        {t("language.label")}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => void choose(event.target.value as Locale)}
        className="h-10 rounded-xl border border-line bg-surface px-3 text-sm text-ink transition duration-200 hover:border-accent-400 focus-visible:outline-2 focus-visible:outline-accent-500"
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LANGUAGE_NAMES[locale]}
          </option>
        ))}
      </select>
      {compact ? null : <p className="text-xs text-ink-muted">{t("language.hint")}</p>}
    </div>
  );
}

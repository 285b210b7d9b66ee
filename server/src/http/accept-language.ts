// The reader's language from Accept-Language (decision 0155), for the few pages the server writes itself: the
// first of the listed languages, by weight, that the app speaks; English otherwise.
import { LOCALES, type Locale } from "@storyverse/contract/accounts";

export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const ranked = (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1",
      );
      return { base: tag.toLowerCase().split("-")[0] ?? "", q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => (LOCALES as readonly string[]).includes(entry.base));
  return (found?.base as Locale | undefined) ?? "en";
}

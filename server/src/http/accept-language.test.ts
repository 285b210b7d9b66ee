import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage } from "./accept-language";

describe("the reader's language", () => {
  it("takes the first language the app speaks, by weight", () => {
    expect(localeFromAcceptLanguage("de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(localeFromAcceptLanguage("fr-FR, es;q=0.7, en;q=0.5")).toBe("es");
    expect(localeFromAcceptLanguage("en;q=0.4, es;q=0.9")).toBe("es");
  });

  it("falls back to English for none, junk or only unknown languages", () => {
    expect(localeFromAcceptLanguage(undefined)).toBe("en");
    expect(localeFromAcceptLanguage(";;q=abc,,")).toBe("en");
    expect(localeFromAcceptLanguage("fr, ja;q=0.5, de;q=0")).toBe("en");
  });
});

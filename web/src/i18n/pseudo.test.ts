// The pseudo-languages make an untranslated string and a clipped layout visible: every letter is accented, the
// text is longer and fenced, and the markup of a <Trans> string is left whole.
import { describe, expect, it } from "vitest";
import { i18n, setLanguage } from "./i18n";
import { pseudoLocalize } from "./pseudo";

describe("the pseudo-language", () => {
  it("accents every letter, pads the text by about 40% and fences it", () => {
    const out = pseudoLocalize("Send message");
    expect(out).toMatch(/^⟦Šéñð ɱéššáĝé ·{5}⟧$/);
    expect(out).not.toMatch(/[A-Za-z]/);
  });

  it("keeps markup for <Trans> and leaves an empty string empty", () => {
    expect(pseudoLocalize("Press <kbd>Enter</kbd> to send")).toContain("<kbd>Éñţéŕ</kbd>");
    expect(pseudoLocalize("")).toBe("");
  });

  it("runs through every translated string, after values are put in", async () => {
    await setLanguage("en-XA");
    expect(i18n.t("common:credits.amount", { count: 3 })).toBe("⟦3 çŕéðîţš ····⟧");
    expect(document.documentElement.lang).toBe("en-XA");
    expect(document.documentElement.dir).toBe("ltr");
    await setLanguage("ar-XB");
    expect(document.documentElement.dir).toBe("rtl");
    await setLanguage("en");
    expect(document.documentElement.dir).toBe("ltr");
  });
});

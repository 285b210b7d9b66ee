import { describe, expect, it } from "vitest";
import { setLanguage } from "../i18n/i18n";
import { costLabel, creditLabel, formatBalance, visibleCostLabel } from "./credits";

describe("cost labels", () => {
  it("says 'credit' for exactly 1 and 'credits' otherwise, decimals kept", () => {
    expect(costLabel(1)).toBe("1 credit");
    expect(costLabel(0.5)).toBe("0.5 credits");
    expect(costLabel(1.5)).toBe("1.5 credits");
    expect(costLabel(3)).toBe("3 credits");
    expect(costLabel(6)).toBe("6 credits");
    expect(costLabel(0)).toBe("0 credits");
    expect(costLabel(275)).toBe("275 credits");
    expect(creditLabel(1)).toBe("credit");
    expect(creditLabel(-1)).toBe("credit");
    expect(creditLabel(2)).toBe("credits");
  });

  it("is hidden for unlimited users", () => {
    expect(visibleCostLabel(1.5, true)).toBeNull();
    expect(visibleCostLabel(1.5, false)).toBe("1.5 credits");
  });
});

describe("formatBalance", () => {
  it("shows infinity for -1 (unlimited)", () => {
    expect(formatBalance(-1)).toBe("∞");
  });

  it("keeps one decimal and groups thousands", () => {
    expect(formatBalance(14.5)).toBe("14.5");
    expect(formatBalance(15)).toBe("15");
    expect(formatBalance(1290)).toBe("1,290");
  });
});

describe("credits in another language", () => {
  it("formats amounts and balances the German or Spanish way, with their plurals", async () => {
    await setLanguage("de");
    expect(costLabel(1)).toBe("1 Credit");
    expect(costLabel(1.5)).toBe("1,5 Credits");
    expect(formatBalance(1290)).toBe("1.290");
    await setLanguage("es");
    expect(costLabel(1)).toBe("1 crédito");
    expect(costLabel(0.5)).toBe("0,5 créditos");
    expect(creditLabel(2)).toBe("créditos");
  });
});

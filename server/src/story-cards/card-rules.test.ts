// The card rules every way in shares (the card editor, card and lorebook imports, restores): cut to fit with
// one note, triggers cleaned and fitted, a name freed as "Mara (2)".
import type { ImportNote } from "@storyverse/contract/interop";
import { CARD_NAME_MAX_LENGTH, CARD_TRIGGERS_MAX } from "@storyverse/contract/story-cards";
import { describe, expect, it } from "vitest";
import { cleanTriggers, cutToFit, fitTriggers, freeName, nameKey, renamedNote } from "./card-rules";

describe("cutToFit", () => {
  it("keeps a text within its limit as it is, with no note", () => {
    const notes: ImportNote[] = [];
    expect(cutToFit("abc ", 4, "Memory", notes)).toBe("abc ");
    expect(notes).toEqual([]);
  });

  it("cuts by characters, never inside a surrogate pair, leaves no space at the cut, and says so once", () => {
    const notes: ImportNote[] = [];
    expect(cutToFit("ab😀😀", 3, "x", notes)).toBe("ab😀");
    expect(cutToFit("one two three", 8, "Memory", notes)).toBe("one two");
    expect(notes).toEqual([
      { name: "x", reason: "cut from 4 to 3 characters to fit the app's limit" },
      { name: "Memory", reason: "cut from 13 to 8 characters to fit the app's limit" },
    ]);
  });
});

describe("cleanTriggers", () => {
  it("trims, composes (NFC), drops empties and keeps each trigger once whatever its case, in order", () => {
    const decomposed = "Zoe\u0308";
    expect(cleanTriggers([" Mara ", "mara", "", "  ", "MARA", decomposed, "Zoë", "/dragon(s)?/i"])).toEqual([
      "Mara",
      "Zoë",
      "/dragon(s)?/i",
    ]);
  });
});

describe("fitTriggers", () => {
  it("leaves out a trigger too long and a pattern the app refuses, each with a note, and keeps the rest", () => {
    const notes: ImportNote[] = [];
    const long = "k".repeat(41);
    expect(
      fitTriggers(["tower", "TOWER", long, "/(a+)+$/", "/x/g", "/dragon(s)?/i"], 'card "A"', notes),
    ).toEqual(["tower", "/dragon(s)?/i"]);
    expect(notes).toEqual([
      { name: 'card "A"', reason: `left out a trigger: "${long}" is longer than 40 characters` },
      {
        name: 'card "A"',
        reason: expect.stringMatching(/^left out a trigger: "\/\(a\+\)\+\$\/" nests repeats/),
      },
      { name: 'card "A"', reason: expect.stringMatching(/^left out a trigger: "\/x\/g" has flags/) },
    ]);
  });

  it("keeps a 40-character trigger of emoji (counted as characters, not UTF-16 units)", () => {
    const notes: ImportNote[] = [];
    const emoji = "🐉".repeat(40);
    expect(fitTriggers([emoji], "x", notes)).toEqual([emoji]);
    expect(notes).toEqual([]);
  });

  it("keeps the first CARD_TRIGGERS_MAX, counted after duplicates and refusals, and says how many there were", () => {
    const notes: ImportNote[] = [];
    const keys = ["a1", "A1", "/(b+)+/", ...Array.from({ length: 12 }, (_, i) => `k${i}`)];
    const kept = fitTriggers(keys, "x", notes);
    expect(kept).toEqual(["a1", ...Array.from({ length: CARD_TRIGGERS_MAX - 1 }, (_, i) => `k${i}`)]);
    expect(notes.at(-1)).toEqual({ name: "x", reason: "kept the first 10 of its 13 triggers" });
  });
});

describe("freeName", () => {
  it("keeps a free name, then numbers clashes (2), (3)... case-insensitively, and takes what it gives", () => {
    const taken = new Set(["mara", "mara (2)"].map(nameKey));
    expect(freeName("Ivo", taken)).toBe("Ivo");
    expect(freeName("  MARA ", taken)).toBe("MARA (3)");
    expect(freeName("mara", taken)).toBe("mara (4)");
    expect(freeName("ivo", taken)).toBe("ivo (2)");
    expect(taken).toEqual(new Set(["mara", "mara (2)", "ivo", "mara (3)", "mara (4)", "ivo (2)"]));
  });

  it("cuts a long name so the number still fits the limit, without a space before it", () => {
    const long = `${"a".repeat(CARD_NAME_MAX_LENGTH - 5)} bcde`;
    const taken = new Set([nameKey(long)]);
    const freed = freeName(long, taken);
    expect(Array.from(freed)).toHaveLength(CARD_NAME_MAX_LENGTH - 1);
    expect(freed).toBe(`${"a".repeat(CARD_NAME_MAX_LENGTH - 5)} (2)`);
  });

  it("composes names (NFC) before comparing, and names an empty one", () => {
    const taken = new Set([nameKey("Zoë")]);
    expect(freeName("Zoe\u0308", taken)).toBe("Zoë (2)");
    expect(freeName("   ", taken)).toBe("Unnamed");
  });

  it("says what a card was renamed to", () => {
    expect(renamedNote('Card "mara"', "mara (2)")).toEqual({
      name: 'Card "mara"',
      reason: 'renamed "mara (2)": another card has that name',
    });
  });
});

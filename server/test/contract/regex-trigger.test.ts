// The one `/pattern/flags` trigger syntax (contract/src/story-cards.ts), which the server (activation,
// imports, exports, living lore) and the web (the trigger input) all ask: what counts as a pattern,
// and which patterns a card may keep.
import { isRegexTrigger, regexTrigger, regexTriggerProblem } from "@storyverse/contract/story-cards";
import { describe, expect, it } from "vitest";

describe("regexTrigger", () => {
  it("reads a pattern and its flags, trimmed, a slash inside the pattern included", () => {
    expect(regexTrigger("/dragon(s)?/i")).toEqual({ source: "dragon(s)?", flags: "i" });
    expect(regexTrigger("  /dragon/  ")).toEqual({ source: "dragon", flags: "" });
    expect(regexTrigger("/a/b/")).toEqual({ source: "a/b", flags: "" });
    expect(regexTrigger("/one\ntwo/s")).toEqual({ source: "one\ntwo", flags: "s" });
  });

  it("takes a word that is no whole pattern for a plain word", () => {
    for (const word of ["dragon", "/", "//", "/dragon", "dragon/i", "/Dragon/I", "/x/1", "a /x/ b"]) {
      expect(regexTrigger(word), word).toBeNull();
      expect(isRegexTrigger(word), word).toBe(false);
    }
    expect(isRegexTrigger("/dragon(s)?/i")).toBe(true);
  });
});

describe("regexTriggerProblem", () => {
  it("accepts plain words and patterns with the flags i, m, s and u, each once", () => {
    for (const ok of ["dragon", "/dragon(s)?/i", "/^the (old )?keep$/imsu", "/[(a+)+]/", "/(ab)+c/"]) {
      expect(regexTriggerProblem(ok), ok).toBeNull();
    }
  });

  it("refuses other or repeated flags, a pattern that is not one, and one that can take too long", () => {
    expect(regexTriggerProblem("/x/g")).toMatch(/has flags that cannot be used/);
    expect(regexTriggerProblem("/x/ii")).toMatch(/has flags that cannot be used/);
    expect(regexTriggerProblem("/[/")).toMatch(/is not a valid regular expression/);
    expect(regexTriggerProblem("/(a+)+$/")).toMatch(/nests repeats or refers back/);
    expect(regexTriggerProblem("/(a)\\1/")).toMatch(/nests repeats or refers back/);
    expect(regexTriggerProblem("/(?<n>a)\\k<n>/")).toMatch(/nests repeats or refers back/);
  });
});

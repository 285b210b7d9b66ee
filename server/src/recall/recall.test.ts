import { describe, expect, it } from "vitest";
import { asWritten, RECALL_SEARCH_WORDS, searchWords } from "./recall";

describe("the words a turn searches its story for", () => {
  it("leaves out the commonest words and puts names first", () => {
    expect(searchWords("Where did Zephyrine go after the storm?")).toEqual({
      words: "Zephyrine storm",
      names: "Zephyrine",
    });
    expect(searchWords("What was the name of the tavern keeper?")).toEqual({
      words: "tavern keeper name",
      names: "",
    });
  });

  it("keeps at most a few, names and then the longest, each once", () => {
    const { words, names } = searchWords(
      "I ask Quillfeather about the map, the map of the marshes, the lantern, the ferryman and the heron's nest",
    );
    expect(names).toBe("Quillfeather");
    expect(words.split(" ")).toHaveLength(RECALL_SEARCH_WORDS);
    expect(words.split(" ")[0]).toBe("Quillfeather");
    expect(words).toContain("ferryman");
    expect(words.match(/\bmap\b/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it("searches the words as they were when only common words are left", () => {
    expect(searchWords("What did she say?")).toEqual({ words: "What did she say?", names: "" });
  });
});

describe("why an exchange was recalled, in the player's words", () => {
  it("keeps each word as written, once whatever its case, without punctuation, sorted", () => {
    expect(asWritten(["Zephyrine", "storm", "Storm", "somewhere?", "“whatever”"])).toEqual([
      "somewhere",
      "storm",
      "whatever",
      "Zephyrine",
    ]);
    expect(asWritten([])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { takeSentences } from "./live-sentences";

describe("takeSentences", () => {
  it("gives each sentence once the next one has begun, and keeps the unfinished rest for later", () => {
    const text = "The gate creaks. Beyond it the flats shine! Is anyone";
    const first = takeSentences(text, 0, false);
    expect(first.sentences).toEqual(["The gate creaks.", "Beyond it the flats shine!"]);
    const more = `${text} there? A gull`;
    const second = takeSentences(more, first.next, false);
    expect(second.sentences).toEqual(["Is anyone there?"]);
    expect(takeSentences(more, second.next, true).sentences).toEqual(["A gull"]);
  });

  it("waits for the words after a full stop before calling it an end", () => {
    expect(takeSentences("The gate creaks. ", 0, false)).toEqual({ sentences: [], next: 0 });
    expect(takeSentences("The gate creaks.", 0, true).sentences).toEqual(["The gate creaks."]);
  });

  it("keeps a quote with its speech tag, and a title with its name", () => {
    const text = '"Run!" she cries, and Dr. Vell runs. "Now!" Another line. ';
    expect(takeSentences(text, 0, false).sentences).toEqual([
      '"Run!" she cries, and Dr. Vell runs.',
      '"Now!"',
    ]);
  });

  it("ends a sentence at a line break, and skips lines without words", () => {
    const text = "A storm comes\n\n***\n\n## The Tower\nIt is tall";
    expect(takeSentences(text, 0, false).sentences).toEqual(["A storm comes", "## The Tower"]);
    expect(takeSentences(text, 0, true).sentences).toEqual(["A storm comes", "## The Tower", "It is tall"]);
  });

  it("ends at a full stop followed by a line break", () => {
    expect(takeSentences("It ends.\nThen", 0, false).sentences).toEqual(["It ends."]);
  });
});

// The one sentence splitter (contract/src/sentences.ts, decision 0133): live reading, Read aloud's narration and
// the read-along book mark the same sentences, so its hard cases are pinned here once.
import { sentenceSpans, splitSentences, takeSentences } from "@storyverse/contract/sentences";
import { describe, expect, it } from "vitest";
import { narratedXhtml } from "../exports/epub-read-along";
import { splitForProvider } from "./parts";

describe("splitSentences", () => {
  it("keeps a title's and an initial's full stop inside the sentence", () => {
    expect(splitSentences("Mr. Vell and Dr. Okafor met J. R. Hale at St. Ives. They argued.")).toEqual([
      "Mr. Vell and Dr. Okafor met J. R. Hale at St. Ives.",
      "They argued.",
    ]);
    // "I." is a word, not an initial.
    expect(splitSentences("So did I. Then we left.")).toEqual(["So did I.", "Then we left."]);
  });

  it("reads an ellipsis as an end only when a new sentence begins after it", () => {
    expect(splitSentences("He waited... Then the door opened.")).toEqual([
      "He waited...",
      "Then the door opened.",
    ]);
    expect(splitSentences("Wait... what was that? Nothing…")).toEqual(["Wait... what was that?", "Nothing…"]);
    expect(splitSentences("It went dark… Silence.")).toEqual(["It went dark…", "Silence."]);
  });

  it("keeps a quote with its speech tag, and ends after a closing quote", () => {
    expect(splitSentences('"Run!" she cried. He said, "Go." Then he left. "Now?" Yes.')).toEqual([
      '"Run!" she cried.',
      'He said, "Go."',
      "Then he left.",
      '"Now?"',
      "Yes.",
    ]);
    expect(splitSentences("“Halt,” said Brannoc. ‘Why?’ Because.")).toEqual([
      "“Halt,” said Brannoc.",
      "‘Why?’",
      "Because.",
    ]);
  });

  it("takes ?! and !!! as one end", () => {
    expect(splitSentences("What?! No!!! Fine?")).toEqual(["What?!", "No!!!", "Fine?"]);
  });

  it("keeps Markdown emphasis with its sentence", () => {
    expect(splitSentences("*Run.* She ran. **Never again!** The end _came_. __Quiet__ now.")).toEqual([
      "*Run.*",
      "She ran.",
      "**Never again!**",
      "The end _came_.",
      "__Quiet__ now.",
    ]);
  });

  it("does not end a sentence inside a number or an abbreviation without a space", () => {
    expect(splitSentences("It cost 3.5 crowns, e.g. more than 1,000.50 pence. In 1850. Then more.")).toEqual([
      "It cost 3.5 crowns, e.g. more than 1,000.50 pence.",
      "In 1850.",
      "Then more.",
    ]);
  });

  it("ends a sentence at a line break and leaves out lines without words", () => {
    expect(splitSentences("A storm comes\n\n***\n\n## The Tower\nIt is tall.\n- a list item")).toEqual([
      "A storm comes",
      "## The Tower",
      "It is tall.",
      "- a list item",
    ]);
  });

  it("gives spans that slice the text back to each sentence", () => {
    const text = '  "Run!" she said.  Dr. Vell ran.\nGone';
    const { spans, next } = sentenceSpans(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      '"Run!" she said.',
      "Dr. Vell ran.",
      "Gone",
    ]);
    expect(next).toBe(text.length);
  });
});

describe("takeSentences (live reading, the text still streaming)", () => {
  it("gives each sentence once the next one has begun, and keeps the unfinished rest for later", () => {
    const text = "The gate creaks. Beyond it the flats shine! Is anyone";
    const first = takeSentences(text, 0, false);
    expect(first.sentences).toEqual(["The gate creaks.", "Beyond it the flats shine!"]);
    const more = `${text} there? A gull`;
    const second = takeSentences(more, first.next, false);
    expect(second.sentences).toEqual(["Is anyone there?"]);
    expect(takeSentences(more, second.next, true).sentences).toEqual(["A gull"]);
  });

  it("waits for the words after an end before calling it one", () => {
    expect(takeSentences("The gate creaks. ", 0, false)).toEqual({ sentences: [], next: 0 });
    expect(takeSentences("Dr. ", 0, false)).toEqual({ sentences: [], next: 0 });
    expect(takeSentences("The gate creaks.", 0, true).sentences).toEqual(["The gate creaks."]);
    expect(takeSentences("It ends.\nThen", 0, false).sentences).toEqual(["It ends."]);
  });

  it("marks the same sentences streamed word by word as in the whole text", () => {
    const text =
      '"Run!" she cries, and Dr. Vell runs... Then the *storm* breaks?! It costs 3.5 crowns.\n## Next\n“Why?” Because.';
    const streamed: string[] = [];
    let next = 0;
    for (let end = 1; end <= text.length; end += 1) {
      const taken = takeSentences(text.slice(0, end), next, false);
      streamed.push(...taken.sentences);
      next = taken.next;
    }
    streamed.push(...takeSentences(text, next, true).sentences);
    expect(streamed).toEqual(splitSentences(text));
    expect(streamed).toHaveLength(6);
  });
});

describe("every reader uses it", () => {
  const text = 'Dr. Vell waited... Then it came. "Run!" she said. It cost 3.5 crowns?! *Gone.* Over.';

  it("the read-along book's sentences are the splitter's", () => {
    const plain = 'Dr. Vell waited... Then it came. "Run!" she said. It cost 3.5 crowns?! Gone.\nOver.';
    const { xhtml } = narratedXhtml(plain, { narratorVoice: "narrator", cast: [] }, () => "s");
    const spans = [...xhtml.matchAll(/<span id="s">(.*?)<\/span>/g)].map((m) =>
      m[1]!.replaceAll("&quot;", '"'),
    );
    expect(spans).toEqual(splitSentences(plain));
    expect(spans).toHaveLength(6);
  });

  it("the narration's pieces end at the splitter's sentence ends", () => {
    const sentences = splitSentences(text);
    for (const max of [20, 40, 80, 400]) {
      const pieces = splitForProvider(text, max);
      expect(pieces.join(" ")).toBe(sentences.join(" "));
      // Each piece is whole sentences (or, one longer than the provider takes, words of one).
      for (const piece of pieces) {
        if (piece.length > max) throw new Error(`piece over ${max}: ${piece}`);
      }
    }
    expect(splitForProvider(text, 400)).toEqual([sentences.join(" ")]);
    expect(splitForProvider(text, 40)[0]).toBe("Dr. Vell waited... Then it came.");
  });
});

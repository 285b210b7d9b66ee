// Plain words from Markdown (contract/src/plain-text.ts): the one rule behind the books, the film's captions,
// Read aloud and a shared page's preview. The words are those the app shows when it renders the Markdown.
import { markdownToPlain, plainPreview } from "@storyverse/contract/plain-text";
import { describe, expect, it } from "vitest";

describe("markdownToPlain", () => {
  it("keeps the words of emphasis, code, links, pictures, headings and quotes, and their lines", () => {
    const markdown = [
      "# The Keep",
      "",
      "> Mara **runs**, __fast__, *very* _very_ fast past `the gate`.",
      "See [the map](https://example.com/map) and ![a red door](/media/door.png).",
    ].join("\r\n");
    expect(markdownToPlain(markdown)).toBe(
      "The Keep\n\nMara runs, fast, very very fast past the gate.\nSee the map and a red door.",
    );
  });

  it("leaves what the app shows as written: underscores inside words, lone marks, strike-through, 5 * 3", () => {
    const text = "snake_case and my_var_name; 5 * 3 = 15; a lone _ and ~~struck~~; C# > Java";
    expect(markdownToPlain(text)).toBe(text);
  });

  it("removes control characters (never words, and a book's XML forbids them) and trims the ends", () => {
    expect(markdownToPlain("  \u0007Bell\u0000 rings\u001F  ")).toBe("Bell rings");
  });
});

describe("plainPreview", () => {
  it("folds the words onto one line and keeps a short text whole", () => {
    expect(plainPreview("## A *dragon* kingdom\n\n\nwhere  the _sea_ burns")).toBe(
      "A dragon kingdom where the sea burns",
    );
  });

  it("cuts a long text to the limit with an ellipsis, never inside a surrogate pair nor after a space", () => {
    expect(plainPreview("word ".repeat(100), 11)).toBe("word word…");
    const dragons = "🐉".repeat(20);
    const cut = plainPreview(dragons, 10);
    expect(cut).toBe(`${"🐉".repeat(9)}…`);
    expect(Array.from(cut)).toHaveLength(10);
  });
});

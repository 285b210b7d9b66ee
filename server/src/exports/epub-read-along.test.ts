import { describe, expect, it } from "vitest";
import { clockValue, narratedXhtml, smilDocument } from "./epub-read-along";

const counter = () => {
  let n = 0;
  return () => {
    n += 1;
    return `s-${n}`;
  };
};

describe("the read-along book's text", () => {
  const voices = {
    narratorVoice: "narrator",
    cast: [{ name: "Brannoc", aliases: ["the smith"], voice: "deep" }],
  };

  it("puts each sentence in its own span and reads a quoted line in its speaker's voice", () => {
    const { xhtml, sentences } = narratedXhtml(
      'Brannoc looks up. "Who goes there?" he growls.\n\nThe *forge* hisses & dies.',
      voices,
      counter(),
    );
    expect(xhtml).toBe(
      '<p><span id="s-1">Brannoc looks up.</span> <span id="s-2">&quot;Who goes there?&quot; he growls.</span></p>\n' +
        '<p><span id="s-3">The forge hisses &amp; dies.</span></p>',
    );
    expect(sentences.map((sentence) => sentence.pieces)).toEqual([
      [{ speaker: "Narrator", voice: "narrator", text: "Brannoc looks up." }],
      // One sentence with its speech tag, as live reading marks it (the one splitter, decision 0133); named
      // nearest before the quote: Brannoc says it, without the quote marks.
      [
        { speaker: "Brannoc", voice: "deep", text: "Who goes there?" },
        { speaker: "Narrator", voice: "narrator", text: "he growls." },
      ],
      [{ speaker: "Narrator", voice: "narrator", text: "The forge hisses & dies." }],
    ]);
  });

  it("reads a character's own message in that character's voice, and a quote of another in theirs (decision 0154)", () => {
    const cast = [...voices.cast, { name: "Mira", aliases: [], voice: "bright" }];
    const { sentences } = narratedXhtml(
      'I hold up the lamp. "Who goes there?" Brannoc growls.',
      { narratorVoice: "narrator", cast },
      counter(),
      "Mira",
    );
    expect(sentences.flatMap((sentence) => sentence.pieces)).toEqual([
      { speaker: "Mira", voice: "bright", text: "I hold up the lamp." },
      { speaker: "Brannoc", voice: "deep", text: "Who goes there?" },
      { speaker: "Mira", voice: "bright", text: "Brannoc growls." },
    ]);
  });

  it("splits a sentence that holds a quote between the voices, and leaves unspoken marks out of the spans", () => {
    const { xhtml, sentences } = narratedXhtml('The smith said "Run" and left.\n…', voices, counter());
    expect(xhtml).toBe('<p><span id="s-1">The smith said &quot;Run&quot; and left.</span> …</p>');
    expect(sentences[0]?.pieces.map((piece) => [piece.voice, piece.text])).toEqual([
      ["narrator", "The smith said"],
      ["deep", "Run"],
      ["narrator", "and left."],
    ]);
  });

  it("writes SMIL clock values and pairs each span with its clip", () => {
    expect(clockValue(3_723_045)).toBe("1:02:03.045");
    const smil = smilDocument(
      "chapter-001.xhtml#chapter-001",
      [{ id: "s-1", beginMs: 0, endMs: 1250 }],
      "audio/a.m4a",
    );
    expect(smil).toContain('epub:textref="chapter-001.xhtml#chapter-001"');
    expect(smil).toContain(
      '<text src="chapter-001.xhtml#s-1"/><audio src="audio/a.m4a" clipBegin="0:00:00.000" clipEnd="0:00:01.250"/>',
    );
  });
});

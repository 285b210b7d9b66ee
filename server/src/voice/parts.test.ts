// Who reads which words: the narrator the narration, each character its own quoted lines.
import { describe, expect, it } from "vitest";
import { NARRATOR, speechParts, splitForProvider, voiceForName } from "./parts";

const brannoc = { name: "Brannoc", aliases: ["the keeper"], voice: "low" };
const ilse = { name: "Ilse", aliases: [], voice: "bright" };

describe("speech parts", () => {
  it("reads narration in the narrator's voice and a quote in the voice of the character named before it", () => {
    const parts = speechParts('Brannoc lifts his lantern. "Who goes there?" The wind answers.', "calm", [
      brannoc,
      ilse,
    ]);
    expect(parts).toEqual([
      { speaker: NARRATOR, voice: "calm", text: "Brannoc lifts his lantern." },
      { speaker: "Brannoc", voice: "low", text: "Who goes there?" },
      { speaker: NARRATOR, voice: "calm", text: "The wind answers." },
    ]);
  });

  it("prefers the speech tag after a quote to a name further back, and knows a character by a trigger word", () => {
    const parts = speechParts(
      "Brannoc and Ilse reach the gate. “Open it,” says Ilse. “Never,” growls the keeper.",
      "calm",
      [brannoc, ilse],
    );
    expect(parts.filter((part) => part.speaker !== NARRATOR)).toEqual([
      { speaker: "Ilse", voice: "bright", text: "Open it," },
      { speaker: "Brannoc", voice: "low", text: "Never," },
    ]);
  });

  it("leaves a quote nobody is named for with the narrator, and joins it to the narration around it", () => {
    expect(speechParts('The sign reads "Closed". Rain falls.', "calm", [ilse])).toEqual([
      { speaker: NARRATOR, voice: "calm", text: "The sign reads Closed. Rain falls." },
    ]);
  });

  it("has nothing to read in a message of punctuation only", () => {
    expect(speechParts("* * *", "calm", [])).toEqual([]);
  });
});

describe("a character's voice when its card names none", () => {
  const offered = ["calm", "low", "bright", "rasp"];

  it("is the same for the same name, and never the narrator's while another voice exists", () => {
    const voice = voiceForName("Brannoc", offered, "calm");
    expect(voiceForName("brannoc ", offered, "calm")).toBe(voice);
    for (const name of ["Ilse", "Mara", "Tovin", "Grey Wen", "Oskar"]) {
      expect(voiceForName(name, offered, "calm")).not.toBe("calm");
    }
  });

  it("gives different characters different voices", () => {
    const names = ["Ilse", "Mara", "Tovin", "Grey Wen", "Oskar", "Brannoc", "Lio", "Sefa"];
    expect(new Set(names.map((name) => voiceForName(name, offered, "calm"))).size).toBeGreaterThan(1);
  });
});

describe("text longer than the provider takes", () => {
  it("is split at sentence ends, every piece within the limit, nothing lost", () => {
    const text = "The tide turns. Gulls cry over the harbour! Is the ship late? It is.";
    const pieces = splitForProvider(text, 40);
    expect(pieces.every((piece) => piece.length <= 40)).toBe(true);
    expect(pieces[0]).toBe("The tide turns.");
    expect(pieces.join(" ")).toBe(text);
  });

  it("splits a sentence longer than the limit at words", () => {
    const pieces = splitForProvider("word ".repeat(30).trim(), 24);
    expect(pieces.every((piece) => piece.length <= 24)).toBe(true);
    expect(pieces.join(" ").split(" ")).toHaveLength(30);
  });
});

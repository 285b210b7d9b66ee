// The offline narrator playing a character (decision 0154): a turn request with `character` facts is answered
// by that character in the first person (an action in italics naming it, its words in quotes, a phrase of its
// card), the same request always the same words, and a request without them is still the second-person narrator.
import { describe, expect, it } from "vitest";
import type { TextRequest } from "../types";
import { narrate } from "./narrator";

const seraphina = {
  name: "Seraphina",
  description:
    "Seraphina is the guardian of the Eldoria forest. She heals the wounded travellers who stray there.",
  greeting: "*Seraphina kneels beside you.* You are safe now, in my glade.",
  playerName: "Arin",
};

const turn = (prompt: string, character?: typeof seraphina): TextRequest => ({
  purpose: "turn",
  story: { title: "Eldoria", context: "An old forest." },
  cards: [],
  recalled: [],
  ...(character ? { character } : {}),
  messages: [
    { role: "system", content: "Any instructions at all." },
    { role: "user", content: prompt },
  ],
});

describe("the offline character", () => {
  it("answers in the first person as the card, in its manner", () => {
    const answer = narrate(turn('You say "Who are you?"', seraphina));
    expect(answer).toMatch(/^\*Seraphina [^*]+\.\* "/);
    expect(answer).toMatch(/"[^"]*\b(?:I|my|me)\b[^"]*"/);
    expect(answer).toMatch(/Eldoria|guardian|forest|wounded travellers|glade/i);
    expect(answer).not.toMatch(/^You /m);
  });

  it("is deterministic, and a question, words and a deed are answered differently", () => {
    const asked = narrate(turn("Where is the chapel?", seraphina));
    expect(narrate(turn("Where is the chapel?", seraphina))).toBe(asked);
    expect(narrate(turn("I draw my sword", seraphina))).not.toBe(asked);
  });

  it("leaves the narrator's turns to the narrator", () => {
    const told = narrate(turn("I draw my sword", undefined));
    expect(told).not.toMatch(/^\*Seraphina/);
  });
});

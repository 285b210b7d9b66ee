// The narrator's context assembly: order, priorities under a tight budget, and a real tokenizer's counts.
import { describe, expect, it } from "vitest";
import {
  AUTHORS_NOTE_HEADING,
  assembleContext,
  CARDS_HEADING,
  cardLine,
  countTextTokens,
  MEMORY_HEADING,
  SUMMARY_HEADING,
} from "./narrator-context";

const history = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `Message ${i + 1}: ${"the lantern sways in the wind ".repeat(5)}`,
  }));

const base = {
  instructions: "You are the narrator.",
  memory: "Mara is a blind cartographer.",
  history: history(6),
  authorsNote: "Tone: gloomy, slow.",
  prompt: "I open the map",
  budget: 8000,
};

describe("assembleContext", () => {
  it("puts instructions and Memory first, the history in order, the Author's Note just before the player's message", () => {
    const context = assembleContext(base);
    expect(context.messages[0]).toEqual({
      role: "system",
      content: `You are the narrator.\n\n${MEMORY_HEADING}\nMara is a blind cartographer.`,
    });
    expect(context.messages.slice(1, 7)).toEqual(base.history);
    expect(context.messages.at(-2)).toEqual({
      role: "system",
      content: `${AUTHORS_NOTE_HEADING}\nTone: gloomy, slow.`,
    });
    expect(context.messages.at(-1)).toEqual({ role: "user", content: "I open the map" });
    expect(context.droppedMessages).toBe(0);
    expect(context.parts.map((p) => p.part)).toEqual([
      "instructions",
      "memory",
      "cards",
      "summary",
      "history",
      "authors_note",
      "prompt",
    ]);
    expect(context.totalTokens).toBe(context.parts.reduce((sum, p) => sum + p.tokens, 0));
    expect(context.totalTokens).toBeLessThanOrEqual(8000);
  });

  it("leaves out an empty Memory and Author's Note entirely", () => {
    const context = assembleContext({ ...base, memory: "  ", authorsNote: "" });
    expect(context.messages[0]!.content).toBe("You are the narrator.");
    expect(context.messages.filter((m) => m.role === "system")).toHaveLength(1);
    expect(context.parts.find((p) => p.part === "memory")!.tokens).toBe(0);
  });

  it("drops the oldest messages first when the budget is tight, then the Author's Note, but keeps the Memory", () => {
    const full = assembleContext(base);
    const historyTokens = full.parts.find((p) => p.part === "history")!.tokens;
    const perMessage = historyTokens / 6;
    // Room for everything but two messages and one token: two messages go, and then the note does not fit.
    const tight = assembleContext({ ...base, budget: full.totalTokens - 2 * perMessage - 1 });
    expect(tight.droppedMessages).toBe(2);
    expect(tight.messages.slice(1, 5)).toEqual(base.history.slice(2));
    expect(tight.messages[0]!.content).toContain("Mara is a blind cartographer.");
    expect(tight.messages.some((m) => m.content.startsWith(AUTHORS_NOTE_HEADING))).toBe(false);
    // One message less of room is all the note needed: with it, the note comes back.
    const roomy = assembleContext({ ...base, budget: full.totalTokens - 2 * perMessage });
    expect(roomy.droppedMessages).toBe(2);
    expect(roomy.messages.at(-2)!.content).toContain("Tone: gloomy, slow.");
    expect(tight.totalTokens).toBeLessThanOrEqual(tight.budget);

    const tiny = assembleContext({ ...base, budget: 40 });
    expect(tiny.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(tiny.droppedMessages).toBe(6);
  });

  it("counts with a real tokenizer, Unicode included", () => {
    expect(countTextTokens("hello world")).toBe(2);
    const emoji = "🐉🏰✨ Ærøskøbing, 東京, Ελληνικά";
    expect(countTextTokens(emoji)).toBeGreaterThan(emoji.split(" ").length);
    const context = assembleContext({ ...base, memory: emoji });
    expect(context.messages[0]!.content).toContain(emoji);
    expect(context.parts.find((p) => p.part === "memory")!.tokens).toBe(
      countTextTokens(`\n\n${MEMORY_HEADING}\n${emoji}`),
    );
  });

  const cards = [
    {
      id: "c1",
      name: "Vell",
      kind: "place",
      description: "A drowned city where a bell rings under the sea.",
    },
    { id: "c2", name: "Mara", kind: "character", description: "A blind cartographer who maps by sound." },
  ];

  it("puts the active cards after the Memory, in the order given, and counts them as their own part", () => {
    const context = assembleContext({ ...base, cards });
    expect(context.messages[0]!.content).toBe(
      `You are the narrator.\n\n${MEMORY_HEADING}\nMara is a blind cartographer.\n\n${CARDS_HEADING}\n` +
        "- Vell (place): A drowned city where a bell rings under the sea.\n" +
        "- Mara (character): A blind cartographer who maps by sound.",
    );
    expect(context.keptCardIds).toEqual(["c1", "c2"]);
    expect(context.parts.find((p) => p.part === "cards")!.tokens).toBe(
      countTextTokens(`\n\n${CARDS_HEADING}`) +
        countTextTokens(`\n${cardLine(cards[0]!)}`) +
        countTextTokens(`\n${cardLine(cards[1]!)}`),
    );
    expect(cardLine({ id: "x", name: "Key", kind: "thing", description: "  " })).toBe("- Key (thing)");
    expect(context.totalTokens).toBe(context.parts.reduce((sum, p) => sum + p.tokens, 0));
  });

  it("keeps cards before recent messages, and the Memory before cards, when the budget is tight", () => {
    const full = assembleContext({ ...base, cards });
    const cardTokens = full.parts.find((p) => p.part === "cards")!.tokens;
    const historyTokens = full.parts.find((p) => p.part === "history")!.tokens;
    // No room for any message: the cards still go, the history and then the note do not.
    const noHistory = assembleContext({ ...base, cards, budget: full.totalTokens - historyTokens - 1 });
    expect(noHistory.keptCardIds).toEqual(["c1", "c2"]);
    expect(noHistory.droppedMessages).toBeGreaterThan(0);
    expect(noHistory.totalTokens).toBeLessThanOrEqual(noHistory.budget);
    // Room for the Memory and the first card only: the most recently mentioned card is the one kept.
    const instructionsAndPrompt = full.parts
      .filter((p) => p.part === "instructions" || p.part === "prompt")
      .reduce((sum, p) => sum + p.tokens, 0);
    const memoryTokens = full.parts.find((p) => p.part === "memory")!.tokens;
    const secondCard = countTextTokens(`\n${cardLine(cards[1]!)}`);
    const oneCard = assembleContext({
      ...base,
      cards,
      budget: instructionsAndPrompt + memoryTokens + cardTokens - secondCard,
    });
    expect(oneCard.keptCardIds).toEqual(["c1"]);
    expect(oneCard.messages[0]!.content).toContain("Mara is a blind cartographer.");
    expect(oneCard.messages[0]!.content).not.toContain("maps by sound");
    expect(oneCard.droppedMessages).toBe(6);
    // Less room than the Memory needs with the cards: the Memory wins.
    const memoryOnly = assembleContext({ ...base, cards, budget: instructionsAndPrompt + memoryTokens });
    expect(memoryOnly.keptCardIds).toEqual([]);
    expect(memoryOnly.messages[0]!.content).toContain(MEMORY_HEADING);
    expect(memoryOnly.messages[0]!.content).not.toContain(CARDS_HEADING);
  });

  it("puts the summary after the Memory and the cards, and keeps it over older messages when space is short", () => {
    const card = { id: "c1", name: "Mara", kind: "character", description: "A blind cartographer." };
    const summary = "You crossed the salt flats and lost the compass.";
    const roomy = assembleContext({ ...base, cards: [card], summary });
    expect(roomy.messages[0]!.content).toBe(
      `You are the narrator.\n\n${MEMORY_HEADING}\nMara is a blind cartographer.\n\n${CARDS_HEADING}\n${cardLine(card)}\n\n${SUMMARY_HEADING}\n${summary}`,
    );
    const summaryPart = roomy.parts.find((part) => part.part === "summary")!;
    expect(summaryPart.tokens).toBe(countTextTokens(`\n\n${SUMMARY_HEADING}\n${summary}`));

    // A budget with room for the summary but not for every message: the oldest messages go, the summary stays.
    const tight = assembleContext({ ...base, cards: [card], summary, budget: roomy.totalTokens - 40 });
    expect(tight.messages[0]!.content).toContain(summary);
    expect(tight.droppedMessages).toBeGreaterThan(0);
    // With no room even for it, the summary is left out before the instructions or the player's message.
    const bare = assembleContext({ ...base, memory: "", summary, history: [], authorsNote: "", budget: 30 });
    expect(bare.messages[0]!.content).toBe("You are the narrator.");
    expect(bare.parts.find((part) => part.part === "summary")!.tokens).toBe(0);
  });
});

// The narrator's context assembly: order, priorities under a tight budget, and a real tokenizer's counts.
import { describe, expect, it } from "vitest";
import {
  AUTHORS_NOTE_HEADING,
  assembleContext,
  CARDS_HEADING,
  CUT_MARK,
  cardLine,
  countTextTokens,
  fitToTokens,
  MEMORY_BUDGET_PERCENT,
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

describe("assembleContext: the lore budget, priority and insertion order", () => {
  /** A card whose line costs about `words` tokens. */
  const card = (id: string, rules: { priority?: number; insertionOrder?: number } = {}, words = 20) => ({
    id,
    name: id,
    kind: "other",
    description: "lantern ".repeat(words).trim(),
    ...rules,
  });
  const cardCost = (c: ReturnType<typeof card>) => countTextTokens(`\n${cardLine(c)}`);
  const heading = countTextTokens(`\n\n${CARDS_HEADING}`);

  it("keeps the cards within the story's share of the budget: the most recently mentioned first at equal priority", () => {
    const cards = [card("A"), card("B"), card("C")];
    const budget = 2000;
    // Room for exactly two cards in the share (the heading costs once).
    const percent = Math.ceil(((heading + cardCost(cards[0]!) * 2) * 100) / budget);
    const share = Math.floor((budget * percent) / 100);
    expect(share).toBeLessThan(heading + cardCost(cards[0]!) * 3);
    const context = assembleContext({ ...base, cards, budget, loreBudgetPercent: percent });
    expect(context.keptCardIds).toEqual(["A", "B"]);
    expect(context.parts.find((p) => p.part === "cards")!.tokens).toBeLessThanOrEqual(share);
    // The rest of the budget still goes to the history: the share caps the cards only.
    expect(context.droppedMessages).toBe(0);
    // Without a share, all three fit the budget.
    expect(assembleContext({ ...base, cards, budget }).keptCardIds).toEqual(["A", "B", "C"]);
  });

  it("leaves out the lower priority first, whatever the recency", () => {
    const cards = [
      card("Recent", { priority: 5 }),
      card("Older", { priority: 50 }),
      card("Oldest", { priority: 10 }),
    ];
    const budget = 2000;
    const percent = Math.ceil(((heading + cardCost(cards[0]!) * 2) * 100) / budget);
    const context = assembleContext({ ...base, cards, budget, loreBudgetPercent: percent });
    expect([...context.keptCardIds].sort()).toEqual(["Older", "Oldest"]);
    expect(context.messages[0]!.content).not.toContain("- Recent (other)");
  });

  it("places the kept cards by insertion order, ties by the most recent mention", () => {
    const cards = [
      card("First mentioned", { insertionOrder: 300 }, 3),
      card("Second", { insertionOrder: 100 }, 3),
      card("Third", { insertionOrder: 100 }, 3),
      card("Fourth", { insertionOrder: 0 }, 3),
    ];
    const context = assembleContext({ ...base, cards, loreBudgetPercent: 50 });
    expect(context.keptCardIds).toEqual(["Fourth", "Second", "Third", "First mentioned"]);
    const system = context.messages[0]!.content;
    expect(system.indexOf("- Fourth")).toBeLessThan(system.indexOf("- Second"));
    expect(system.indexOf("- Third")).toBeLessThan(system.indexOf("- First mentioned"));
  });

  it("with every card at the defaults, keeps and places them as before: by recency", () => {
    const cards = [card("A", { priority: 10, insertionOrder: 100 }), card("B"), card("C")];
    const withRules = assembleContext({ ...base, cards, loreBudgetPercent: 50 });
    const before = assembleContext({
      ...base,
      cards: cards.map(({ id, name, kind, description }) => ({ id, name, kind, description })),
    });
    expect(withRules.messages).toEqual(before.messages);
    expect(withRules.keptCardIds).toEqual(["A", "B", "C"]);
  });

  it("sends the post-history instructions after the Author's Note, just before the player's message, always", () => {
    const context = assembleContext({ ...base, postHistoryInstructions: "  Stay in character.  " });
    expect(context.messages.at(-3)!.content).toContain(AUTHORS_NOTE_HEADING);
    expect(context.messages.at(-2)).toEqual({ role: "system", content: "Stay in character." });
    expect(context.messages.at(-1)).toEqual({ role: "user", content: "I open the map" });
    const part = context.parts.find((p) => p.part === "post_history_instructions")!;
    expect(part.tokens).toBe(countTextTokens("Stay in character.") + 4);
    expect(context.parts.map((p) => p.part).slice(-3)).toEqual([
      "authors_note",
      "post_history_instructions",
      "prompt",
    ]);
    // A budget with no room for the history still sends them (like the instructions).
    const tight = assembleContext({ ...base, postHistoryInstructions: "Stay in character.", budget: 60 });
    expect(tight.messages.at(-2)!.content).toBe("Stay in character.");
    // None: no message and no part.
    expect(assembleContext(base).parts.some((p) => p.part === "post_history_instructions")).toBe(false);
  });
});

describe("assembleContext: the Author's Note depth", () => {
  const note = { role: "system", content: `${AUTHORS_NOTE_HEADING}\nTone: gloomy, slow.` };

  it("at depth 3 puts the note with two history messages and the player's message after it", () => {
    const context = assembleContext({ ...base, authorsNoteDepth: 3, postHistoryInstructions: "Stay brief." });
    expect(context.messages.slice(-5)).toEqual([
      note,
      base.history[4],
      base.history[5],
      { role: "system", content: "Stay brief." },
      { role: "user", content: "I open the map" },
    ]);
    expect(context.messages).toHaveLength(1 + 6 + 1 + 1 + 1);
  });

  it("deeper than the history reaches, puts the note right after the instructions", () => {
    const context = assembleContext({ ...base, authorsNoteDepth: 20 });
    expect(context.messages[1]).toEqual(note);
    expect(context.messages.slice(2, 8)).toEqual(base.history);
  });

  it("at depth 1 (the default) keeps it just before the player's message", () => {
    expect(assembleContext({ ...base, authorsNoteDepth: 1 }).messages).toEqual(
      assembleContext(base).messages,
    );
  });
});

describe("long stored text within the budget (issue #43)", () => {
  const long = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(" ");

  it("fitToTokens keeps a text that fits whole, else its longest beginning that fits, cut at a word and marked", () => {
    expect(fitToTokens("A short line.", 50, countTextTokens)).toEqual({ text: "A short line.", cut: false });
    const fitted = fitToTokens(long, 500, countTextTokens);
    expect(fitted.cut).toBe(true);
    expect(countTextTokens(fitted.text)).toBeLessThanOrEqual(500);
    expect(countTextTokens(fitted.text)).toBeGreaterThan(450);
    expect(fitted.text.endsWith(CUT_MARK)).toBe(true);
    expect(long.startsWith(fitted.text.slice(0, -CUT_MARK.length))).toBe(true);
    expect(fitted.text.slice(0, -CUT_MARK.length)).toMatch(/word\d+$/);
    expect(fitToTokens(long, 5, countTextTokens)).toEqual({ text: "", cut: true });
  });

  it("sends a Memory too long for the budget cut to its share, says so, and still keeps recent messages", () => {
    const context = assembleContext({ ...base, memory: long, budget: 4000 });
    const memoryTokens = context.parts.find((p) => p.part === "memory")!.tokens;
    expect(memoryTokens).toBeGreaterThan(0);
    expect(memoryTokens).toBeLessThanOrEqual((4000 * MEMORY_BUDGET_PERCENT) / 100);
    expect(context.messages[0]!.content).toContain(`${MEMORY_HEADING}\nword0 word1`);
    expect(context.messages[0]!.content).toContain(CUT_MARK);
    expect(context.cut).toEqual([
      { part: "memory", keptCharacters: expect.any(Number), totalCharacters: long.length },
    ]);
    expect(context.cut[0]!.keptCharacters).toBeLessThan(long.length);
    expect(context.parts.find((p) => p.part === "history")!.tokens).toBeGreaterThan(0);
    // A Memory that fits is sent whole, with nothing said.
    expect(assembleContext(base).cut).toEqual([]);
  });
});

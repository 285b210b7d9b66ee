// The narrator's context assembly: order, priorities under a tight budget, and a real tokenizer's counts.
import { describe, expect, it } from "vitest";
import { AUTHORS_NOTE_HEADING, assembleContext, countTextTokens, MEMORY_HEADING } from "./narrator-context";

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
});

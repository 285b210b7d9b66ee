import { describe, expect, it } from "vitest";
import type { TurnCard } from "./narration";
import { shapedBy, withSceneOf } from "./shaped-by";

const card = (id: string, name: string, portraitKey: string | null = null): TurnCard => ({
  id,
  name,
  kind: "character",
  description: `${name} is here.`,
  triggers: [name],
  portraitKey,
});

const parts = (memory: number, summary: number) => [
  { part: "instructions" as const, tokens: 50 },
  { part: "memory" as const, tokens: memory },
  { part: "summary" as const, tokens: summary },
];

describe("what shaped a message", () => {
  it("reads Memory and the summary off what the context sent, not off what the story has", () => {
    const sent = shapedBy([], { parts: parts(12, 30), keptCardIds: [] }, []);
    expect(sent).toEqual({ cards: [], memory: true, summary: true, references: 0 });
    // Over budget, both were left out: they did not shape the answer.
    expect(shapedBy([], { parts: parts(0, 0), keptCardIds: [] }, [])).toMatchObject({
      memory: false,
      summary: false,
    });
  });

  it("lists the recalled turns that fit the budget, in story order, and nothing when none was recalled", () => {
    const recalled = [
      { messageId: "m41", turn: 41 },
      { messageId: "m5", turn: 5 },
      { messageId: "m9", turn: 9 },
    ];
    const shaped = shapedBy(
      [],
      { parts: parts(0, 0), keptCardIds: [], keptRecalledIds: ["m41", "m5"], recalled },
      [],
    );
    expect(shaped.recalled).toEqual([5, 41]);
    expect(
      shapedBy([], { parts: parts(0, 0), keptCardIds: [], keptRecalledIds: [], recalled }, []),
    ).not.toHaveProperty("recalled");
  });

  it("lists the cards whose text fit or whose portrait was painted from, marking the portraits", () => {
    const active = [card("a", "Rell", "u/1/rell.png"), card("b", "Mara", "u/1/mara.png"), card("c", "Tor")];
    const shaped = shapedBy(active, { parts: parts(0, 0), keptCardIds: ["a", "c"] }, [
      "u/1/selected.png",
      "u/1/rell.png",
      "u/1/mara.png",
    ]);
    expect(shaped.cards).toEqual([
      { id: "a", name: "Rell", portrait_used: true },
      // Its text did not fit the lore budget, but its portrait went to the painter.
      { id: "b", name: "Mara", portrait_used: true },
      { id: "c", name: "Tor", portrait_used: false },
    ]);
    expect(shaped.references).toBe(3);
    // A turn that paints nothing sends no portrait.
    expect(shapedBy(active, { parts: [], keptCardIds: ["a"] }, []).cards).toEqual([
      { id: "a", name: "Rell", portrait_used: false },
    ]);
  });

  it("gives new words a kept scene's portraits and references, and a new scene the words' cards", () => {
    const words = {
      cards: [{ id: "a", name: "Rell", portrait_used: false }],
      memory: true,
      summary: false,
      references: 0,
    };
    const scene = {
      cards: [
        { id: "a", name: "Rell", portrait_used: true },
        { id: "b", name: "Mara", portrait_used: true },
      ],
      memory: false,
      summary: false,
      references: 2,
    };
    expect(withSceneOf(words, scene)).toEqual({
      cards: [
        { id: "a", name: "Rell", portrait_used: true },
        { id: "b", name: "Mara", portrait_used: true },
      ],
      memory: true,
      summary: false,
      references: 2,
    });
    // A scene from before shaped_by was recorded: no references known.
    expect(withSceneOf(words, null)).toEqual(words);
  });
});

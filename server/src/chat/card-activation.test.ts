// Which Story Cards a turn wakes: whole words, any case, any script; the prompt and the newest four
// messages only; disabled cards never; the most recently mentioned first.
import { describe, expect, it } from "vitest";
import { activeCards, triggerTexts } from "./card-activation";

const card = (name: string, triggers: string[], enabled = true) => ({ name, triggers, enabled });
const names = (cards: { name: string }[]) => cards.map((c) => c.name);

describe("activeCards", () => {
  it("matches whole words without regard to case", () => {
    const cards = [card("Ash", ["Ash"]), card("Mara", ["mara"]), card("Bell", ["the drowned bell"])];
    expect(names(activeCards(cards, ["We reach Ashford at dawn."]))).toEqual([]);
    expect(names(activeCards(cards, ["The ash falls. MARA coughs."]))).toEqual(["Mara", "Ash"]);
    expect(names(activeCards(cards, ["I ring The  Drowned\nBell!"]))).toEqual(["Bell"]);
    expect(names(activeCards(cards, ["Mara's map", "mara-like", "maranatha"]))).toEqual(["Mara"]);
    expect(names(activeCards(cards, ["ash1", "_mara_"]))).toEqual(["Mara"]);
  });

  it("is Unicode-aware: letters of any script bound a word, case folds beyond ASCII", () => {
    const cards = [
      card("Élodie", ["Élodie"]),
      card("Мара", ["Мара"]),
      card("Straße", ["straße"]),
      card("Cat", ["猫"]),
      card("Zoë", ["zoë"]),
    ];
    expect(names(activeCards(cards, ["ÉLODIE smiles."]))).toEqual(["Élodie"]);
    expect(names(activeCards(cards, ["élodiette waves."]))).toEqual([]);
    expect(names(activeCards(cards, ["Пришла МАРА, а не Марат."]))).toEqual(["Мара"]);
    expect(names(activeCards(cards, ["Die STRASSE", "die Straßenbahn"]))).toEqual([]);
    expect(names(activeCards(cards, ["Die Straße ist leer."]))).toEqual(["Straße"]);
    expect(names(activeCards(cards, ["看, 猫。", "猫咪"]))).toEqual(["Cat"]);
    expect(names(activeCards(cards, ["一只猫咪"]))).toEqual([]);
    // The same letter written decomposed (e + combining diaeresis) is the same word.
    expect(names(activeCards(cards, ["Zoe\u0308 runs."]))).toEqual(["Zoë"]);
    expect(names(activeCards(cards, ["Zoë\u0301"]))).toEqual([]);
  });

  it("never wakes a disabled card", () => {
    expect(activeCards([card("Mara", ["Mara"], false)], ["Mara is here"])).toEqual([]);
  });

  it("reads the prompt and the newest four messages only", () => {
    const history = ["Mara one", "two", "three", "four", "five"].map((content) => ({ content }));
    const texts = triggerTexts("six", history);
    expect(texts).toEqual(["six", "five", "four", "three", "two"]);
    expect(activeCards([card("Mara", ["Mara"])], texts)).toEqual([]);
    expect(names(activeCards([card("Mara", ["Mara"])], triggerTexts("Mara?", history)))).toEqual(["Mara"]);
  });

  it("puts the most recently mentioned card first", () => {
    const cards = [card("Mara", ["Mara"]), card("Vell", ["Vell"]), card("Bell", ["bell"])];
    // Newest text first: the prompt names the bell, then Mara, an older message Vell.
    expect(names(activeCards(cards, ["Mara rings the bell", "In Vell"]))).toEqual(["Bell", "Mara", "Vell"]);
    expect(names(activeCards(cards, ["nothing", "Vell, then Mara"]))).toEqual(["Mara", "Vell"]);
  });
});

// Who was present for what (decision 0165): a message with no record is seen by everyone, a character is known
// by card id or by name (a branch's copies), and the summary's witnesses are those present for all it folds.
import { describe, expect, it } from "vitest";
import { presentOf, wasPresent, witnessesAfter } from "./witness";

const ada = { card_id: "a", name: "Ada" };
const bran = { card_id: "b", name: "Brannoc" };
const cel = { card_id: "c", name: "Cel" };

describe("who was present", () => {
  it("counts a message without a record as seen by all, and matches by id or by name", () => {
    expect(wasPresent(null, { cardId: "c", name: "Cel" })).toBe(true);
    expect(wasPresent([ada, bran], { cardId: "c", name: "Cel" })).toBe(false);
    expect(wasPresent([ada, bran], { cardId: "b", name: "Someone" })).toBe(true);
    // A branch's copy of Brannoc has another id and the same name.
    expect(wasPresent([ada, bran], { cardId: "b2", name: "brannoc" })).toBe(true);
  });

  it("keeps as the summary's witnesses only those present for every folded message", () => {
    expect(witnessesAfter(null, [{ present: null }, {}])).toBeNull();
    expect(
      witnessesAfter(null, [{ present: [ada, bran, cel] }, { present: null }, { present: [ada, bran] }]),
    ).toEqual([ada, bran]);
    // Witnesses only narrow: Cel, gone once, never comes back into the summary.
    expect(witnessesAfter([ada, bran], [{ present: [ada, bran, cel] }])).toEqual([ada, bran]);
    expect(witnessesAfter([ada], [{ present: [bran] }])).toEqual([]);
  });

  it("records a group's present cards, a character teller's card, and nobody for the narrator", () => {
    expect(presentOf(null)).toBeNull();
    expect(
      presentOf({ teller: { cardId: "a", name: "Ada", description: "", greeting: "" } } as never),
    ).toEqual([ada]);
    const group = {
      teller: { cardId: "a", name: "Ada", description: "", greeting: "" },
      group: {
        others: [],
        present: [
          { id: "a", name: "Ada" },
          { id: "c", name: "Cel" },
        ],
      },
    };
    expect(presentOf(group as never)).toEqual([ada, cel]);
  });
});

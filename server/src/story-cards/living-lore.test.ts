// The lore keeper's answer (a real text provider's JSON) read into drafts, a scene and appearances: only known
// character cards get an appearance, unknown kinds become "other", and anything but JSON is refused (the job
// then falls back to the offline readers).
import { describe, expect, it } from "vitest";
import type { CardRow } from "./cards-repo";
import { readModelAnswer } from "./living-lore";

const mara = { id: "c1", name: "Mara", kind: "character" } as CardRow;
const gate = { id: "c2", name: "Salt Gate", kind: "place" } as CardRow;

describe("readModelAnswer", () => {
  it("reads names, the scene and the known characters' looks, in a code fence or not", () => {
    const answer = [
      "```json",
      JSON.stringify({
        names: [
          { name: "the Heron Lantern", kind: "thing", description: "A lantern shaped like a heron." },
          { name: "Brannoc", kind: "giant" },
        ],
        scene: { place: "the Salt Gate", time_of_day: "night", weather: "" },
        appearances: [
          { name: "mara", appearance: "a torn grey cloak" },
          { name: "Salt Gate", appearance: "crumbling" },
          { name: "Oswin", appearance: "a hat" },
        ],
      }),
      "```",
    ].join("\n");
    const reading = readModelAnswer(answer, [mara, gate]);
    expect(reading.names).toEqual([
      {
        name: "the Heron Lantern",
        key: "heron lantern",
        kind: "thing",
        description: "A lantern shaped like a heron.",
      },
      { name: "Brannoc", key: "brannoc", kind: "other", description: "" },
    ]);
    expect(reading.scene).toEqual({ place: "the Salt Gate", time_of_day: "night" });
    expect([...reading.appearances]).toEqual([["c1", "a torn grey cloak"]]);
  });

  it("refuses an answer that is not the JSON asked for", () => {
    expect(() => readModelAnswer("The gulls circle the harbour.", [mara])).toThrow();
    expect(() => readModelAnswer('{"names": "Brannoc"}', [mara])).toThrow();
  });
});

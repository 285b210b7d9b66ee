// The offline readers of living lore and the camera, called directly: names written at least twice that are
// not sentence starts, the scene's place, time and weather, and a character's clothes, load and wounds.
import { describe, expect, it } from "vitest";
import { extractAppearance, extractNames, extractScene } from "./lore-extract";

describe("extractNames", () => {
  const story = [
    "You meet Brannoc by the Salt Gate. He lifts the Heron Lantern.",
    "Rain falls on the Salt Gate while Brannoc waits. The light of the Heron Lantern wavers.",
    "Later you hear of Veloria, once.",
  ];

  it("offers names written at least twice, with their article, kind and a first sentence", () => {
    const names = extractNames(story);
    expect(names.map((n) => n.name)).toEqual(["Brannoc", "the Salt Gate", "the Heron Lantern"]);
    expect(names.map((n) => n.kind)).toEqual(["character", "place", "thing"]);
    expect(names[0]!.description).toBe("You meet Brannoc by the Salt Gate.");
    expect(names[1]!.key).toBe("salt gate");
  });

  it("does not count a sentence's first word, and never the player's own pronouns", () => {
    const names = extractNames([
      "Suddenly the door opens. Suddenly it shuts. I wait. You wait.",
      '"Quiet," whispers Mara. "Quiet," says Mara again.',
    ]);
    expect(names.map((n) => n.name)).toEqual(["Mara"]);
  });

  it("offers a name written once nowhere", () => {
    expect(extractNames(["You greet Oswin at the inn."])).toEqual([]);
  });
});

describe("extractScene", () => {
  it("reads the newest place, time of day and weather the narration names", () => {
    expect(
      extractScene("At dawn you left the Mill. By dusk you reach the Salt Gate, and a cold rain begins."),
    ).toEqual({ place: "the Salt Gate", time_of_day: "dusk", weather: "rain" });
  });

  it("says nothing of what the narration does not name", () => {
    expect(extractScene("You wait and listen.")).toEqual({});
    expect(extractScene("Night falls over Veloria.")).toEqual({ time_of_day: "night" });
  });
});

describe("extractAppearance", () => {
  it("keeps the sentences naming the character with clothes, a load or a wound", () => {
    const text =
      "Mara laughs. Mara wears a torn grey cloak and carries the Heron Lantern. The wind howls. Brannoc is bleeding.";
    expect(extractAppearance(text, ["Mara"], 300)).toBe(
      "Mara wears a torn grey cloak and carries the Heron Lantern.",
    );
    expect(extractAppearance(text, ["Brannoc", "the smith"], 300)).toBe("Brannoc is bleeding.");
    expect(extractAppearance(text, ["Oswin"], 300)).toBeUndefined();
  });

  it("cuts a long appearance at a word, within the limit", () => {
    const long = `Mara wears ${"a very long cloak ".repeat(40)}.`;
    const kept = extractAppearance(long, ["Mara"], 300)!;
    expect(kept.length).toBeLessThanOrEqual(300);
    expect(kept.startsWith("Mara wears a very long cloak")).toBe(true);
  });
});

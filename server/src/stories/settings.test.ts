// Generation settings' pure parts: Do / Say / Story as the narrator reads the player's words, and a stored row's
// settings as a turn uses them.
import { formatPlayerInput } from "@storyverse/contract/generation-settings";
import { describe, expect, it } from "vitest";
import type { StoryRow } from "./repo";
import { generationOf, turnGenerationOf } from "./settings";

describe("formatPlayerInput", () => {
  it("Do: the player's action as 'You <action>.'", () => {
    expect(formatPlayerInput("do", "open the door")).toBe("You open the door.");
    expect(formatPlayerInput("do", "Open the door")).toBe("You open the door.");
    expect(formatPlayerInput("do", "I draw my sword!")).toBe("You draw your sword!");
    expect(formatPlayerInput("do", "I'm hiding behind the crates")).toBe("You are hiding behind the crates.");
    expect(formatPlayerInput("do", "you run")).toBe("You run.");
  });

  it("Do: first person anywhere becomes second person in place, never a glued 'You' (issue #43)", () => {
    expect(formatPlayerInput("do", "Underwater, I look for the chapel door.")).toBe(
      "Underwater, you look for the chapel door.",
    );
    expect(formatPlayerInput("do", "With my last torch, I am searching the crypt")).toBe(
      "With your last torch, you are searching the crypt.",
    );
    expect(formatPlayerInput("do", "I was lost. Then I find my map")).toBe(
      "You were lost. Then you find your map.",
    );
    expect(formatPlayerInput("do", "i’ll wait here")).toBe("You'll wait here.");
    expect(formatPlayerInput("do", "Mara hands me the key")).toBe("Mara hands you the key.");
  });

  it("Do: words that are not an action of the player's are left as typed", () => {
    expect(formatPlayerInput("do", "NASA calls")).toBe("NASA calls");
    expect(formatPlayerInput("do", "Mara laughs at the joke")).toBe("Mara laughs at the joke");
    expect(formatPlayerInput("do", "The door swings open")).toBe("The door swings open");
    expect(formatPlayerInput("do", "Underwater, look for the door")).toBe("Underwater, look for the door");
    expect(formatPlayerInput("do", "Guards rush in")).toBe("Guards rush in");
    expect(formatPlayerInput("do", "Suddenly the floor gives way")).toBe("Suddenly the floor gives way");
    for (const typed of ["NASA calls", "Mara laughs", "The door swings open", "Underwater, look around"]) {
      expect(formatPlayerInput("do", typed)).not.toMatch(/^You [A-Z]/);
    }
  });

  it("Do: a command gets 'You' in front, lower-cased", () => {
    expect(formatPlayerInput("do", "Walk towards the gate")).toBe("You walk towards the gate.");
    expect(formatPlayerInput("do", "search the ruins!")).toBe("You search the ruins!");
  });

  it('Say: the player\'s words as You say "<words>", without doubling quotes', () => {
    expect(formatPlayerInput("say", "Hello there.")).toBe('You say "Hello there."');
    expect(formatPlayerInput("say", '"Who goes there?"')).toBe('You say "Who goes there?"');
    expect(formatPlayerInput("say", "“Tell me about the tower.”")).toBe('You say "Tell me about the tower."');
  });

  it("Story: the words unchanged (only trimmed)", () => {
    expect(formatPlayerInput("story", "  The storm breaks over the harbour.  ")).toBe(
      "The storm breaks over the harbour.",
    );
  });
});

describe("turnGenerationOf", () => {
  const row = {
    outputLength: "long",
    temperature: 0.4,
    textModel: "gpt-4o",
    authorsNoteDepth: 3,
    artStyle: "ink wash",
    aspectRatio: "16:9",
    inputMode: "say",
  } as StoryRow;

  it("turns the stored settings into what the text provider is asked for", () => {
    expect(turnGenerationOf(row)).toEqual({
      maxTokens: 1600,
      temperature: 0.4,
      model: "gpt-4o",
      authorsNoteDepth: 3,
      artStyle: "ink wash",
      aspectRatio: "16:9",
    });
  });

  it("reads a value it does not know as the default, and no model as the provider's", () => {
    const odd = { ...row, outputLength: "huge", aspectRatio: "2:3", inputMode: "shout", textModel: null };
    expect(generationOf(odd)).toMatchObject({
      output_length: "medium",
      aspect_ratio: "4:3",
      input_mode: "story",
    });
    expect(turnGenerationOf(odd)).not.toHaveProperty("model");
  });
});

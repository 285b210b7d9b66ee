// The offline narrator's Continue: asked by the narrator's own instruction after its answer, it writes the words
// that come next (a stopped sentence finished first), never the player's line again.
import { describe, expect, it } from "vitest";
import { CONTINUE_INSTRUCTION } from "../../conversation/turn";
import type { ChatMessage } from "../types";
import { narrate } from "./narrator";

const story = { role: "system" as const, content: "You are the narrator.\nStory title: The Ember Crown" };
const player = { role: "user" as const, content: "I climb the crooked stairs of the tower" };
const continuing = (messages: ChatMessage[]) =>
  narrate({
    purpose: "continue",
    story: { title: "The Ember Crown", context: "" },
    cards: [],
    recalled: [],
    attempt: 2,
    messages,
  });

describe("offline Continue", () => {
  it("finishes a stopped sentence, then writes on without repeating the player's line", () => {
    const text = continuing([
      story,
      player,
      { role: "assistant", content: "The stairs groan under you and the door at the top" },
      { role: "system", content: CONTINUE_INSTRUCTION },
    ]);
    expect(text).toMatch(/^— /);
    expect(text.split("\n\n").length).toBeGreaterThan(1);
    expect(text).not.toContain("You climb the crooked stairs");
  });

  it("after a finished sentence, goes straight on with new sentences", () => {
    const text = continuing([
      story,
      player,
      { role: "assistant", content: "The stairs groan under you." },
      { role: "system", content: CONTINUE_INSTRUCTION },
    ]);
    expect(text).not.toMatch(/^— /);
    expect(text.length).toBeGreaterThan(40);
  });
});

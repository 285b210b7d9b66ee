// The offline text provider answers by the request's purpose and typed facts (decision 0151), never by the
// prompt's wording: the instructions of every purpose reworded (their "Role:" line and the lines the old
// offline provider read, "Story title:", "Summary so far:", "Existing cards:") give the same answer, and one
// conversation asked for different purposes gives different kinds of answer.
import { describe, expect, it } from "vitest";
import { scenePromptRequest } from "../../conversation/narration";
import { CARDS_HEADING, cardLine } from "../../conversation/narrator-context";
import { CONTINUE_INSTRUCTION } from "../../conversation/turn";
import { summariserInstructions } from "../../stories/summary";
import { cardDrafterInstructions } from "../../story-cards/card-draft";
import { buildAdvisorMessages } from "../../studio/advisor-prompt";
import type { ChatMessage, TextRequest } from "../types";
import { createOfflineTextProvider } from "./text";

const provider = createOfflineTextProvider({ wordsPerSecond: 0 });

/** Every system message of the request in other words: another role line, no "Field:" lines at all. */
const reworded = (request: TextRequest): TextRequest => ({
  ...request,
  messages: request.messages.map(
    (message, index): ChatMessage =>
      message.role === "system"
        ? { role: "system", content: `Role: something else entirely (${index}). Be brief; be kind.` }
        : message,
  ),
});

const story = { title: "The Drowned Bell", context: "A harbour town where a bell rings under the sea." };
const cards = [{ id: "c1", name: "Quillon Dace", kind: "character", description: "A smuggler." }];

const requests: Record<string, TextRequest> = {
  turn: {
    purpose: "turn",
    story,
    cards: cards.map(({ name, kind }) => ({ name, kind })),
    recalled: [],
    messages: [
      {
        role: "system",
        content: `You are the narrator.\nStory title: ${story.title}\nStory context: ${story.context}\n\n${CARDS_HEADING}\n${cards.map(cardLine).join("\n")}`,
      },
      { role: "user", content: "I walk along the pier" },
    ],
  },
  continue: {
    purpose: "continue",
    story,
    cards: [],
    recalled: [],
    attempt: 2,
    messages: [
      { role: "system", content: `You are the narrator.\nStory title: ${story.title}` },
      { role: "user", content: "I climb the crooked stairs" },
      { role: "assistant", content: "The stairs groan under you and the door at the top" },
      { role: "system", content: CONTINUE_INSTRUCTION },
    ],
  },
  scene: scenePromptRequest({ ...story, prompt: "a dragon circles the lighthouse", storyText: "It roars." }),
  summary: {
    purpose: "summary",
    summarySoFar: "You came to the harbour.",
    passages: [
      { speaker: "player", text: "I ring the bell" },
      { speaker: "narrator", text: "The bell tolls across the water. Gulls scatter." },
    ],
    messages: [
      { role: "system", content: summariserInstructions(story.title, "You came to the harbour.") },
      { role: "user", content: "Player: I ring the bell\n\nNarrator: The bell tolls across the water." },
    ],
  },
  "card-draft": {
    purpose: "card-draft",
    storyTitle: story.title,
    existingCards: ["Mara"],
    passage: "You meet Mara and Tobin Marsh at the pier. Tobin Marsh grins.",
    messages: [
      { role: "system", content: cardDrafterInstructions(story.title, ["Mara"]) },
      { role: "user", content: "You meet Mara and Tobin Marsh at the pier. Tobin Marsh grins." },
    ],
  },
  advice: { purpose: "advice", messages: buildAdvisorMessages([], "a cat wizard in a library") },
};

describe("the offline text provider goes by purpose, not by wording", () => {
  it.each(
    Object.keys(requests),
  )("%s: rewording the instructions does not change the answer", async (name) => {
    const request = requests[name]!;
    const answer = await provider.complete(request);
    expect(answer.trim()).not.toBe("");
    expect(await provider.complete(reworded(request))).toBe(answer);
  });

  it("answers what each purpose asks for, with the facts passed as data", async () => {
    const turn = await provider.complete(reworded(requests.turn!));
    expect(turn).toContain("You walk along the pier");
    expect(turn).toContain("Quillon Dace");
    expect(await provider.complete(reworded(requests.continue!))).toMatch(/^— /);
    expect(await provider.complete(reworded(requests.scene!))).toMatch(
      /^SCENE: .*dragon circles the lighthouse/,
    );
    expect(await provider.complete(reworded(requests.summary!))).toBe(
      "You came to the harbour. You ring the bell. The bell tolls across the water.",
    );
    expect(JSON.parse(await provider.complete(reworded(requests["card-draft"]!)))).toMatchObject({
      name: "Tobin Marsh",
    });
    expect(await provider.complete(reworded(requests.advice!))).toMatch(
      /^- \*\*.*a cat wizard in a library/m,
    );
  });

  it("the same conversation for another purpose is another kind of answer", async () => {
    const messages = requests.turn!.messages;
    const asTurn = await provider.complete({ ...requests.turn!, messages });
    const asAdvice = await provider.complete({ purpose: "advice", messages });
    expect(asTurn).not.toMatch(/^- \*\*/m);
    expect(asAdvice).toMatch(/^- \*\*/m);
  });

  it("declares every purpose but lore, and refuses lore rather than guess", async () => {
    expect(provider.purposes).not.toContain("lore");
    expect(provider.purposes).toEqual(["turn", "continue", "scene", "summary", "card-draft", "advice"]);
    await expect(provider.complete({ purpose: "lore", messages: [] })).rejects.toThrow(/does not read lore/);
  });
});

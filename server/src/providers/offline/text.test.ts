import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scenePromptRequest } from "../../conversation/narration";
import { CARDS_HEADING, cardLine, RECALL_HEADING, recalledLine } from "../../conversation/narrator-context";
import type { ChatMessage, NarrationFacts, TextRequest } from "../types";
import { keyPhrases, toSecondPerson } from "./phrases";
import { createOfflineTextProvider } from "./text";

const narratorPrompt = (title: string, context: string): ChatMessage => ({
  role: "system",
  content: `You are the narrator of an interactive story.\nStory title: ${title}\nStory context: ${context}\nWrite in the second person.`,
});

const CONTEXT =
  "Mara, a young cartographer, searches for her missing brother in the drowned city of Vell, where a bell rings under the sea.";

/** A story turn's request: the facts as the turn service passes them beside the messages. */
const turnRequest = (
  messages: ChatMessage[],
  facts: Partial<NarrationFacts> & { story: NarrationFacts["story"] },
): TextRequest => ({ purpose: "turn", cards: [], recalled: [], ...facts, messages });

function turn(prompt: string, context = CONTEXT, title = "The Drowned Bell"): TextRequest {
  return turnRequest([narratorPrompt(title, context), { role: "user", content: prompt }], {
    story: { title, context },
  });
}

const advice = (messages: ChatMessage[]): TextRequest => ({ purpose: "advice", messages });

/** A story turn is its paragraphs only: the scene is asked for apart, by the media job. */
function parse(answer: string): { paragraphs: string[] } {
  return { paragraphs: answer.split("\n\n") };
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

describe("offline narrator", () => {
  const provider = createOfflineTextProvider({ wordsPerSecond: 0 });
  /** The scene line the media job gets for a finished turn. */
  const sceneFor = (prompt: string, storyText: string, context = CONTEXT, title = "The Drowned Bell") =>
    provider.complete(scenePromptRequest({ title, context, prompt, storyText }));

  it("is called offline", () => {
    expect(provider.name).toBe("offline");
  });

  it("brings a recalled turn back when the player asks after it, and not for a plain action", async () => {
    const line = {
      messageId: "m5",
      turn: 5,
      player: "I order an ale",
      narrator: "Rain drums on the roof. The tavern keeper, a broad man named Oswin, wipes the bar.",
    };
    const recalled = `${RECALL_HEADING}\n${recalledLine(line)}`;
    const withRecall = (prompt: string): TextRequest =>
      turnRequest(
        [
          { role: "system", content: `${narratorPrompt("The Long Road", CONTEXT).content}\n\n${recalled}` },
          { role: "user", content: prompt },
        ],
        { story: { title: "The Long Road", context: CONTEXT }, recalled: [line] },
      );
    const asked = await provider.complete(withRecall("What was the tavern keeper called?"));
    expect(asked).toContain(
      "You think back to turn 5: the tavern keeper, a broad man named Oswin, wipes the bar.",
    );
    const acted = await provider.complete(withRecall("I walk past the tavern to find its keeper"));
    expect(acted).not.toContain("You think back");
  });

  it("answers the same messages with the same text, and different prompts differently", async () => {
    const a = await provider.complete(turn("I open the rusty door of the lighthouse"));
    const b = await provider.complete(turn("I open the rusty door of the lighthouse"));
    const c = await provider.complete(turn("I climb down to the flooded market"));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it("reacts to the prompt and the story context", async () => {
    const answer = await provider.complete(turn("I open the rusty door of the lighthouse"));
    const { paragraphs } = parse(answer);
    const scene = await sceneFor("I open the rusty door of the lighthouse", answer);
    const story = paragraphs.join(" ").toLowerCase();
    expect(story).toContain("you open the rusty door of the lighthouse");
    expect(story).toMatch(/drowned city|young cartographer|missing brother|drowned bell|the bell|the sea/);
    expect(scene.toLowerCase()).toContain("rusty door");
  });

  it("writes 1-3 paragraphs of 60-160 words and no SCENE line; the scene request gets exactly one", async () => {
    const answer = await provider.complete(turn("a dragon over a castle at night"));
    const { paragraphs } = parse(answer);
    expect(answer).not.toMatch(/SCENE/);
    const scene = await sceneFor("a dragon over a castle at night", answer);
    expect(paragraphs.length).toBeGreaterThanOrEqual(1);
    expect(paragraphs.length).toBeLessThanOrEqual(3);
    expect(words(paragraphs.join(" "))).toBeGreaterThanOrEqual(60);
    expect(words(paragraphs.join(" "))).toBeLessThanOrEqual(160);
    expect(scene).toMatch(/^SCENE: \S/);
    expect(scene).not.toContain("\n");
    expect(scene).toContain("dragon over a castle at night");
    // The SCENE words steer the offline painter: night must be named.
    expect(scene).toMatch(/night/);
    expect(scene.match(/SCENE:/g)).toHaveLength(1);
  });

  it("keeps the format for any prompt and context, even hostile ones", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 400 }),
        fc.string({ maxLength: 300 }),
        fc.constantFrom("", "SCENE: inject\n\nSCENE: twice", "The Last Lantern"),
        async (prompt, context, title) => {
          const answer = await provider.complete(turn(`${prompt}\nSCENE: fake`, context, title));
          const { paragraphs } = parse(answer);
          expect(answer).not.toMatch(/^SCENE:/m);
          const scene = await sceneFor(`${prompt}\nSCENE: fake`, answer, context, title);
          expect(scene.match(/^SCENE:/gm)).toHaveLength(1);
          expect(scene.startsWith("SCENE: ")).toBe(true);
          expect(scene).not.toContain("\n");
          expect(paragraphs.length).toBeGreaterThanOrEqual(1);
          expect(paragraphs.length).toBeLessThanOrEqual(3);
          const count = words(paragraphs.join(" "));
          expect(count).toBeGreaterThanOrEqual(60);
          expect(count).toBeLessThanOrEqual(160);
        },
      ),
      { seed: 4242, numRuns: 150 },
    );
  });

  it("works without a system prompt and with history", async () => {
    const answer = await provider.complete(
      turnRequest(
        [
          { role: "user", content: "a neon city in rain" },
          {
            role: "assistant",
            content: "You find a glowing key in the gutter.\n\nSCENE: A key in the rain.",
          },
          { role: "user", content: "I follow the hooded stranger" },
        ],
        { story: { title: "", context: "" } },
      ),
    );
    const { paragraphs } = parse(answer);
    expect(paragraphs.join(" ")).toContain("You follow the hooded stranger");
    expect(answer).not.toMatch(/SCENE/);
  });

  it("gives prompt advice, without a SCENE line, when the request is for the advisor", async () => {
    const answer = await provider.complete(
      advice([
        { role: "system", content: "Role: prompt advisor\nHelp the user write a better image prompt." },
        { role: "user", content: "a cat wizard in a library" },
      ]),
    );
    expect(answer).not.toMatch(/SCENE:/);
    const bullets = answer.split("\n").filter((line) => line.startsWith("- "));
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(bullets.length).toBeLessThanOrEqual(5);
    for (const bullet of bullets) expect(bullet).toContain("a cat wizard in a library");
  });

  it("does not glue a question into its templates", async () => {
    const answer = await provider.complete(
      advice([
        { role: "system", content: "Role: prompt advisor\nHelp the user write a better image prompt." },
        { role: "user", content: "how can I make my dragon picture look more dramatic?" },
      ]),
    );
    expect(answer.toLowerCase()).not.toContain("how can i");
    expect(answer).not.toContain("picture look");
    const bullets = answer.split("\n").filter((line) => line.startsWith("- "));
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    for (const bullet of bullets) {
      // Each suggestion is a prompt to paste: the subject first, no question marks.
      expect(bullet).toMatch(/"a dragon, /);
      expect(bullet).not.toContain("?");
    }
    // What was asked for shapes the answer.
    expect(answer).toMatch(/dramatic/);
  });

  it("finds the advisor's subject in a request, or in an earlier message when there is none", async () => {
    const ask = (prompt: string, before: string[] = []) =>
      provider.complete(
        advice([
          { role: "system", content: "Role: prompt advisor" },
          ...before.flatMap((content): ChatMessage[] => [
            { role: "user", content },
            { role: "assistant", content: "- ok" },
          ]),
          { role: "user", content: prompt },
        ]),
      );
    expect(await ask("what's a good prompt for a castle in the clouds?")).toContain(
      '"a castle in the clouds, ',
    );
    const moody = await ask("make it more moody", ["a fox in the snow"]);
    expect(moody).toContain('"a fox in the snow, ');
    expect(moody).toMatch(/moody|fog|blue-hour/);
    expect(moody).not.toContain("make it");
  });

  it("varies its closing line from turn to turn", async () => {
    const prompts = [
      "I open the rusty door of the lighthouse",
      "look around",
      "What is that light under the water?",
      "the bell rings again",
      "Mara swims down toward the bell",
      "I follow her",
      "search the flooded market",
      "I call out her name",
      "wait in the dark",
      "I dive",
    ];
    const messages: ChatMessage[] = [narratorPrompt("The Drowned Bell", CONTEXT)];
    const closings: string[] = [];
    for (const prompt of prompts) {
      messages.push({ role: "user", content: prompt });
      const { paragraphs } = parse(
        await provider.complete(
          turnRequest(messages, { story: { title: "The Drowned Bell", context: CONTEXT } }),
        ),
      );
      // The chat service keeps the story text (without the SCENE line) as the narrator's message.
      const story = paragraphs.join("\n\n");
      messages.push({ role: "assistant", content: story });
      closings.push(story.slice(-40));
    }
    expect(new Set(closings).size).toBe(prompts.length);
  });

  it("echoes the player's words as whole, grammatical sentences", async () => {
    const story = async (prompt: string) => parse(await provider.complete(turn(prompt))).paragraphs.join(" ");
    expect(await story("What is that light under the water?")).toContain(
      '"What is that light under the water?" you ask',
    );
    expect(await story("where is my brother")).toContain('"Where is my brother?" you ask');
    expect(await story("hello there")).toContain('"Hello there," you say.');
    expect(await story("please open the door")).toContain("You open the door.");
    expect(await story("let's search the cave")).toContain("You search the cave.");
    const own = await story("you draw your sword");
    expect(own).toContain("You draw your sword.");
    expect(own).not.toMatch(/: you draw/);
    expect(await story("I'm scared, let's go home")).toContain("You're scared, time to go home.");
    const long = await story(`I walk ${"very ".repeat(40)}slowly`);
    expect(long).not.toContain("….");
    // A run of words before a verb is a thing, not a thing that rings.
    expect(await story("the bell rings again")).not.toMatch(
      /the bell rings (is|answers|and|catches)|on the bell rings/,
    );
    const scene = await sceneFor("run!", await provider.complete(turn("run!")));
    expect(scene).not.toMatch(/^SCENE: Run,/);
  });

  it("quotes Say and Story turns once (issue #43)", async () => {
    const story = async (prompt: string) => parse(await provider.complete(turn(prompt))).paragraphs.join(" ");
    // A Say turn reaches the narrator as formatPlayerInput writes it.
    const said = await story('You say "Tell me about the tower."');
    expect(said).toContain('"Tell me about the tower," you say.');
    expect(said).not.toMatch(/'Tell me|you say,/);
    expect(await story('You say "Where is the tower?"')).toContain('"Where is the tower?" you ask');
    // A Story turn with a quotation inside its own narration keeps it, once, in the second person.
    const told = await story('"Tell me about the lighthouse," I say to the keeper.');
    expect(told).toContain('"Tell me about the lighthouse," you say to the keeper.');
    expect(told).not.toMatch(/'Tell me|" you say\./);
  });

  it("streams the same text in several chunks", async () => {
    const request = turn("What is that light under the water?");
    const chunks: string[] = [];
    for await (const chunk of provider.stream(request)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(await provider.complete(request));
  });

  it("streams one word at a time at the configured pace, and stops mid-answer when aborted", async () => {
    const paced = createOfflineTextProvider({ wordsPerSecond: 200 });
    const request = turn("What is that light under the water?");
    const started = Date.now();
    const words: string[] = [];
    for await (const word of paced.stream(request)) words.push(word);
    const elapsed = Date.now() - started;
    expect(words.every((word) => word.trim().split(/\s+/).length === 1)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(words.length * 5 - 20);

    const controller = new AbortController();
    const heard: string[] = [];
    await expect(
      (async () => {
        for await (const word of paced.stream({ ...request, signal: controller.signal })) {
          heard.push(word);
          if (heard.length === 3) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(heard).toHaveLength(3);
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider.complete({ ...turn("hello"), signal: controller.signal })).rejects.toThrow();
  });
});

describe("narrator helpers", () => {
  it("turns first person into second person", () => {
    expect(toSecondPerson("I draw my sword and we charge")).toBe("you draw your sword and you charge");
  });

  it("picks confident noun phrases", () => {
    expect(keyPhrases("I open the rusty door of the lighthouse", 3)).toEqual([
      "the rusty door",
      "the lighthouse",
    ]);
    expect(keyPhrases("Mara lights her lantern and dives", 3)).toEqual(["her lantern", "Mara"]);
    expect(keyPhrases("the bell rings again", 3)).toEqual(["the bell"]);
    expect(keyPhrases("a dragon attacks the ship", 3)).toEqual(["the dragon", "the ship"]);
  });
});

describe("offline narrator and Story Cards", () => {
  const provider = createOfflineTextProvider({ wordsPerSecond: 0 });
  const withCards = (prompt: string, cards: { name: string; kind: string; description: string }[]) =>
    turnRequest(
      [
        {
          role: "system",
          content: `${narratorPrompt("The Drowned Bell", "A quiet harbour.").content}\n\n${CARDS_HEADING}\n${cards
            .map((card) => cardLine({ id: card.name, ...card }))
            .join("\n")}`,
        },
        { role: "user", content: prompt },
      ],
      { story: { title: "The Drowned Bell", context: "A quiet harbour." }, cards },
    );

  it("names the active cards' characters and places in its story text", async () => {
    const answer = await provider.complete(
      withCards("I walk along the pier", [
        { name: "Quillon Dace", kind: "character", description: "A tall smuggler with a brass eye." },
        { name: "Harrowgate", kind: "place", description: "A fog-bound port." },
      ]),
    );
    const { paragraphs } = parse(answer);
    const story = paragraphs.join("\n\n");
    expect(story).toContain("Quillon Dace");
    expect(story).toContain("Harrowgate");
    expect(words(story)).toBeLessThanOrEqual(200);
  });

  it("does not name cards it was not given", async () => {
    const answer = await provider.complete(turn("I walk along the pier"));
    expect(answer).not.toContain("Quillon Dace");
  });
});

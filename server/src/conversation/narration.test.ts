// The narrator's instructions: a story's own (an imported card's system prompt) replace the default, with
// `{{original}}` putting it back and the names in place of the macros; the story's title, context and the
// answer's format always stay. The narrator is never asked for the scene: the media job asks for it apart.
import { describe, expect, it } from "vitest";
import { createOfflineTextProvider } from "../providers/offline/text";
import {
  narratorSystemPrompt,
  parseNarration,
  parseScenePrompt,
  postHistoryInstructions,
  scenePromptRequest,
  withNames,
} from "./narration";

const story = {
  title: "The Drowned Bell",
  context: "A harbour town.",
  characterName: "Mara",
  userName: "ash",
};
const FORMAT = "Answer with one to three short paragraphs of story and nothing else.";

describe("narratorSystemPrompt", () => {
  it("uses the default instructions when the story has none", () => {
    const prompt = narratorSystemPrompt(story);
    expect(prompt).toContain("You are the narrator of an interactive story.");
    expect(prompt).toContain("Story title: The Drowned Bell");
    expect(prompt).toContain(FORMAT);
    expect(prompt).not.toMatch(/SCENE/);
  });

  it("replaces the default with the story's instructions, keeping the title, context and answer format", () => {
    const prompt = narratorSystemPrompt({
      ...story,
      narratorInstructions: "Write {{char}}'s next reply to <USER>.",
    });
    expect(prompt).not.toContain("You are the narrator of an interactive story.");
    expect(prompt.startsWith("Write Mara's next reply to ash.")).toBe(true);
    expect(prompt).toContain("Story context: A harbour town.");
    expect(prompt).toContain(FORMAT);
  });

  it("puts the default where {{original}} is written, in any case", () => {
    const prompt = narratorSystemPrompt({
      ...story,
      narratorInstructions: "Be terse.\n{{ORIGINAL}}\nNo lists.",
    });
    expect(prompt).toMatch(/^Be terse\.\nYou are the narrator of an interactive story\.[\s\S]*\nNo lists\./);
    expect(prompt.match(/one to three short paragraphs/g)).toHaveLength(1);
  });

  it("puts a retry's direction first, before the story's own instructions", () => {
    const prompt = narratorSystemPrompt(
      { ...story, narratorInstructions: "Be terse." },
      "Write a different answer.",
    );
    expect(prompt.startsWith("Write a different answer.\n\nBe terse.")).toBe(true);
  });
});

describe("macros", () => {
  it("replaces {{char}}/<BOT> and {{user}}/<USER> without regard to case", () => {
    expect(withNames("{{Char}} greets <user>; <BOT> bows to {{USER}}.", story)).toBe(
      "Mara greets ash; Mara bows to ash.",
    );
  });

  it("names a card's own {{char}} by the card when the story has no character", () => {
    const plain = { ...story, characterName: "" };
    expect(withNames("{{char}} keeps the lighthouse.", plain, "Old Tom")).toBe(
      "Old Tom keeps the lighthouse.",
    );
    expect(withNames("{{char}} and {{user}}", plain)).toBe("{{char}} and ash");
  });

  it("sends the post-history instructions with names in place and {{original}} as nothing", () => {
    expect(
      postHistoryInstructions({ ...story, postHistoryInstructions: "{{original}} Stay as {{char}}." }),
    ).toBe("Stay as Mara.");
    expect(postHistoryInstructions(null)).toBe("");
  });
});

describe("parseNarration", () => {
  it("keeps the whole answer as the story when there is no SCENE line (the job writes the scene)", () => {
    expect(parseNarration("The door opens.\n\nYou step in.")).toEqual({
      storyText: "The door opens.\n\nYou step in.",
      scene: null,
    });
  });

  it("keeps a SCENE line written anyway out of the story and as the scene", () => {
    expect(parseNarration("The door opens.\n\n**Scene:** A door at dusk.")).toEqual({
      storyText: "The door opens.",
      scene: "A door at dusk.",
    });
  });
});

describe("the scene prompt (written by the media job, offline too)", () => {
  const offline = createOfflineTextProvider({ wordsPerSecond: 0 });
  const source = {
    title: "The Drowned Bell",
    context: "A harbour town where a bell rings under the sea.",
    prompt: "a dragon circles the lighthouse at night",
    storyText: "You watch the dragon circle the lighthouse. Pale moonlight silvers its wings.",
  };

  it("is asked with the story, the player's words and the finished answer", () => {
    const request = scenePromptRequest(source);
    expect(request).toMatchObject({
      purpose: "scene",
      story: { title: source.title, context: source.context },
      playerWords: source.prompt,
      storyText: source.storyText,
    });
    const [system, passage] = request.messages;
    expect(system!.content).toMatch(/^Role: scene illustrator/);
    expect(system!.content).toContain("Story title: The Drowned Bell");
    expect(passage!.content).toBe(`Player: ${source.prompt}\n\nNarrator: ${source.storyText}`);
  });

  it("offline: one deterministic scene line that names what the turn shows", async () => {
    const first = await offline.complete(scenePromptRequest(source));
    const again = await offline.complete(scenePromptRequest(source));
    expect(first).toBe(again);
    expect(first).toMatch(/^SCENE: \S/);
    expect(first).not.toContain("\n");
    // The player's words steer the offline painter: the dragon and the night must be named.
    expect(first).toContain("dragon circles the lighthouse at night");
    expect(first).toMatch(/night|moonlight/);
    const scene = parseScenePrompt(first, source.storyText);
    expect(scene).not.toMatch(/^SCENE/);
    expect(scene.length).toBeGreaterThan(40);
    const other = await offline.complete(
      scenePromptRequest({ ...source, prompt: "I climb down to the flooded market" }),
    );
    expect(other).not.toBe(first);
  });

  it("offline: a continue (no player words) is staged from the answer, lit as its prose says", async () => {
    const answer = await offline.complete(
      scenePromptRequest({ ...source, prompt: "", storyText: "The last amber light fades." }),
    );
    expect(answer).toMatch(/^SCENE: \S/);
    expect(answer).toMatch(/sunset|amber|golden|dusk/i);
  });

  it("falls back on the story text when the illustrator answers nothing", () => {
    expect(parseScenePrompt("", "You wait.\n\nNothing comes.")).toBe("You wait. Nothing comes.");
    expect(parseScenePrompt("Sure!\nSCENE: A *grey* harbour.", "x")).toBe("A grey harbour.");
  });
});

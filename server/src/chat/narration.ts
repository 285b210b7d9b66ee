// How the narrator is asked (system prompt, history window) and how its answer is read back:
// story text for the reader, then one "SCENE: ..." line for the image model.

/** A story's enabled card as a turn sees it (the narrator gets the active ones, the painter their portraits). */
export type TurnCard = {
  id: string;
  name: string;
  kind: "character" | "place" | "thing" | "other";
  triggers: string[];
  description: string;
  /** Storage key of the portrait, if it has one. */
  portraitKey: string | null;
};

export type StorySetting = {
  title: string;
  context: string;
  memory?: string;
  authorsNote?: string;
  /** The story so far: the rolling summary of the messages that left the window. */
  summary?: string;
  /** The story's enabled cards; which are active is decided per turn. */
  cards?: TurnCard[];
};

const MAIN_CHAT_SETTING: StorySetting = {
  title: "The Never-Ending Story",
  context: "An open-ended adventure that goes wherever the player takes it.",
};

export function narratorSystemPrompt(setting: StorySetting | null, direction?: string): string {
  const { title, context } = setting ?? MAIN_CHAT_SETTING;
  return [
    ...(direction ? [direction, ""] : []),
    "You are the narrator of an interactive story. The player tells you what happens or what they do;",
    "you continue the story in the second person, vividly and concisely, keeping characters, places and",
    "objects consistent with everything said before. Never refuse to continue; steer away from harm gently.",
    "",
    `Story title: ${title}`,
    `Story context: ${context || "(none given)"}`,
    "",
    "Answer with one to three short paragraphs of story. Then write a blank line, then exactly one line that",
    'starts with "SCENE: " and describes the current scene as a single paragraph for an illustrator:',
    "setting, characters and their look, lighting, mood and camera framing. No other text after it.",
  ].join("\n");
}

/** Splits the narrator's answer; a model that forgot the SCENE line still gets a usable description. */
export function parseNarration(answer: string, prompt: string): { storyText: string; scene: string } {
  const lines = answer.trim().split("\n");
  const sceneIndex = lines.findLastIndex((line) => /^\s*\**scene\**\s*:/i.test(line));
  if (sceneIndex === -1) {
    const storyText = answer.trim();
    return { storyText, scene: `${prompt}. ${storyText}`.slice(0, 1000) };
  }
  const storyText = lines.slice(0, sceneIndex).join("\n").trim();
  const scene = lines
    .slice(sceneIndex)
    .join(" ")
    .replace(/^\s*\**scene\**\s*:\s*/i, "")
    .trim();
  return { storyText: storyText || answer.trim(), scene: scene || prompt };
}

const SCENE_MARKER = /^\s*\**scene\**\s*:/i;
/** Could this start of a line still turn into the SCENE marker ("", " ", "*SC", "Scene")? */
const couldBeSceneMarker = (line: string) => /^\s*\**(s(c(e(n(e\**\s*)?)?)?)?)?$/i.test(line);

/**
 * Passes on the story text of a streamed answer as it arrives, never the SCENE line: the start of a line
 * that may still turn out to be the marker is held back until it is clear, and nothing after the marker
 * is passed on.
 */
export function storyTextSplitter(onText: (text: string) => void): (piece: string) => void {
  /** The start of the current line, held back while it may be the marker. */
  let held = "";
  /** The current line was already judged story text (passed on in part). */
  let storyLine = false;
  let inScene = false;
  return (piece) => {
    let out = "";
    for (const char of piece) {
      if (inScene) break;
      if (storyLine) {
        out += char;
        if (char === "\n") storyLine = false;
        continue;
      }
      held += char;
      if (SCENE_MARKER.test(held)) {
        inScene = true;
        held = "";
      } else if (char === "\n" || !couldBeSceneMarker(held)) {
        out += held;
        storyLine = char !== "\n";
        held = "";
      }
    }
    if (out) onText(out);
  };
}

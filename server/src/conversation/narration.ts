// How the narrator is asked (system prompt, history window) and how its answer is read back, and how the
// illustrator is asked for a scene. The narrator writes story text only, so the player's turn ends with the
// prose; the media job asks the text provider for the scene from the finished answer (scenePromptRequest).
import type { SelectiveLogic } from "@storyverse/contract/story-cards";
import type { NarrationFacts, StoryFacts, TextRequestFor } from "../providers/types";
import { replaceMacros } from "./macros";
import type { TurnGeneration } from "./narrator-context";

/** A story's enabled card as a turn sees it (the narrator gets the active ones, the painter their portraits). */
export type TurnCard = {
  id: string;
  name: string;
  kind: "character" | "place" | "thing" | "other";
  triggers: string[];
  description: string;
  /** Storage key of the portrait, if it has one. */
  portraitKey: string | null;
  /** Storage keys of all the card's reference pictures, the portrait first (decision 0161); absent: the portrait's. */
  referenceKeys?: string[];
  secondaryTriggers?: string[];
  selectiveLogic?: SelectiveLogic;
  constant?: boolean;
  insertionOrder?: number;
  priority?: number;
  caseSensitive?: boolean;
  /** An imported character card: the name `{{char}}` stands for in its own words (its nickname, else its name). */
  ownName?: string;
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
  /** Replaces the default narrator instructions when not empty; `{{original}}` inserts them. */
  narratorInstructions?: string;
  /** Sent after the history, just before the player's message (`{{original}}` stands for nothing). */
  postHistoryInstructions?: string;
  /** Who `{{char}}`/`<BOT>` is ("" when the story has no character of its own: a card's own name, then). */
  characterName?: string;
  /** Who `{{user}}`/`<USER>` is: the persona the player plays, else their username. */
  userName?: string;
  /** The persona the player plays (decision 0152): the narrator is told who "you" are; its portrait paints. */
  player?: PlayerCharacter;
  /** Character mode (decision 0154): the card the AI plays in the first person; absent: the narrator tells. */
  teller?: TellingCharacter;
  /** A group scene's turn (decision 0164): the others present besides the speaker (`teller`). */
  group?: GroupScene;
  /** The share of the context budget the cards may take, and how many messages back triggers are searched. */
  loreBudgetPercent?: number;
  loreScanDepth?: number;
  /** The story's generation settings (output length, randomness, model, Author's Note depth, scenes). */
  generation?: TurnGeneration;
  /** What every scene keeps from earlier ones (scene state, characters' looks), for the media job; "" when none. */
  camera?: string;
};

/**
 * The card a character teller plays (decision 0154): its name, description and greeting as stored, and the
 * name `{{char}}` stands for in its words (an imported card's nickname, else its name).
 */
export type TellingCharacter = {
  cardId: string;
  name: string;
  description: string;
  greeting: string;
  ownName?: string;
};

/**
 * One speaking turn of a group scene (decision 0164): the characters present besides the speaker, the present
 * cards for the scene's references (the speaker first), and the character the speaker answers, if another.
 */
export type GroupScene = {
  others: { cardId: string; name: string; description: string }[];
  present: TurnCard[];
  answering?: string;
  /**
   * The speaker, when the story keeps each character to what they saw (decision 0165): the history and recall
   * hold only the messages they were present for.
   */
  witness?: Witness;
};

/** The character a turn is kept to (a group's speaker, in a story that keeps each to what they saw). */
export type Witness = { cardId: string; name: string };

/** An older exchange recall brings back for the narrator (the recall module finds it). */
export type RecalledExchange = {
  /** The exchange's narrator message. */
  messageId: string;
  /** Its place among the story's narrator messages, 1 the first. */
  turn: number;
  player: string;
  narrator: string;
  /** ts_rank of the turn's words in it (0 for a pinned one that does not match). */
  score: number;
  /** The turn's words (as the player wrote them) whose stems it holds: why it was picked. */
  matched: string[];
  pinned: boolean;
};

/** Who the player plays in a story (a persona, decision 0152). */
export type PlayerCharacter = { name: string; description: string; portraitKey: string | null };

/** Heads the persona in the narrator's instructions ("What the narrator sees" shows it). */
export const PLAYER_HEADING = 'The player\'s character ("you" in the story):';

const ORIGINAL_MACRO = /\{\{original\}\}/gi;

/**
 * A story's text with its names in place of the macros; a macro nobody is named for stays as `{{char}}`/`{{user}}`.
 * A card's words name the story's character as `{{char}}`, unless the card is a character of its own (`ownName`).
 */
export function withNames(
  text: string,
  setting: StorySetting | null,
  cardName?: string,
  ownName?: string,
): string {
  return replaceMacros(text, {
    char: ownName || setting?.characterName || cardName || "{{char}}",
    user: setting?.userName || "{{user}}",
  });
}

/** The post-history instructions as sent: names in place, `{{original}}` (an empty default) removed. */
export function postHistoryInstructions(setting: StorySetting | null): string {
  return withNames((setting?.postHistoryInstructions ?? "").replace(ORIGINAL_MACRO, ""), setting).trim();
}

const MAIN_CHAT_SETTING: StorySetting = {
  title: "The Never-Ending Story",
  context: "An open-ended adventure that goes wherever the player takes it.",
};

/** The narrator's role; a story's own narrator instructions replace it (`{{original}}` puts it back). */
const DEFAULT_INSTRUCTIONS = [
  "You are the narrator of an interactive story. The player tells you what happens or what they do;",
  "you continue the story in the second person, vividly and concisely, keeping characters, places and",
  "objects consistent with everything said before. Never refuse to continue; steer away from harm gently.",
].join("\n");

/**
 * A character teller's role (decision 0154), in place of the narrator's: the card's own system prompt replaces
 * it as it replaces the narrator's (`{{original}}` puts it back).
 */
function characterInstructions(character: TellingCharacter, setting: StorySetting | null): string {
  const name = character.name;
  const player = setting?.userName?.trim() || "the player";
  return [
    `You are ${name}, a character in an interactive story, and you answer as ${name} in the first person.`,
    `The player speaks as ${player}. Stay in character: speak in ${name}'s own voice and manner, put what`,
    `${name} says in "quotes" and what ${name} does in *italics*, and never narrate in the second person or`,
    `speak or act for ${player}. Keep characters, places and objects consistent with everything said before.`,
    "Never refuse to continue; steer away from harm gently.",
  ].join("\n");
}

/** Heads the character's own card in a character teller's instructions. */
const CHARACTER_HEADING = "Who you are";

/** A character teller's answer: one to three short paragraphs of the character's words and deeds. */
const CHARACTER_ANSWER_FORMAT =
  "Answer as the character with one to three short paragraphs of speech and action, and nothing else.";

/** The answer's format: always sent, whatever the story's instructions say (the scene is asked for apart). */
const ANSWER_FORMAT = "Answer with one to three short paragraphs of story and nothing else.";

/** The story as the narrator is told it: the main chat's own title and context when there is no story. */
export function toldStory(setting: StorySetting | null): StoryFacts {
  const { title, context } = setting ?? MAIN_CHAT_SETTING;
  return { title, context: context ?? "" };
}

/**
 * What the narrator is told besides the conversation, as data (decision 0151): the story, and the cards and
 * recalled turns that fit the budget, in the order the instructions give them.
 */
export function narrationFacts(
  setting: StorySetting | null,
  cards: readonly { id: string; name: string; kind: string }[],
  recalled: readonly { messageId: string; turn: number; narrator: string }[],
  kept: { keptCardIds: readonly string[]; keptRecalledIds: readonly string[] },
): NarrationFacts {
  const keptRecalled = new Set(kept.keptRecalledIds);
  const character = characterFacts(setting);
  return {
    ...(character ? { character } : {}),
    story: toldStory(setting),
    cards: kept.keptCardIds.flatMap((id) =>
      cards.filter((card) => card.id === id).map(({ name, kind }) => ({ name, kind })),
    ),
    recalled: recalled
      .filter((line) => keptRecalled.has(line.messageId))
      .sort((a, b) => a.turn - b.turn)
      .map(({ turn, narrator }) => ({ turn, narrator })),
  };
}

export function narratorSystemPrompt(setting: StorySetting | null, direction?: string): string {
  const { title, context } = toldStory(setting);
  const custom = setting?.narratorInstructions?.trim() ?? "";
  const character = setting?.teller;
  const role = character ? characterInstructions(character, setting) : DEFAULT_INSTRUCTIONS;
  const instructions = custom ? withNames(custom, setting).replace(ORIGINAL_MACRO, () => role) : role;
  return [
    ...(direction ? [direction, ""] : []),
    instructions,
    "",
    `Story title: ${title}`,
    `Story context: ${context || "(none given)"}`,
    ...characterLines(setting),
    ...groupLines(setting),
    ...playerLines(setting),
    "",
    character ? CHARACTER_ANSWER_FORMAT : ANSWER_FORMAT,
  ].join("\n");
}

/** The character a character teller plays, named and described (its words with the story's names in place). */
function characterLines(setting: StorySetting | null): string[] {
  const character = setting?.teller;
  if (!character) return [];
  const about = withNames(character.description, setting, character.name, character.ownName).trim();
  return ["", `${CHARACTER_HEADING} (${character.name}):`, about || "(no description given)"];
}

/** Heads the other characters present in a group turn's instructions (decision 0164). */
export const GROUP_HEADING = "Also present in this scene (speak only as yourself, never for them)";

/** The others present in a group scene, named and described (their words with the story's names in place). */
function groupLines(setting: StorySetting | null): string[] {
  const group = setting?.group;
  if (!group || group.others.length === 0) return [];
  return [
    "",
    `${GROUP_HEADING}:`,
    ...group.others.map((other) => {
      const about = withNames(other.description, setting, other.name).trim();
      return `- ${other.name}${about ? `: ${about}` : ""}`;
    }),
    "The transcript labels each line with who said it; answer with your own words only, unlabelled.",
  ];
}

/** What the offline provider plays a character from (decision 0154): the card's words, names in place. */
function characterFacts(setting: StorySetting | null): NarrationFacts["character"] {
  const character = setting?.teller;
  if (!character) return undefined;
  const named = (text: string) => withNames(text, setting, character.name, character.ownName);
  return {
    name: character.name,
    description: named(character.description),
    greeting: named(character.greeting),
    playerName: setting?.userName ?? "",
    ...(setting?.group
      ? {
          others: setting.group.others.map((other) => other.name),
          ...(setting.group.answering ? { answering: setting.group.answering } : {}),
        }
      : {}),
  };
}

/** The persona the player plays, named and described (its description with the story's names in place). */
function playerLines(setting: StorySetting | null): string[] {
  const player = setting?.player;
  if (!player) return [];
  const about = withNames(player.description, setting).trim();
  return ["", PLAYER_HEADING, `${player.name}${about ? `: ${about}` : ""}`];
}

/**
 * Splits the narrator's answer. The narrator is not asked for a SCENE line; one written anyway (a story's own
 * instructions may ask for it) stays out of the story text and is kept as the scene, so the media job need
 * not ask for one.
 */
export function parseNarration(answer: string): { storyText: string; scene: string | null } {
  const lines = answer.trim().split("\n");
  const sceneIndex = lines.findLastIndex((line) => /^\s*\**scene\**\s*:/i.test(line));
  if (sceneIndex === -1) return { storyText: answer.trim(), scene: null };
  const storyText = lines.slice(0, sceneIndex).join("\n").trim();
  const scene = lines
    .slice(sceneIndex)
    .join(" ")
    .replace(/^\s*\**scene\**\s*:\s*\**\s*/i, "")
    .trim();
  return { storyText: storyText || answer.trim(), scene: scene || null };
}

/** Names the illustrator's role for a vendor model (the offline provider goes by the request's purpose). */
const ILLUSTRATOR_ROLE = "Role: scene illustrator";

/** What the illustrator reads: the story, the player's words and the narrator's finished answer. */
export type SceneSource = {
  title: string | null;
  context: string | null;
  /** The player's words the answer follows ("" for a continue). */
  prompt: string;
  storyText: string;
};

/** The media job's request to the text provider for the scene prompt of a finished answer. */
export function scenePromptRequest(source: SceneSource): TextRequestFor<"scene"> {
  // The main chat (no story) is told what the narrator is told.
  const story = {
    title: source.title ?? MAIN_CHAT_SETTING.title,
    context: source.context || (source.title === null ? MAIN_CHAT_SETTING.context : ""),
  };
  const system = [
    ILLUSTRATOR_ROLE,
    "You write the prompt for one illustration of an interactive story: the moment the newest passage ends on.",
    'Answer with exactly one line that starts with "SCENE: " and describes the scene as a single paragraph:',
    "setting, characters and their look, lighting, mood and camera framing. No other text.",
    "",
    `Story title: ${story.title}`,
    `Story context: ${story.context || "(none given)"}`,
  ].join("\n");
  const passage = [
    ...(source.prompt.trim() ? [`Player: ${source.prompt.trim()}`, ""] : []),
    `Narrator: ${source.storyText.trim()}`,
  ].join("\n");
  return {
    purpose: "scene",
    story,
    playerWords: source.prompt.trim(),
    storyText: source.storyText.trim(),
    messages: [
      { role: "system", content: system },
      { role: "user", content: passage },
    ],
  };
}

/** The longest scene prompt kept (the image models read about this much). */
const SCENE_MAX_CHARS = 1000;

/** The illustrator's answer as the image prompt; an empty one falls back on the story text itself. */
export function parseScenePrompt(answer: string, storyText: string): string {
  const scene = answer
    .replace(/^[\s\S]*?^\s*\**scene\**\s*:\s*/im, "")
    .replace(/[*_`#]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return (scene || storyText.replace(/\s+/g, " ").trim()).slice(0, SCENE_MAX_CHARS);
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

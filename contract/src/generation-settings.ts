// A story's generation settings (issue #26): how long and how random the narrator writes, which text model it
// uses, where the Author's Note goes, how the scenes look, and how the player's words are sent (Do / Say / Story).
import { z } from "zod";
import { voiceIdSchema } from "./voice";

/** Output length → the most tokens the text provider is asked for (the answer includes the SCENE line). */
export const OUTPUT_LENGTHS = ["short", "medium", "long"] as const;
export type OutputLength = (typeof OUTPUT_LENGTHS)[number];
export const OUTPUT_LENGTH_MAX_TOKENS: Record<OutputLength, number> = { short: 400, medium: 900, long: 1600 };

/** Randomness is the provider's `temperature`; 0.9 is what every turn used before the settings. */
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 1.5;
export const DEFAULT_TEMPERATURE = 0.9;

/** How many messages from the end the Author's Note goes: 1 = just before the player's message (counted). */
export const AUTHORS_NOTE_DEPTH_MIN = 1;
export const AUTHORS_NOTE_DEPTH_MAX = 20;
export const DEFAULT_AUTHORS_NOTE_DEPTH = 1;

export const ART_STYLE_MAX_LENGTH = 200;
export const TEXT_MODEL_MAX_LENGTH = 200;

/** The picture shapes a story's scenes and a Studio batch can take (issue 45 item 2, decision 0149), each 2K long. */
export const ASPECT_RATIOS = ["1:1", "4:3", "3:4", "16:9", "9:16", "21:9"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export const ASPECT_RATIO_MESSAGE = "aspect_ratio must be one of 1:1, 4:3, 3:4, 16:9, 9:16 or 21:9";
/** The shapes' names in the web (Story Settings' "Scene shape", the Studio's "Shape"). */
export const ASPECT_RATIO_LABELS: Record<AspectRatio, string> = {
  "1:1": "1:1 square",
  "4:3": "4:3 landscape",
  "3:4": "3:4 portrait",
  "16:9": "16:9 wide",
  "9:16": "9:16 tall",
  "21:9": "21:9 cinema",
};

/** Do: "You <action>"; Say: `You say "<words>"`; Story: the player's words as narration, unchanged. */
export const INPUT_MODES = ["do", "say", "story"] as const;
export type InputMode = (typeof INPUT_MODES)[number];
export const inputModeSchema = z.enum(INPUT_MODES, { error: "input_mode must be one of do, say or story" });

/** The names the web shows (the composer's switch and the settings). */
export const INPUT_MODE_LABELS: Record<InputMode, string> = { do: "Do", say: "Say", story: "Story" };
export const OUTPUT_LENGTH_LABELS: Record<OutputLength, string> = {
  short: "Short",
  medium: "Medium",
  long: "Long",
};

const temperatureMessage = `temperature must be a number from ${TEMPERATURE_MIN} to ${TEMPERATURE_MAX}`;
const depthMessage = `authors_note_depth must be a whole number from ${AUTHORS_NOTE_DEPTH_MIN} to ${AUTHORS_NOTE_DEPTH_MAX}`;

/** Who tells a story (issue 43, decisions 0154 and 0164): the narrator, one character, or a group of cards. */
export const TELLERS = ["narrator", "character", "group"] as const;
export type Teller = (typeof TELLERS)[number];
export const tellerSchema = z.enum(TELLERS, { error: 'teller must be "narrator", "character" or "group"' });

/** How many characters a group scene holds (decision 0164). */
export const GROUP_MIN_CHARACTERS = 2;
export const GROUP_MAX_CHARACTERS = 8;
/**
 * Who speaks next in a group scene (decision 0164): "natural" (a character named in the player's line, else by
 * talkativeness), "round_robin" (in character_ids order), "manual" (the player names `speaker_id` each turn),
 * "all" (every unmuted character answers in turn: the answer lists `next_speakers`).
 */
export const SPEAKER_ORDERS = ["natural", "round_robin", "manual", "all"] as const;
export type SpeakerOrder = (typeof SPEAKER_ORDERS)[number];
export const speakerOrderSchema = z.enum(SPEAKER_ORDERS, {
  error: "speaker_order must be one of natural, round_robin, manual or all",
});

export const generationSettingsSchema = z.object({
  output_length: z.enum(OUTPUT_LENGTHS, { error: "output_length must be one of short, medium or long" }),
  temperature: z
    .number({ error: temperatureMessage })
    .min(TEMPERATURE_MIN, temperatureMessage)
    .max(TEMPERATURE_MAX, temperatureMessage),
  /** The text model, one the configured provider lists (GET /api/models); null: the provider's default. */
  text_model: z
    .string({ error: "text_model must be a model id or null" })
    .trim()
    .min(1, "text_model must be a model id or null")
    .max(TEXT_MODEL_MAX_LENGTH, `text_model must be at most ${TEXT_MODEL_MAX_LENGTH} characters`)
    .nullable(),
  authors_note_depth: z
    .number({ error: depthMessage })
    .int(depthMessage)
    .min(AUTHORS_NOTE_DEPTH_MIN, depthMessage)
    .max(AUTHORS_NOTE_DEPTH_MAX, depthMessage),
  /** Added to every scene's picture prompt ("watercolour", "1970s sci-fi paperback cover"). */
  art_style: z
    .string({ error: "art_style must be text" })
    .trim()
    .max(ART_STYLE_MAX_LENGTH, `art_style must be at most ${ART_STYLE_MAX_LENGTH} characters`),
  aspect_ratio: z.enum(ASPECT_RATIOS, { error: ASPECT_RATIO_MESSAGE }),
  /** The composer's input mode when a story opens (each turn may send its own). */
  input_mode: inputModeSchema,
  /** The narrator's voice, one of GET /api/voices (voice.ts); null: the speech provider's default. */
  narrator_voice: voiceIdSchema.nullable(),
  /** Read new turns aloud: each finished narrator message is narrated and played. */
  read_aloud: z.boolean({ error: "read_aloud must be true or false" }),
  /** Who the player plays (one of GET /api/personas, decision 0152); null: their default persona, if any. */
  persona_id: z.uuid("persona_id must be one of your personas or null").nullable(),
  /**
   * Who tells the story (decision 0154): "narrator", the second-person narrator; "character", the AI plays the
   * one card in `character_ids` in the first person and the player speaks as their persona.
   */
  teller: tellerSchema,
  /**
   * The card a character teller plays (exactly one), or a group's present characters in order (2 to 8,
   * decision 0164); kept when the narrator tells.
   */
  character_ids: z
    .array(z.uuid("character_ids must hold card ids of this story"), {
      error: "character_ids must be a list of card ids of this story",
    })
    .max(GROUP_MAX_CHARACTERS, `character_ids: a group holds at most ${GROUP_MAX_CHARACTERS} characters`),
  /** A group scene's order of speakers (decision 0164); "natural" when not set. */
  speaker_order: speakerOrderSchema.optional(),
  /** Present characters of a group who never speak (a subset of character_ids, not all of them). */
  muted_ids: z
    .array(z.uuid("muted_ids must hold card ids of the group's characters"), {
      error: "muted_ids must be a list of card ids of the group's characters",
    })
    .max(GROUP_MAX_CHARACTERS, `muted_ids: a group holds at most ${GROUP_MAX_CHARACTERS} characters`)
    .optional(),
  /**
   * Characters know what they saw (decision 0165): each speaker of a group is sent only the messages they were
   * present for (and the summary and recall only of those); Memory and lore stay shared. false when not set.
   */
  knows_what_they_saw: z.boolean({ error: "knows_what_they_saw must be true or false" }).optional(),
});
export type GenerationSettings = z.infer<typeof generationSettingsSchema>;

export const DEFAULT_GENERATION_SETTINGS: GenerationSettings = {
  output_length: "medium",
  temperature: DEFAULT_TEMPERATURE,
  text_model: null,
  authors_note_depth: DEFAULT_AUTHORS_NOTE_DEPTH,
  art_style: "",
  aspect_ratio: "4:3",
  input_mode: "story",
  narrator_voice: null,
  read_aloud: false,
  persona_id: null,
  teller: "narrator",
  character_ids: [],
};

/** PUT /api/stories/{id}/settings: the fields sent are replaced, the others kept. */
export const generationSettingsUpdateSchema = generationSettingsSchema
  .partial()
  .strict()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: `Nothing to update: send one of ${Object.keys(generationSettingsSchema.shape).join(", ")}`,
  });
export type GenerationSettingsUpdate = z.input<typeof generationSettingsUpdateSchema>;

export const generationSettingsResponseSchema = generationSettingsSchema.extend({
  success: z.literal(true),
  /** What a turn sends: `text_model`, or the provider's default when it is null. */
  effective_text_model: z.string(),
  /** The most tokens a turn asks for (from `output_length`). */
  max_tokens: z.number().int(),
});
export type GenerationSettingsResponse = z.infer<typeof generationSettingsResponseSchema>;

/** GET /api/models: the text models the configured provider offers. */
export const textModelsResponseSchema = z.object({
  success: z.literal(true),
  /** "offline", "openai", "byteplus". */
  provider: z.string(),
  /** What a story without a chosen model uses. */
  default_model: z.string(),
  models: z.array(z.object({ id: z.string() })),
});
export type TextModelsResponse = z.infer<typeof textModelsResponseSchema>;

/** First-person words as the narrator reads them ("I am" and "I was" keep their verb in agreement). */
const SECOND_PERSON: Record<string, string> = {
  "i am": "you are",
  "i was": "you were",
  "i'm": "you are",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  i: "you",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
};
const FIRST_PERSON = /\b(?:i am|i was|i['’]m|i['’]ve|i['’]ll|i['’]d|i|me|my|mine|myself)\b/gi;

/** Words that start a description rather than an action: "The door opens", "Suddenly the floor gives". */
const NOT_AN_ACTION = new Set(
  (
    "a an the this that these those some every each no any another all both either neither he she it they we " +
    "his her hers its their them us our ours theirs there here someone something everyone everything nobody " +
    "nothing and but or so then when while as if because after before until in on at under over through " +
    "inside outside behind beneath above across into onto from with without by near along around meanwhile " +
    "suddenly later soon now what who where why how which whose is are was were"
  ).split(" "),
);
/** Second words ending in "s" that are no verb ("Run towards the gate"). */
const NOT_THIRD_PERSON = new Set(
  "towards afterwards backwards forwards upwards downwards across always perhaps its this his hers yours ours theirs as us outdoors indoors upstairs downstairs".split(
    " ",
  ),
);

const sentenceEnd = /[.!?…"'”’)\]]$/;
const withStop = (sentence: string) => (sentenceEnd.test(sentence) ? sentence : `${sentence}.`);

/** Whether `word` (lower case) reads as a verb of someone else: "Mara laughs", "The bell rang", "Ada is". */
const thirdPersonVerb = (word: string) =>
  /^(?:is|was|has|had|does|did|says|are|were)$/.test(word) ||
  (/^[a-z]{3,}s$/.test(word) && !word.endsWith("ss") && !NOT_THIRD_PERSON.has(word)) ||
  /^[a-z]{3,}ed$/.test(word);

/**
 * A Do turn's words as a second-person action, or as typed. First person anywhere becomes second person in
 * place ("I draw my sword!" → "You draw your sword!", "Underwater, I look for the door." → "Underwater, you
 * look for the door."); a leading "you" stays; words that start like a command ("open the door", "Open the
 * door") get "You" in front; anything else (a name doing something, "NASA calls", "Underwater, look...") is left
 * as the player wrote it, never with a "You" glued on.
 */
function doAction(words: string): string {
  const you = /^you\s+(.+)$/is.exec(words);
  if (you) return withStop(`You ${you[1]!}`);
  if (new RegExp(FIRST_PERSON.source, "i").test(words)) {
    const rewritten = words.replace(FIRST_PERSON, (match, offset: number, whole: string) => {
      const swap = SECOND_PERSON[match.toLowerCase().replace("’", "'")] ?? match;
      const startsSentence = offset === 0 || /[.!?…]["”’]?\s+$/.test(whole.slice(0, offset));
      return startsSentence ? swap.charAt(0).toUpperCase() + swap.slice(1) : swap;
    });
    return withStop(rewritten);
  }
  const [first = "", second = ""] = words.split(/\s+/, 2);
  const bare = first.toLowerCase();
  const plainWord = /^[a-z]+$/.test(first) || /^[A-Z][a-z]+$/.test(first);
  // A first word in "-s" is a plural or someone else's verb ("Guards rush in", "Rain falls"), as is a second.
  const command =
    plainWord &&
    !NOT_AN_ACTION.has(bare) &&
    !(bare.endsWith("s") && !bare.endsWith("ss")) &&
    !thirdPersonVerb(second.toLowerCase().replace(/[^a-z]/g, ""));
  if (!command) return words;
  return withStop(`You ${bare}${words.slice(first.length)}`);
}

/**
 * The player's words as the narrator reads them (and the story shows them). Do: a clean second-person action
 * or the words as typed (doAction); Say: `You say "Hello."` (quotes the player typed are not doubled); Story:
 * unchanged.
 */
export function formatPlayerInput(mode: InputMode, text: string): string {
  const words = text.trim();
  if (!words || mode === "story") return words;
  if (mode === "say") {
    const said = words.replace(/^["“]+|["”]+$/g, "").trim();
    return `You say "${said || words}"`;
  }
  return doAction(words);
}

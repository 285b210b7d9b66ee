// The offline narrator: turns a chat (narrator system prompt, history, the player's prompt) into a story
// turn in the format the chat service parses (1-3 paragraphs of second-person prose, a blank line, then
// one "SCENE: ..." line), or into prompt-writing advice when the system prompt asks for the Studio's
// advisor. Everything is picked by a PRNG seeded from the whole conversation, so it is deterministic.
import type { ChatMessage } from "../types";
import {
  ACTION_VERBS,
  ADVICE_CAMERA,
  ADVICE_FOCUS,
  ADVICE_LIGHT,
  ADVICE_MOMENT,
  ADVICE_PALETTE,
  ADVICE_STYLE,
  COMPOSITIONS,
  CONTEXT_TIES,
  DEVELOPMENTS,
  FALLBACK_NOUNS,
  FALLBACK_PLACES,
  HOOKS,
  LIGHTING,
  MOODS,
  OPENINGS,
  REACTIONS,
  SENSES,
  SETTINGS,
  SMELLS,
  SOUNDS,
  STOP_WORDS,
} from "./narrator-lexicon";
import { type Biome, namedBiome, namedTime, promptWords, SCENE_NOUNS, type TimeOfDay } from "./scene-theme";
import { createRng, hashString, type Rng } from "./seeded";

export type Conversation = {
  title: string;
  context: string;
  /** The player's newest message. */
  prompt: string;
  /** The narrator's previous turn, without its SCENE line, for a touch of continuity. */
  previous: string;
  advisor: boolean;
};

/** Longest stretch of the player's words the narrator repeats back. */
const ECHO_WORDS = 28;
const MIN_WORDS = 60;
const MAX_WORDS = 160;

export function readConversation(messages: readonly ChatMessage[]): Conversation {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  const field = (name: string): string => {
    // The value runs to the end of its paragraph: a story context may span several lines.
    const match = new RegExp(
      `^[ \\t]*${name}:[ \\t]*(.*(?:\\n(?![ \\t]*\\n)(?![ \\t]*[A-Z][A-Za-z ]{1,30}:).*)*)`,
      "mi",
    ).exec(system);
    return clean(match?.[1] ?? "");
  };
  const users = messages.filter((m) => m.role === "user");
  const assistants = messages.filter((m) => m.role === "assistant");
  const lastAssistant = assistants[assistants.length - 1]?.content ?? "";
  return {
    title: field("Story title"),
    context: field("Story context"),
    prompt: clean(users[users.length - 1]?.content ?? ""),
    previous: clean(lastAssistant.replace(/^\s*SCENE:.*$/gim, "")),
    advisor: /role:\s*prompt advisor/i.test(system),
  };
}

/** One line of plain words: no Markdown emphasis or SCENE markers smuggled in from user text. */
function clean(text: string): string {
  return text
    .replace(/\bSCENE:/gi, "")
    .replace(/[*_`#>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function truncateWords(text: string, max: number): string {
  const words = text.split(" ");
  return words.length <= max ? text : `${words.slice(0, max).join(" ")}…`;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const SECOND_PERSON: Record<string, string> = {
  i: "you",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
  "i'm": "you're",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  am: "are",
  we: "you",
  us: "you",
  our: "your",
  ours: "yours",
  ourselves: "yourselves",
};

/** "I draw my sword" -> "you draw your sword". */
export function toSecondPerson(text: string): string {
  return text.replace(/\b[A-Za-z]+(?:'[a-z]+)?\b/g, (word) => {
    const swap = SECOND_PERSON[word.toLowerCase()];
    if (!swap) return word;
    // "I" is always capitalised, so only other words keep their capital (a sentence start like "We").
    const startsSentence = !/^I\b/.test(word) && word[0] !== word[0]!.toLowerCase();
    return startsSentence ? capitalize(swap) : swap;
  });
}

const DETERMINERS = new Set("a an the my your his her their our its this that these those some".split(" "));
/** Possessives keep their owner when re-mentioned ("her lantern"); first person becomes "your". */
const KEPT_DETERMINERS = new Set(["his", "her", "their", "your", "its"]);

/**
 * Noun phrases worth repeating, best first, each with the article it should be re-mentioned with. There is
 * no part-of-speech tagger offline, so only confident phrases count: a run of words right after a
 * determiner ("the rusty door"), a capitalised name ("Mara"), or a word the painter knows ("night").
 */
export function keyPhrases(text: string, max: number): string[] {
  type Candidate = { phrase: string; score: number; index: number };
  const candidates: Candidate[] = [];
  const isCapital = (word: string): boolean => /^[A-Z]/.test(word);
  let index = 0;
  // Punctuation ends a phrase.
  for (const segment of text.split(/[.,;:!?()"“”–—]+|\s-\s/)) {
    const tokens = segment.split(/\s+/).filter(Boolean);
    let run: string[] = [];
    let before = "";
    const flush = (): void => {
      const words = run.slice(-3);
      run = [];
      if (words.length === 0) return;
      const lower = words.map((w) => w.toLowerCase());
      const det = before.toLowerCase();
      const name = isCapital(words[0]!);
      if (name) {
        // A capital at the start of a sentence may just be the sentence: plurals there are common nouns.
        const start = before === "" && words.length === 1;
        if (start && lower[0]!.endsWith("s")) {
          candidates.push({ phrase: `the ${lower[0]}`, score: 1, index: index++ });
        } else {
          candidates.push({ phrase: words.join(" "), score: 2 + (words.length > 1 ? 1 : 0), index: index++ });
        }
      } else if (DETERMINERS.has(det)) {
        const article = ["my", "our"].includes(det) ? "your" : KEPT_DETERMINERS.has(det) ? det : "the";
        candidates.push({
          phrase: `${article} ${lower.join(" ")}`,
          score: 3 + (words.length > 1 ? 1 : 0),
          index: index++,
        });
      } else if (lower.length === 1 && SCENE_NOUNS.has(lower[0]!)) {
        candidates.push({ phrase: `the ${lower[0]}`, score: 1, index: index++ });
      }
    };
    for (const token of tokens) {
      const word = token.replace(/^['’]+|['’]+$/g, "");
      const lower = word.toLowerCase();
      const plain = /^[a-z][a-z'’-]*$/i.test(word) && !STOP_WORDS.has(lower) && !ACTION_VERBS.has(lower);
      // Names and common words do not share a run: "Mara lights" is a name and a verb.
      if (plain && run.length > 0 && isCapital(run[0]!) !== isCapital(word)) {
        const last = run[run.length - 1]!;
        flush();
        before = last;
      }
      if (plain) {
        run.push(word);
      } else {
        flush();
        before = word;
      }
    }
    flush();
  }
  const seen = new Set<string>();
  return candidates
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((c) => c.phrase)
    .filter((phrase) => {
      const key = phrase.toLowerCase().replace(/^(the|your|his|her|their|its) /, "");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, max);
}

/** Words that make a phrase a place the story can stand in, rather than a person or a thing. */
const PLACE_WORDS = new Set([
  ...SCENE_NOUNS,
  ...(
    "room hall library cave cavern tunnel road bridge harbor harbour port market square garden field marsh " +
    "swamp lake river realm land kingdom station ship deck attic cellar crypt dungeon camp town gate court"
  ).split(" "),
]);
const isPlace = (phrase: string): boolean => PLACE_WORDS.has(phrase.split(" ").pop()!.toLowerCase());

type Slots = Record<string, string | undefined>;

/** Fills {slot} and {Slot} (capitalised) from the slots; null when a slot is missing. */
function fill(template: string, slots: Slots): string | null {
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = slots[key.toLowerCase()];
    if (!value) {
      missing = true;
      return "";
    }
    return key[0] === key[0]!.toUpperCase() ? capitalize(value) : value;
  });
  return missing ? null : capitalize(text);
}

function pickSentence(
  rng: Rng,
  templates: readonly string[],
  slots: Slots,
  used: Set<string>,
): string | null {
  const usable = templates
    .map((template) => fill(template, slots))
    .filter((text): text is string => text !== null && !used.has(text));
  if (usable.length === 0) return null;
  const chosen = rng.pick(usable);
  used.add(chosen);
  return chosen;
}

/** The player's own words as the turn's central action, in the second person. */
function actionSentence(prompt: string, rng: Rng): string {
  if (!prompt) return "You pause, and take in everything around you.";
  const text = truncateWords(prompt.replace(/[.!\s]+$/, ""), ECHO_WORDS);
  const first = text.split(" ")[0]!.toLowerCase();
  if (text.endsWith("?")) return `*${text}* you ask, and the question hangs in the air.`;
  if (["i", "i'm", "i've", "i'll", "i'd", "we"].includes(first))
    return `${capitalize(toSecondPerson(text))}.`;
  if (ACTION_VERBS.has(first)) return `You ${first}${toSecondPerson(text.slice(first.length))}.`;
  const body = STOP_WORDS.has(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
  const lead = rng.pick([
    "Then it happens:",
    "And there it is:",
    "It begins without warning:",
    "Before you:",
  ]);
  return `${lead} ${toSecondPerson(body)}.`;
}

/** What the turn looks like, decided once so the prose and the SCENE line agree. */
type Staging = { biome: Biome; time: TimeOfDay };

function stage(conversation: Conversation, rng: Rng): Staging {
  const sources = [conversation.prompt, conversation.context, conversation.title];
  const biome =
    sources.map(namedBiome).find((b) => b !== null) ?? rng.pick(["mountains", "forest", "ocean"] as const);
  // The painter keeps cities and space after dark unless told otherwise; say the same.
  const named = sources.map(namedTime).find((t) => t !== null);
  const time =
    named ??
    (biome === "city" || biome === "space" ? "night" : rng.pick(["night", "sunset", "dawn", "day"] as const));
  return { biome, time };
}

const LIGHT_BY_TIME: Record<TimeOfDay, readonly string[]> = {
  night: ["pale moonlight", "lantern light", "cold starlight"],
  sunset: ["the last amber light", "low golden light"],
  dawn: ["a thin grey dawn", "the first pink light"],
  day: ["hard bright daylight", "clear noon light"],
};

function sceneLine(
  conversation: Conversation,
  staging: Staging,
  rng: Rng,
  nouns: string[],
  descriptive: boolean,
  context: string[],
): string {
  const words = new Set(promptWords(conversation.prompt));
  const mood = ["dark", "blood", "death", "fear", "danger", "storm", "monster", "curse"].some((w) =>
    words.has(w),
  )
    ? "ominous"
    : ["calm", "peace", "peaceful", "rest", "home", "quiet", "gentle"].some((w) => words.has(w))
      ? "serene"
      : rng.pick(MOODS);
  const subject = descriptive
    ? truncateWords(conversation.prompt.replace(/[.!?\s]+$/, ""), 25)
    : `a lone cloaked figure seen from behind, facing ${nouns.slice(0, 2).join(" and ")}`;
  const echo = context.length ? `, with hints of ${context.slice(0, 2).join(" and ")}` : "";
  return `SCENE: ${capitalize(subject)}, set in ${SETTINGS[staging.biome]}${echo}; ${LIGHTING[staging.time]}; a ${mood} atmosphere. ${capitalize(rng.pick(COMPOSITIONS))}, stylised digital painting, rich colour, no text.`;
}

function storyTurn(conversation: Conversation, rng: Rng): string {
  const staging = stage(conversation, rng);
  const promptNouns = keyPhrases(conversation.prompt, 3);
  const contextPhrases = keyPhrases(conversation.context, 6).filter(
    (phrase) => !promptNouns.some((p) => p.toLowerCase() === phrase.toLowerCase()),
  );
  const contextThings = contextPhrases.filter((phrase) => !isPlace(phrase));
  const contextPlaces = contextPhrases.filter(isPlace);
  const fallback = rng.shuffle(FALLBACK_NOUNS).map((noun) => `the ${noun}`);
  const nouns = [...promptNouns, ...contextThings, ...fallback];
  const first = conversation.prompt.split(" ")[0]?.toLowerCase() ?? "";
  const descriptive =
    conversation.prompt !== "" &&
    !conversation.prompt.trim().endsWith("?") &&
    !ACTION_VERBS.has(first) &&
    !["i", "i'm", "i've", "i'll", "i'd", "we"].includes(first);

  const slots: Slots = {
    n1: nouns[0],
    n2: nouns[1],
    ctx:
      contextThings.find((phrase) => !promptNouns.includes(phrase) && phrase !== nouns[1]) ??
      contextPlaces[0] ??
      (conversation.title ? `*${conversation.title}*` : undefined),
    prev: keyPhrases(conversation.previous, 1)[0],
    title: conversation.title || undefined,
    place: contextPlaces[0] ?? promptNouns.find(isPlace) ?? rng.pick(FALLBACK_PLACES),
    smell: rng.pick(SMELLS),
    sound: rng.pick(SOUNDS),
    light: rng.pick(LIGHT_BY_TIME[staging.time]),
  };
  const used = new Set<string>();
  const say = (templates: readonly string[]): string | null => pickSentence(rng, templates, slots, used);
  const action = actionSentence(conversation.prompt, rng);

  // Three shapes of turn, so consecutive answers do not share one skeleton.
  const shape = rng.int(0, 2);
  let paragraphs: (string | null)[][];
  if (shape === 0) {
    paragraphs = [[action, say(REACTIONS)], [say(SENSES), say(CONTEXT_TIES)], [say(HOOKS)]];
  } else if (shape === 1) {
    paragraphs = [
      [say(OPENINGS), action],
      [say(REACTIONS), say(SENSES), say(HOOKS)],
    ];
  } else {
    paragraphs = [
      [say(OPENINGS), action, say(REACTIONS)],
      [say(CONTEXT_TIES), say(DEVELOPMENTS)],
      [say(HOOKS)],
    ];
  }
  let blocks = paragraphs
    .map((sentences) => sentences.filter((s): s is string => s !== null))
    .filter((b) => b.length);

  // The turn must visibly belong to this story: if no sentence mentions the context yet, add one.
  const contextual = [...contextPlaces, ...contextThings, conversation.title]
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  const mentionsContext = (): boolean =>
    contextual.some((p) => blocks.some((b) => b.join(" ").toLowerCase().includes(p)));
  if (contextual.length > 0 && !mentionsContext()) {
    const tie = say(CONTEXT_TIES.filter((template) => template.includes("{ctx}")));
    const target = blocks[Math.min(1, blocks.length - 1)]!;
    if (tie) target.splice(Math.max(0, target.length - 1), 0, tie);
  }

  const total = (): number => blocks.reduce((sum, block) => sum + countWords(block.join(" ")), 0);
  // Stay inside 60-160 words: add colour to the middle, or trim it, never the action or the hook.
  const middle = (): string[] => blocks[Math.min(1, blocks.length - 1)]!;
  for (const pool of [SENSES, DEVELOPMENTS, REACTIONS, SENSES, DEVELOPMENTS]) {
    if (total() >= MIN_WORDS + 10) break;
    const extra = say(pool);
    if (extra) middle().splice(Math.max(0, middle().length - 1), 0, extra);
  }
  while (total() > MAX_WORDS) {
    const longest = blocks.reduce((a, b) => (b.length > a.length ? b : a));
    const removable = longest.findIndex((s) => s !== action && longest.length > 1);
    if (removable < 0) break;
    longest.splice(removable, 1);
    blocks = blocks.filter((b) => b.length);
  }
  const story = blocks.map((block) => block.join(" ")).join("\n\n");
  return `${story}\n\n${sceneLine(conversation, staging, rng, nouns, descriptive, [...contextPlaces, ...contextThings])}`;
}

function advice(conversation: Conversation, rng: Rng): string {
  const idea = truncateWords(conversation.prompt.replace(/[.!?\s]+$/, ""), 30) || "your scene";
  const quoted = `*${idea}*`;
  const bullets = rng
    .shuffle([
      `- **Set the light:** "${idea}, ${rng.pick(ADVICE_LIGHT)}, ${rng.pick(ADVICE_CAMERA)}"`,
      `- **Give the eye a focal point:** "${idea}, with ${rng.pick(ADVICE_FOCUS)} in the foreground"`,
      `- **Pick a style:** "${idea}, ${rng.pick(ADVICE_STYLE)}, ${rng.pick(ADVICE_PALETTE)}"`,
      `- **Freeze a moment:** "${idea}, just as ${rng.pick(ADVICE_MOMENT)}, ${rng.pick(ADVICE_CAMERA)}"`,
      `- **Add texture and weather:** "${idea}, drifting mist, fine detail, ${rng.pick(ADVICE_LIGHT)}"`,
    ])
    .slice(0, rng.int(3, 5));
  return [
    `Here are a few stronger ways to phrase ${quoted}:`,
    "",
    ...bullets,
    "",
    "Tip: lead with the subject, then the setting, the light and the style, and keep one clear focal point.",
  ].join("\n");
}

/** The whole answer for a conversation: same messages, same text. */
export function narrate(messages: readonly ChatMessage[]): string {
  const conversation = readConversation(messages);
  const rng = createRng(hashString(messages.map((m) => `${m.role}\u0000${m.content}`).join("\u0001")));
  return conversation.advisor ? advice(conversation, rng) : storyTurn(conversation, rng);
}

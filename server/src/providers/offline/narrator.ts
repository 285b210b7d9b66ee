// The offline narrator: answers a text request by its purpose (decision 0151): a story turn (1-3 paragraphs
// of second-person prose) or a Continue of the last answer, the illustrator's one "SCENE: ..." line for a
// finished turn, prompt-writing advice for the Studio, a card draft or the rolling summary. What it writes
// from is the request's typed facts (the story's title and context, the cards and recalled turns given) and
// the conversation's roles (the player's messages, the narrator's answers), never the instructions' wording.
// Everything is picked by a PRNG seeded from the purpose, the facts and the conversation: it is deterministic.
import {
  type ChatMessage,
  type NarrationFacts,
  ProviderError,
  type TextRequest,
  type TextRequestFor,
} from "../types";
import { draftCardOffline } from "./card-drafter";
import { characterTurn } from "./character";
import {
  ACTION_VERBS,
  ADVICE_CAMERA,
  ADVICE_FOCUS,
  ADVICE_LIGHT,
  ADVICE_MOMENT,
  ADVICE_PALETTE,
  ADVICE_QUALITIES,
  ADVICE_STYLE,
  ADVICE_TIPS,
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
import { capitalize, isPlace, keyPhrases, toSecondPerson } from "./phrases";
import { type Biome, namedBiome, namedTime, promptWords, type TimeOfDay } from "./scene-theme";
import { createRng, hashString, type Rng } from "./seeded";
import { summariseOffline } from "./summariser";

export type Conversation = {
  title: string;
  context: string;
  /** The player's newest message. */
  prompt: string;
  /** The narrator's previous turn, without its SCENE line, for a touch of continuity. */
  previous: string;
  /** Every earlier narrator turn still in view, oldest first: its sentences are not used again. */
  earlier: string[];
  /** The player's earlier messages, oldest first (the advisor falls back on them for a subject). */
  earlierPrompts: string[];
  /** The Story Cards the narrator was given (active this turn), in the order given. */
  cards: { name: string; kind: string }[];
  /** Older exchanges recalled for this turn (the recall block), in story order. */
  recalled: { turn: number; narrator: string }[];
};

/** Longest stretch of the player's words the narrator repeats back. */
const ECHO_WORDS = 28;
const MIN_WORDS = 60;
const MAX_WORDS = 160;

/** No story, cards or recalled turns: what the advisor writes from besides the conversation. */
const NO_FACTS: NarrationFacts = { story: { title: "", context: "" }, cards: [], recalled: [] };

/** The conversation by its roles, with the facts the request carries. */
export function readConversation(
  messages: readonly ChatMessage[],
  facts: NarrationFacts = NO_FACTS,
): Conversation {
  const users = messages.filter((m) => m.role === "user");
  const assistants = messages.filter((m) => m.role === "assistant");
  const lastAssistant = assistants[assistants.length - 1]?.content ?? "";
  return {
    title: clean(facts.story.title),
    context: clean(facts.story.context),
    prompt: clean(users[users.length - 1]?.content ?? ""),
    previous: clean(lastAssistant.replace(/^\s*SCENE:.*$/gim, "")),
    earlier: assistants.map((m) => clean(m.content.replace(/^\s*SCENE:.*$/gim, ""))),
    earlierPrompts: users.slice(0, -1).map((m) => clean(m.content)),
    cards: facts.cards.map((card) => ({ name: clean(card.name), kind: card.kind })),
    recalled: facts.recalled.map((line) => ({ turn: line.turn, narrator: clean(line.narrator) })),
  };
}

/** A word as compared for recall: lower case, without a possessive or a plural "s". */
const stem = (word: string) =>
  word
    .toLowerCase()
    .replace(/['’]s$/, "")
    .replace(/s$/, "");

/**
 * When the player asks after something a recalled turn told (a question, or "remember"), the narrator brings it
 * back: the recalled sentence that shares the most words with the player's (at least two), as a memory of that
 * turn.
 */
function recalledSentence(conversation: Conversation): string | null {
  // Only a question, or words asking to remember: a plain action that echoes an old turn is not a memory.
  if (!/\?|\b(?:remember|recall|who was|what was)\b/i.test(conversation.prompt)) return null;
  const asked = new Set(
    (conversation.prompt.match(/[\p{L}'’]+/gu) ?? [])
      .filter((word) => word.length > 2 && !STOP_WORDS.has(word.toLowerCase()))
      .map(stem),
  );
  let best: { sentence: string; turn: number; shared: number } | null = null;
  for (const line of conversation.recalled) {
    for (const sentence of line.narrator.split(/(?<=[.!?…])\s+/)) {
      const words = new Set((sentence.match(/[\p{L}'’]+/gu) ?? []).map(stem));
      const shared = [...asked].filter((word) => words.has(word)).length;
      if (shared >= 2 && (!best || shared > best.shared)) best = { sentence, turn: line.turn, shared };
    }
  }
  if (!best) return null;
  const told = best.sentence.replace(/^[“"]|[”"]$/g, "").trim();
  return `You think back to turn ${best.turn}: ${told.charAt(0).toLowerCase()}${told.slice(1)}`;
}

/** How the narrator brings a card into the turn, by its kind. */
const CARD_MENTIONS: Record<string, readonly string[]> = {
  character: [
    "{name} is close by, watching you with a look you have seen before.",
    "{name} steps into the light beside you.",
    "Somewhere near, {name} says your name quietly.",
  ],
  place: [
    "This is {name}, just as you remember it.",
    "The air of {name} settles around you.",
    "Everything here still speaks of {name}.",
  ],
  thing: [
    "{name} is within reach, exactly as it was.",
    "Your eyes keep returning to {name}.",
    "{name} catches the light for a moment.",
  ],
  other: ["{name} is part of this moment too.", "You cannot stop thinking of {name}."],
};

/** One sentence per card the turn does not name yet (at most three), chosen by the name so it is stable. */
function cardSentences(cards: Conversation["cards"], story: string): string[] {
  return cards
    .filter((card) => !story.toLowerCase().includes(card.name.toLowerCase()))
    .slice(0, 3)
    .map((card) => {
      const templates = CARD_MENTIONS[card.kind] ?? CARD_MENTIONS.other!;
      const template = templates[hashString(card.name) % templates.length]!;
      const sentence = template.replace("{name}", card.name);
      return capitalize(sentence);
    });
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

const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

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

/** The template's longest fixed stretch of words: if an earlier turn contains it, the template was used. */
function signature(template: string): string {
  return (
    template
      .split(/\{\w+\}/)
      // Earlier turns are read through clean(), so compare in the same plain form.
      .map((part) => clean(part).toLowerCase())
      .reduce((a, b) => (b.length > a.length ? b : a), "")
  );
}

function pickSentence(
  rng: Rng,
  templates: readonly string[],
  slots: Slots,
  used: Set<string>,
  earlier: readonly string[],
): string | null {
  const filled = templates
    .map((template) => ({ template, text: fill(template, slots) }))
    .filter((c): c is { template: string; text: string } => c.text !== null && !used.has(c.text));
  if (filled.length === 0) return null;
  // Fresh first: a template no turn in view has used; then one the last two turns have not; then any.
  const seenIn = (turns: readonly string[], template: string): boolean => {
    const sig = signature(template);
    return sig.length >= 8 && turns.some((turn) => turn.toLowerCase().includes(sig));
  };
  const tiers = [
    filled.filter((c) => !seenIn(earlier, c.template)),
    filled.filter((c) => !seenIn(earlier.slice(-2), c.template)),
    filled,
  ];
  const chosen = rng.pick(tiers.find((tier) => tier.length > 0)!).text;
  used.add(chosen);
  return chosen;
}

/** Words a player puts before what they mean: "please open the door", "ok so I run". */
const LEAD_INS = /^(?:(?:please|ok|okay|so|then|now|and|well|alright|hmm+|um+|oh)\b[,!.]?\s+)+/i;
const LETS = /^(?:let'?s|lets|let us)\s+/i;
const SUBJECTS = new Set(
  "i i'm i've i'll i'd we we're we've we'll we'd you you're you've you'll you'd".split(" "),
);
const GREETINGS = new Set("hello hi hey greetings goodbye bye farewell thanks thank welcome".split(" "));
const QUESTION_WORDS = new Set("what who whom where when why how which whose".split(" "));

/** What kind of thing the player wrote, and their words ready to be echoed. */
export type PromptReading = {
  kind: "none" | "question" | "speech" | "subject" | "imperative" | "event";
  /** The player's words: trimmed, lead-ins dropped, at most ECHO_WORDS words, no closing punctuation. */
  text: string;
  /** How the words ended: "?", "!" or "" (and "…" when cut short). */
  end: string;
};

/** How a Say turn reaches the narrator (formatPlayerInput): `You say "..."`; the words inside are the speech. */
const SAY_FORM = /^you say\s+["“](.*?)["”]?$/is;

export function readPrompt(prompt: string): PromptReading {
  const trimmed = prompt.trim();
  const said = SAY_FORM.exec(trimmed)?.[1];
  const inner = said ?? trimmed;
  const unquoted = inner.replace(/^["“'‘]+|["”'’]+$/g, "");
  // Narration with a quotation in it ('"Tell me," I say to the keeper'): echoed as written, quoted once.
  const mixed = said === undefined && /["“”]/.test(unquoted);
  const quoted = !mixed && (said !== undefined || unquoted !== inner);
  let text = (mixed ? inner : unquoted).replace(LEAD_INS, "");
  const lets = LETS.test(text);
  text = text.replace(LETS, "");
  const long = text.split(" ").length > ECHO_WORDS;
  text = truncateWords(text, ECHO_WORDS).replace(/…$/, "");
  const mark = /[?!]/.exec(text.replace(/[\s.]+$/, "").slice(-1))?.[0] ?? "";
  text = text.replace(/[\s.!?…,;:]+$/, "");
  // Speech and questions are echoed inside quotes of their own, so quotes within them become single ones.
  if (!mixed) text = text.replace(/"/g, "'");
  const end = long ? "…" : mark;
  if (!text) return { kind: "none", text: "", end: "" };
  if (mixed) return { kind: "subject", text, end };
  const first = text
    .split(/\s+/)[0]!
    .toLowerCase()
    .replace(/[^a-z']/g, "");
  if (mark === "?" || QUESTION_WORDS.has(first)) return { kind: "question", text, end };
  if (quoted || GREETINGS.has(first)) return { kind: "speech", text, end };
  if (lets || ACTION_VERBS.has(first)) return { kind: "imperative", text, end };
  if (SUBJECTS.has(first)) return { kind: "subject", text, end };
  return { kind: "event", text, end };
}

/** `text` with `change` applied to its narration only: the words inside "quotes" are someone's own. */
const outsideQuotes = (text: string, change: (part: string) => string) =>
  text
    .split(/(["“][^"“”]*["”])/)
    .map((part, index) => (index % 2 === 1 ? part : change(part)))
    .join("");

/** The player's own words as the turn's central action, in the second person and a whole sentence. */
function actionSentence(prompt: string, rng: Rng): string {
  const { kind, text, end } = readPrompt(prompt);
  const stop = end === "…" ? "…" : end === "!" ? "!" : ".";
  switch (kind) {
    case "none":
      return "You pause, and take in everything around you.";
    case "question":
      // Their own words, so the question stays in their voice.
      return `"${capitalize(text)}${end === "…" ? "…" : "?"}" you ${rng.pick([
        "ask, and the question hangs in the air.",
        "ask. For a moment, nothing answers.",
        "ask, half to yourself.",
        "ask aloud, and your voice carries further than you expected.",
      ])}`;
    case "speech":
      return end === "!" || end === "?"
        ? `"${capitalize(text)}${end}" you call out.`
        : `"${capitalize(text)}${end === "…" ? "…" : ","}" you say.`;
    case "subject":
      return `${capitalize(outsideQuotes(text, toSecondPerson))}${stop}`;
    case "imperative": {
      const [verb, ...rest] = text.split(" ");
      const tail = rest.length ? ` ${toSecondPerson(rest.join(" "))}` : "";
      return `You ${verb!.toLowerCase()}${tail}${stop}`;
    }
    default: {
      const first = text.split(" ")[0]!;
      // "the bell rings": a lowercase start reads on after the colon; names keep their capital.
      const body = STOP_WORDS.has(first.toLowerCase())
        ? first.toLowerCase() + text.slice(first.length)
        : text;
      const lead = rng.pick(["Then it happens:", "And there it is:", "It begins without warning:"]);
      return `${lead} ${toSecondPerson(body)}${stop}`;
    }
  }
}

/** What the turn looks like: the prose's light, and the scene the illustrator describes for it. */
type Staging = { biome: Biome; time: TimeOfDay };

/** `prose`: the finished turn the scene is written for; the light it names sets the time of day. */
function stage(conversation: Conversation, rng: Rng, prose = ""): Staging {
  const sources = [conversation.prompt, conversation.context, conversation.title];
  const biome =
    sources.map(namedBiome).find((b) => b !== null) ?? rng.pick(["mountains", "forest", "ocean"] as const);
  // The painter keeps cities and space after dark unless told otherwise; say the same.
  const named = sources.map(namedTime).find((t) => t !== null) ?? lightOf(prose);
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

/** The time of day whose light a turn's prose names, so the scene is lit as the words say. */
function lightOf(prose: string): TimeOfDay | null {
  const text = prose.toLowerCase();
  const times = Object.keys(LIGHT_BY_TIME) as TimeOfDay[];
  return times.find((time) => LIGHT_BY_TIME[time].some((light) => text.includes(light))) ?? null;
}

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
    ? truncateWords(readPrompt(conversation.prompt).text, 25)
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
  const say = (templates: readonly string[]): string | null =>
    pickSentence(rng, templates, slots, used, conversation.earlier);
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
  // Active Story Cards are named in the turn: the player sees the narrator knows who and where.
  const named = cardSentences(conversation.cards, blocks.map((b) => b.join(" ")).join(" "));
  // What the player asks after from long ago comes back, as the turn's first words after the action.
  const remembered = recalledSentence(conversation);
  if (remembered) named.unshift(remembered);
  if (named.length) middle().splice(Math.max(0, middle().length - 1), 0, ...named);
  const mentionsCard = (sentence: string) => named.includes(sentence);
  while (total() > MAX_WORDS) {
    const longest = blocks.reduce((a, b) => (b.length > a.length ? b : a));
    const removable = longest.findIndex((s) => s !== action && !mentionsCard(s) && longest.length > 1);
    if (removable < 0) break;
    longest.splice(removable, 1);
    blocks = blocks.filter((b) => b.length);
  }
  return blocks.map((block) => block.join(" ")).join("\n\n");
}

/**
 * The scene line for a finished turn: staged from the player's words, the story's context and title as the
 * turn was, lit as its prose says; the subject is the player's words when they describe an event, else a
 * figure facing the things named. A continue (no player words) takes the prose's first sentence instead.
 */
export function sceneOffline(request: TextRequestFor<"scene">): string {
  const base = readConversation([], { ...NO_FACTS, story: request.story });
  const prose = clean(request.storyText);
  const prompt = clean(request.playerWords) || (prose.split(/(?<=[.!?])\s/)[0] ?? "");
  const conversation: Conversation = { ...base, prompt, previous: prose };
  const rng = createRng(seedOf(request));
  const staging = stage(conversation, rng, prose);
  const promptNouns = keyPhrases(prompt, 3);
  const contextPhrases = keyPhrases(conversation.context, 6).filter(
    (phrase) => !promptNouns.some((p) => p.toLowerCase() === phrase.toLowerCase()),
  );
  const fallback = rng.shuffle(FALLBACK_NOUNS).map((noun) => `the ${noun}`);
  const nouns = [...promptNouns, ...contextPhrases.filter((phrase) => !isPlace(phrase)), ...fallback];
  const descriptive = readPrompt(prompt).kind === "event";
  const context = [...contextPhrases.filter(isPlace), ...contextPhrases.filter((phrase) => !isPlace(phrase))];
  return sceneLine(conversation, staging, rng, nouns, descriptive, context);
}

/** Words that name the picture rather than what is in it: "my dragon picture" is a dragon. */
const MEDIA_WORDS =
  /\b(?:picture|image|prompt|painting|photo|photograph|drawing|illustration|render|artwork|art|pic|shot|version|one)s?\b/gi;
/** Words that frame a request rather than name its subject: "how can I make", "a good prompt for". */
const FRAME_WORDS = new Set(
  (
    "how what what's whats which can could would should do does did is are i i'm i'd id you we me please help " +
    "want like love need give suggest show tell make get draw paint create improve write describe turn fix " +
    "change with for about of to it this that some any good better nice great cool idea ideas way ways look " +
    "looks feel more less really very so just also"
  ).split(" "),
);
/** Where a request stops naming its subject and starts saying what it wants: "look more dramatic". */
const WANT_CLAUSE =
  /\s*\b(?:look|looks|feel|feels|seem|seems|appear|more|less|better|stand out|pop|so that|to be)\b.*$/i;
const SUBJECT_DETERMINERS = new Set(["a", "an", "the", "my", "our", "your", "this", "that"]);
const ASKING =
  /^(?:how|what|what's|whats|which|can|could|would|should|any|help|please|i want|i'd like|give me|suggest|improve|make|fix)\b/i;

/** What the player wants advice on: the subject of their prompt, and any qualities they asked for. */
export function readAdviceRequest(
  prompt: string,
  earlierPrompts: readonly string[] = [],
): { subject: string; wants: string[]; asked: boolean } {
  const text = prompt.replace(/[.!?\s]+$/, "").trim();
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const wants = Object.keys(ADVICE_QUALITIES).filter((quality) => words.has(quality));
  const asked = prompt.trim().endsWith("?") || ASKING.test(text);
  if (!asked) return { subject: truncateWords(text, 30), wants, asked };
  // Drop the framing words in front; a determiner stays when a subject word follows it.
  const tokens = text.split(/\s+/);
  const media = (word: string): boolean => new RegExp(`^${MEDIA_WORDS.source}$`, "i").test(word);
  const framing = (word: string): boolean => {
    const lower = word.toLowerCase().replace(/[^a-z']/g, "");
    return FRAME_WORDS.has(lower) || media(lower);
  };
  let start = 0;
  while (start < tokens.length) {
    const word = tokens[start]!.toLowerCase();
    if (SUBJECT_DETERMINERS.has(word) && tokens[start + 1] && !framing(tokens[start + 1]!)) break;
    if (!framing(word) && !SUBJECT_DETERMINERS.has(word)) break;
    start++;
  }
  // Only qualities left ("make it more moody"): there is no subject in this message.
  const rest = tokens.slice(start);
  const onlyWants = rest.every((word) => word.toLowerCase().replace(/[^a-z]/g, "") in ADVICE_QUALITIES);
  const subject = (onlyWants ? [] : rest)
    .join(" ")
    .replace(MEDIA_WORDS, " ")
    .replace(WANT_CLAUSE, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:my|our|your|this|that)\s+/i, "a ")
    .replace(/\s+(?:a|an|the|of|for|with|and|to|in|on)$/i, "")
    .replace(/^a (?=[aeiou])/i, "an ");
  // Nothing left ("how do I make it better?"): the idea is whatever they described before.
  const previous = [...earlierPrompts].reverse().find((p) => p && !ASKING.test(p) && !p.trim().endsWith("?"));
  const chosen = /[a-z]{3}/i.test(subject) ? subject : (previous?.replace(/[.!?\s]+$/, "") ?? "");
  return { subject: truncateWords(chosen, 30), wants, asked };
}

function advice(conversation: Conversation, rng: Rng): string {
  const { subject, wants, asked } = readAdviceRequest(conversation.prompt, conversation.earlierPrompts);
  const idea = subject || "your scene";
  // Each bullet is a whole prompt the player can paste: their subject first, then one added dimension.
  const wanted = wants.flatMap((quality) => ADVICE_QUALITIES[quality] ?? []);
  const extra = (): string => (wanted.length ? `, ${rng.pick(wanted)}` : "");
  const bullets = rng
    .shuffle([
      `- **Set the light:** "${idea}, ${rng.pick(ADVICE_LIGHT)}, ${rng.pick(ADVICE_CAMERA)}${extra()}"`,
      `- **Give the eye a focal point:** "${idea}, with ${rng.pick(ADVICE_FOCUS)} in the foreground${extra()}"`,
      `- **Pick a style:** "${idea}, ${rng.pick(ADVICE_STYLE)}, ${rng.pick(ADVICE_PALETTE)}${extra()}"`,
      `- **Freeze a moment:** "${idea}, just as ${rng.pick(ADVICE_MOMENT)}, ${rng.pick(ADVICE_CAMERA)}${extra()}"`,
      `- **Add texture and weather:** "${idea}, drifting mist, fine detail, ${rng.pick(ADVICE_LIGHT)}${extra()}"`,
    ])
    .slice(0, rng.int(3, 5));
  if (wanted.length) {
    // What they asked for comes first, spelled out.
    const picks = rng.shuffle(wanted).slice(0, 3);
    bullets.unshift(`- **Make it ${wants.join(" and ")}:** "${idea}, ${picks.join(", ")}"`);
    bullets.splice(4);
  }
  const how = wants.length ? ` feel more ${wants.join(" and ")}` : " stand out";
  const intro = !subject
    ? rng.pick([
        "Tell me what is in the picture and I can be more specific; meanwhile, these work for almost any scene:",
        "Here are a few directions that lift almost any scene:",
      ])
    : asked
      ? rng.pick([
          `To make *${idea}*${how}, try one of these:`,
          `A few ways to make *${idea}*${how}:`,
          `For *${idea}*, I would try:`,
        ])
      : rng.pick([
          `Here are a few stronger ways to phrase *${idea}*:`,
          `*${capitalize(idea)}* is a good start. Try building it out:`,
          `Some ways to take *${idea}* further:`,
        ]);
  return [intro, "", ...bullets, "", rng.pick(ADVICE_TIPS)].join("\n");
}

const FINISHES = [
  "— and then, all at once, everything goes still.",
  "— until, at last, it is done.",
  "— and for a long moment nothing else happens.",
] as const;

/** The words that come next: a stopped sentence finished, then new sentences (never the player's words again). */
function continuation(conversation: Conversation, rng: Rng): string {
  const finished = /[.!?…"”’)\]*_]$/.test(conversation.previous.trim());
  // Two turns' worth on the same story, each without the paragraph that acts out the player's line, the
  // second never repeating the first's sentences.
  const first = storyTurn(conversation, rng);
  const second = storyTurn({ ...conversation, earlier: [...conversation.earlier, first] }, rng);
  const more = [first, second].flatMap((turn) => turn.split("\n\n").slice(1)).join("\n\n");
  return finished ? more : `${rng.pick(FINISHES)}\n\n${more}`;
}

/**
 * The seed of a request's choices: its purpose, its facts and the conversation (the player's and the
 * narrator's messages), not the instructions' wording, so rewording a prompt picks the same words.
 */
function seedOf(request: TextRequest): number {
  const { messages, maxTokens, temperature, model, signal, ...task } = request;
  const conversation = messages.filter((m) => m.role !== "system");
  return hashString(
    [JSON.stringify(task), ...conversation.map((m) => `${m.role}\u0000${m.content}`)].join("\u0001"),
  );
}

/** The whole answer for a request: same purpose, facts and conversation, same text. */
export function narrate(request: TextRequest): string {
  switch (request.purpose) {
    case "card-draft":
      return draftCardOffline(request);
    case "summary":
      return summariseOffline(request);
    case "scene":
      return sceneOffline(request);
    case "advice":
      return advice(readConversation(request.messages), createRng(seedOf(request)));
    case "turn":
      // Character mode (decision 0154): the card speaks in the first person.
      if (request.character) {
        const { prompt } = readConversation(request.messages, request);
        return characterTurn(request.character, prompt, createRng(seedOf(request)));
      }
      return storyTurn(readConversation(request.messages, request), createRng(seedOf(request)));
    case "continue": {
      const conversation = readConversation(request.messages, request);
      const rng = createRng(seedOf(request));
      if (request.character) return characterTurn(request.character, "", rng, Boolean(conversation.previous));
      // Nothing written yet to carry on: a turn of its own.
      return conversation.previous ? continuation(conversation, rng) : storyTurn(conversation, rng);
    }
    case "lore":
      // Not among the offline purposes: living lore reads the narration with its own readers.
      throw new ProviderError("The offline narrator does not read lore.", false, "offline: lore");
  }
}

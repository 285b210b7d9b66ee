// The offline readers of living lore and the camera (issue #29): deterministic, no model. They find the
// named people, places and things of a story's narration (capitalised names that are not sentence starts,
// written at least twice), the scene's place, time of day and weather, and what a named character now wears,
// carries or suffers. The model's answer, when a real text provider is configured, has the same shape.
import { type CardKind, isRegexTrigger } from "@storyverse/contract/story-cards";

export type FoundName = { name: string; key: string; kind: CardKind; description: string };
export type FoundScene = { place?: string; time_of_day?: string; weather?: string };

/** Capitalised words that are never a name of the story's own. */
const NOT_NAMES = new Set(
  [
    "i",
    "i'm",
    "i've",
    "i'll",
    "i'd",
    "you",
    "mr",
    "mrs",
    "ms",
    "sir",
    "lady",
    "lord",
    "god",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ].map((word) => word.normalize("NFC")),
);

const PLACE_WORDS =
  /\b(gate|gates|city|town|village|tower|keep|castle|hall|inn|tavern|forest|wood|woods|river|sea|lake|bay|harbour|harbor|port|road|bridge|market|square|temple|abbey|mountain|mountains|hill|hills|valley|isle|island|marsh|desert|street|quarter|palace|citadel|fort|mine|cave|caves|library|shrine|crossing|pass|coast|shore)$/i;
const THING_WORDS =
  /\b(lantern|sword|blade|ring|crown|book|key|stone|amulet|map|staff|cup|chalice|bell|mirror|box|chest|dagger|bow|shield|cloak|orb|scroll|coin|compass|lamp|horn|helm|mask|seal|letter)$/i;
const PLACE_BEFORE =
  /\b(in|at|to|into|inside|from|through|toward|towards|near|reach|reached|reaches|enter|entered|enters|beyond|past|across|under|above|outside)\s+(the\s+)?$/i;

/** The sentences of a text, each with where it starts (quotes and line breaks start sentences too). */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])["'”’)]*\s+|\n+/u)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** A capitalised word: a capital letter then letters, apostrophes or hyphens. */
const WORD = /[\p{Lu}][\p{L}\p{M}'’-]*/u;
const NAME_RUN = new RegExp(`${WORD.source}(?:\\s+(?:of\\s+)?${WORD.source})*`, "gu");

/** A name's key: lower-cased without its article ("salt gate" for "the Salt Gate"); one draft per key. */
export const nameKeyOf = (name: string) =>
  name
    .replace(/^the\s+/i, "")
    .trim()
    .toLowerCase()
    .normalize("NFC");

function kindOf(name: string, before: string): CardKind {
  if (PLACE_WORDS.test(name)) return "place";
  if (THING_WORDS.test(name)) return "thing";
  if (PLACE_BEFORE.test(before)) return "place";
  return "character";
}

/** Cuts a text at a word boundary to `max` characters. */
export function cutWords(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : clean.slice(0, max)).replace(/[,;:\s]+$/, "");
}

/**
 * The names written at least `minMentions` times in the narration, not counting a sentence's first word
 * (which is capitalised anyway): in order of first mention, each with its article as written ("the Salt Gate"),
 * a guessed kind and the first sentence naming it as a draft description.
 */
export function extractNames(narrations: string[], minMentions = 2): FoundName[] {
  const found = new Map<string, FoundName & { count: number }>();
  for (const narration of narrations) {
    for (const sentence of sentences(narration)) {
      // Leading quotes and dashes do not make the first word any less a sentence start.
      const body = sentence.replace(/^["'“‘(*_\-—–\s]+/u, "");
      for (const match of body.matchAll(NAME_RUN)) {
        const index = match.index ?? 0;
        let run = match[0];
        const before = body.slice(0, index);
        // The first word of a sentence, or of a quote inside it, is not counted: it is capitalised anyway.
        if (index === 0 || /["“‘:*_]\s*$/u.test(before)) continue;
        // "The" inside a run belongs to the sentence, not the name.
        run = run.replace(/^(?:The|A|An)\s+/u, "");
        if (!run || NOT_NAMES.has(run.toLowerCase())) continue;
        const withArticle = /\bthe\s+$/i.test(before) ? `the ${run}` : run;
        const key = nameKeyOf(run);
        const entry = found.get(key);
        if (entry) {
          entry.count++;
          continue;
        }
        found.set(key, {
          name: withArticle,
          key,
          kind: kindOf(run, before),
          description: cutWords(sentence, 300),
          count: 1,
        });
      }
    }
  }
  return [...found.values()]
    .filter((entry) => entry.count >= minMentions)
    .map(({ count: _count, ...name }) => name);
}

const TIMES: [RegExp, string][] = [
  [/\b(dawn|daybreak|sunrise|first light)\b/i, "dawn"],
  [/\b(morning)\b/i, "morning"],
  [/\b(noon|midday)\b/i, "noon"],
  [/\b(afternoon)\b/i, "afternoon"],
  [/\b(dusk|sunset|twilight|sundown|nightfall)\b/i, "dusk"],
  [/\b(evening)\b/i, "evening"],
  [/\b(night|midnight|moonlight|moonlit|darkness fell)\b/i, "night"],
];
const WEATHERS: [RegExp, string][] = [
  [/\b(storm|storms|stormy|thunder|lightning|gale)\b/i, "storm"],
  [/\b(rain|raining|rains|rained|drizzle|downpour|rainy)\b/i, "rain"],
  [/\b(snow|snowing|snows|snowed|snowfall|blizzard|sleet)\b/i, "snow"],
  [/\b(fog|foggy|mist|misty|haze)\b/i, "fog"],
  [/\b(wind|windy|gusts?)\b/i, "wind"],
  [/\b(clear sky|clear skies|sunny|sunshine|cloudless)\b/i, "clear"],
];

/** The last of `kinds` the text names (the text's end is the scene's now). */
function lastOf(text: string, kinds: [RegExp, string][]): string | undefined {
  let best: { at: number; value: string } | undefined;
  for (const [pattern, value] of kinds) {
    const global = new RegExp(pattern.source, "gi");
    for (const match of text.matchAll(global)) {
      if (!best || (match.index ?? 0) >= best.at) best = { at: match.index ?? 0, value };
    }
  }
  return best?.value;
}

const PLACE = new RegExp(
  `\\b(?:in|at|into|inside|within|reach(?:es|ed)?|enter(?:s|ed)?|arrive(?:s|d)? at)\\s+(the\\s+)?(${WORD.source}(?:\\s+(?:of\\s+)?${WORD.source})*)`,
  "gu",
);

/** The newest narration's place ("the Salt Gate"), time of day and weather: only what it names. */
export function extractScene(narration: string): FoundScene {
  const scene: FoundScene = {};
  let place: string | undefined;
  for (const match of narration.matchAll(PLACE)) {
    const name = match[2]!.replace(/^(?:The|A|An)\s+/u, "");
    if (NOT_NAMES.has(name.toLowerCase())) continue;
    place = `${match[1] ? "the " : ""}${name}`;
  }
  if (place) scene.place = cutWords(place, 100);
  const time = lastOf(narration, TIMES);
  if (time) scene.time_of_day = time;
  const weather = lastOf(narration, WEATHERS);
  if (weather) scene.weather = weather;
  return scene;
}

const LOOKS =
  /\b(wears?|wearing|wore|dressed|clad|carr(?:y|ies|ied|ying)|holds?|holding|held|clutch(?:es|ed|ing)?|grips?|gripping|torn|ripped|tattered|wounded|bleeding|bloodied|injured|bandaged|limping|scarred|bruised|soaked|muddy|cloak|coat|armou?r|hood|mask)\b/i;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * What the newest narration says the character named `names` (the card's name and triggers) now looks like:
 * its sentences naming them with a word of clothing, carrying or injury, joined and cut to `max` characters;
 * undefined when it says nothing of it (the card keeps what it had).
 */
export function extractAppearance(narration: string, names: string[], max: number): string | undefined {
  const plain = names.map((name) => name.trim()).filter((name) => name && !isRegexTrigger(name));
  if (plain.length === 0) return undefined;
  const named = new RegExp(
    `(?<![\\p{L}\\p{M}\\p{N}])(?:${plain.map(escapeRegex).join("|")})(?![\\p{L}\\p{M}\\p{N}])`,
    "iu",
  );
  const picked = sentences(narration).filter((sentence) => named.test(sentence) && LOOKS.test(sentence));
  if (picked.length === 0) return undefined;
  return cutWords(picked.join(" "), max);
}

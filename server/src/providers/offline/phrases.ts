// Phrase helpers the offline text providers share (the narrator, the card drafter and the summariser): the
// player's words turned to the second person, the noun phrases worth repeating, and which of them are places.
// Kept apart from the narrator so the narrator and its helpers import this, not each other.
import { ACTION_VERBS, EVENT_VERBS, STOP_WORDS } from "./narrator-lexicon";
import { SCENE_NOUNS } from "./scene-theme";

export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

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

/** "I draw my sword" -> "you draw your sword"; "let's go" mid-sentence -> "time to go". */
export function toSecondPerson(text: string): string {
  return text.replace(/\b(?:let'?s|let us)\b/gi, "time to").replace(/\b[A-Za-z]+(?:'[a-z]+)?\b/g, (word) => {
    const swap = SECOND_PERSON[word.toLowerCase()];
    if (!swap) return word;
    // "I" is always capitalised, so only other words keep their capital (a sentence start like "We").
    const startsSentence = !/^I\b/.test(word) && word[0] !== word[0]!.toLowerCase();
    return startsSentence ? capitalize(swap) : swap;
  });
}

/** A verb, in its plain or "-s" form ("rings", "attacks", "flies"): where a noun phrase ends. */
function isVerb(word: string): boolean {
  const known = (w: string): boolean => ACTION_VERBS.has(w) || EVENT_VERBS.has(w);
  if (known(word)) return true;
  if (!word.endsWith("s") || word.endsWith("ss")) return false;
  return (
    known(word.slice(0, -1)) ||
    (word.endsWith("es") && known(word.slice(0, -2))) ||
    (word.endsWith("ies") && known(`${word.slice(0, -3)}y`))
  );
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
      const plain = /^[a-z][a-z'’-]*$/i.test(word) && !STOP_WORDS.has(lower) && !isVerb(lower);
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
export const isPlace = (phrase: string): boolean => PLACE_WORDS.has(phrase.split(" ").pop()!.toLowerCase());

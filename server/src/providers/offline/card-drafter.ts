// The offline text provider's answer to "Make a card": a Story Card drafted from a narrator passage without a
// model. It takes a real name from the passage (a capitalised word or run of them that is not a common word
// such as "The" or "She"; mentioned mid-sentence counts most, since a sentence's first word is capitalised
// anyway), skips subjects that already have a card, and quotes the passage's own sentences about it as the
// description. With no name in the passage the name is left empty for the player to give. Answers JSON, as
// the drafting instructions ask a vendor model to.
import { COMMON_WORDS } from "@storyverse/contract/common-words";
import { splitSentences } from "@storyverse/contract/sentences";
import type { TextRequestFor } from "../types";

/** Capitalised words that start sentences or address the player rather than name someone. */
const NOT_NAMES = new Set(
  (
    "the a an you your it its he she they we i his her their this that there then when as in on at by with " +
    "from for to of but and or if so yet now here what who where why how scene suddenly somewhere perhaps " +
    "maybe slowly above below beyond behind beneath across outside inside together meanwhile later soon"
  ).split(" "),
);

/** A name that ends like a place ("Ashford Keep", "the Saltmarsh Road") drafts a place card. */
const PLACE_ENDING =
  /\s(?:city|town|village|keep|castle|tower|forest|woods?|harbou?r|port|river|lake|sea|mountains?|hall|temple|inn|tavern|market|road|gate|bridge|isle|island|vale|valley|ruins|caves?)$/i;

const isNameWord = (word: string) => {
  const lower = word.toLowerCase().replace(/['’]s$/, "");
  return !NOT_NAMES.has(lower) && !COMMON_WORDS.has(lower) && lower.length >= 2;
};

/**
 * Names in the passage, best first: a run of up to three capitalised words that are not common words.
 * One met mid-sentence is surely a name; a sentence's first word only might be ("Mara lifted her lantern"
 * but "Suddenly the door opened"), so it ranks after, and never when it looks like an adverb or a verb.
 */
export function passageNames(passage: string): string[] {
  const found = new Map<string, { midSentence: number; count: number; first: number }>();
  let position = 0;
  for (const sentence of splitSentences(passage)) {
    const words = sentence.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const run: string[] = [];
      const startsSentence = i === 0;
      while (i < words.length && run.length < 3) {
        const word = words[i]!.replace(/^[^\p{L}]+/u, "");
        const bare = word.replace(/[^\p{L}'’-]+$/u, "").replace(/['’]s$/, "");
        if (!/^\p{Lu}[\p{L}'’-]+$/u.test(bare) || !isNameWord(bare)) break;
        if (startsSentence && run.length === 0 && /(?:ly|ing|ed)$/.test(bare)) break;
        run.push(bare);
        // A run ends at punctuation: "Mara, Tam and Ilse" are three names.
        if (bare !== word) break;
        i++;
      }
      if (run.length === 0) continue;
      const name = run.join(" ");
      const seen = found.get(name) ?? { midSentence: 0, count: 0, first: position + i };
      seen.count++;
      if (!startsSentence) seen.midSentence++;
      found.set(name, seen);
    }
    position += words.length;
  }
  return [...found.entries()]
    .sort(
      (a, b) =>
        Math.sign(b[1].midSentence) - Math.sign(a[1].midSentence) ||
        b[1].count - a[1].count ||
        a[1].first - b[1].first,
    )
    .map(([name]) => name);
}

function sentencesAbout(passage: string, triggers: string[]): string {
  const sentences = passage
    .replace(/^\s*SCENE:.*$/gim, "")
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const mentions = sentences.filter((sentence) =>
    triggers.some((trigger) => sentence.toLowerCase().includes(trigger.toLowerCase())),
  );
  return (mentions.length ? mentions : sentences).slice(0, 2).join(" ").slice(0, 400);
}

export function draftCardOffline(request: TextRequestFor<"card-draft">): string {
  const existing = new Set(request.existingCards.map((name) => name.trim().toLowerCase()).filter(Boolean));
  const text = request.passage.replace(/^\s*SCENE:.*$/gim, "");
  // The story's own title ("The story of *The Lantern Road*...") is not a card either.
  const title = request.storyTitle.toLowerCase();
  const name = passageNames(text).find(
    (candidate) => !existing.has(candidate.toLowerCase()) && !title.includes(candidate.toLowerCase()),
  );
  if (!name) {
    // No name in the passage: the player names the card; the passage still describes it.
    return JSON.stringify({
      name: "",
      kind: "character",
      triggers: [],
      description: sentencesAbout(text, []),
    });
  }
  const triggers = [name];
  return JSON.stringify({
    name,
    kind: PLACE_ENDING.test(name) ? "place" : "character",
    triggers,
    description: sentencesAbout(text, triggers),
  });
}

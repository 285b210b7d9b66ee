// The offline narrator playing a character (issue 43 item 7, decision 0154): a story turn or a Continue in
// character mode answers as the card named in the request's `character` facts, in the first person, the way a
// SillyTavern character speaks: what the character does in *italics*, what it says "in quotes". Its words come
// from the card (a phrase of its description or greeting), the player's message (a question is answered as
// one) and its own manner; everything is picked by the PRNG seeded from the request, so it is deterministic.
import type { CharacterFacts } from "../types";
import { capitalize, keyPhrases } from "./phrases";
import type { Rng } from "./seeded";

/** How the card's description speaks of the character: she, he, or (unknown) they. */
type Pronouns = { subject: string; possessive: string };
const SHE: Pronouns = { subject: "she", possessive: "her" };
const HE: Pronouns = { subject: "he", possessive: "his" };
const THEY: Pronouns = { subject: "they", possessive: "their" };

function pronounsOf(description: string): Pronouns {
  const count = (pattern: RegExp) => (description.match(pattern) ?? []).length;
  const she = count(/\b(?:she|her|hers|herself)\b/gi);
  const he = count(/\b(?:he|him|his|himself)\b/gi);
  if (she > he) return SHE;
  if (he > she) return HE;
  return THEY;
}

/** What the character does: `{name}` and `{pos}` (the possessive) filled in; a verb in the third person. */
const GESTURES = [
  "{name} tilts {pos} head",
  "{name} smiles softly",
  "{name} steps a little closer",
  "{name} folds {pos} hands",
  "{name} pauses, considering you",
  "{name} lowers {pos} voice",
  "{name} lets out a slow breath",
  "{name} meets your eyes",
] as const;
const CLOSING_GESTURES = [
  "{name} waits for your answer",
  "{name} glances past you, then back",
  "{name} brushes a strand of hair from {pos} face",
  "{name} offers you a hand",
  "{name} settles beside you",
] as const;

/** The character's first words, by what the player said. */
const ANSWER_QUESTION = [
  "You ask me about {words}? I will tell you what I know.",
  "{words}? I have wondered that myself, more than once.",
  "That is a fair question, {user}, and I will not hide the answer from you.",
] as const;
const ANSWER_SPEECH = [
  "I hear you, {user}.",
  "{words}… I am glad you said it aloud.",
  "You speak plainly. I like that.",
] as const;
const ANSWER_DEED = [
  "I see what you mean to do, {user}.",
  "Careful now. I will stay close while you do it.",
  "Go on, then. I am right here with you.",
] as const;

/** Lines that carry a phrase of the card (`{phrase}`): the character speaking of what it is. */
const ABOUT_ME = [
  "I have watched over {phrase} for longer than I care to count.",
  "My heart has always belonged to {phrase}.",
  "You should know this about me: {phrase} is never far from my thoughts.",
  "I know {phrase} better than anyone who walks here.",
] as const;

/** How the character turns back to the player. */
const HOOKS = [
  "Now tell me, {user}, what brings you to me?",
  "Will you stay a while, {user}?",
  "What would you have me do next?",
  "Tell me what you need, and I will help if I can.",
] as const;

const fill = (template: string, slots: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_all, key: string) => slots[key] ?? "");

/** A card phrase worth saying: a key phrase of the description, else of the greeting, else the name's own. */
function cardPhrase(character: CharacterFacts, rng: Rng): string {
  const own = new RegExp(`^${character.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "i");
  const phrases = [
    ...keyPhrases(character.description, 6),
    ...keyPhrases(character.greeting.replace(/\*[^*]*\*/g, " "), 4),
  ].filter((phrase) => !own.test(phrase) && phrase.split(" ").length <= 5);
  const phrase = phrases.length ? rng.pick(phrases.slice(0, 4)) : "this place";
  return /^[A-Z]/.test(phrase) ? phrase : `the ${phrase.toLowerCase().replace(/^(?:the|a|an)\s+/, "")}`;
}

/** The player's words as the character repeats them: a few words, no closing punctuation. */
function playerWords(prompt: string): { kind: "question" | "speech" | "deed" | "none"; words: string } {
  const said = /^you say\s+["“](.*?)["”]?\.?$/is.exec(prompt.trim())?.[1];
  const text = (said ?? prompt).replace(/^["“']+|["”']+$/g, "").trim();
  if (!text) return { kind: "none", words: "" };
  const words = text
    .split(/\s+/)
    .slice(0, 10)
    .join(" ")
    .replace(/[\s.!?,;:…]+$/, "")
    .replace(/"/g, "'");
  if (
    /\?\s*$/.test(text) ||
    /^(?:what|who|where|when|why|how|which|do|does|did|are|is|can|will)\b/i.test(text)
  ) {
    return { kind: "question", words };
  }
  return { kind: said !== undefined || /^["“]/.test(prompt.trim()) ? "speech" : "deed", words };
}

/**
 * The character's answer to the player's message: an action in italics, first-person speech in quotes with a
 * phrase of the card, a second action and a line back to the player. `continuing`: Continue, which carries on
 * the character's last answer without a new message.
 */
export function characterTurn(
  character: CharacterFacts,
  prompt: string,
  rng: Rng,
  continuing = false,
): string {
  const name = character.name.trim() || "The stranger";
  const pronouns = pronounsOf(`${character.description} ${character.greeting}`);
  const user = character.playerName.trim() || "traveller";
  const slots = { name, pos: pronouns.possessive, user };
  const heard = playerWords(prompt);
  const opening = continuing
    ? "There is more I should tell you."
    : heard.kind === "question"
      ? rng.pick(ANSWER_QUESTION)
      : heard.kind === "speech"
        ? rng.pick(ANSWER_SPEECH)
        : heard.kind === "deed"
          ? rng.pick(ANSWER_DEED)
          : "Welcome.";
  const first = capitalize(fill(opening, { ...slots, words: heard.words }));
  const about = fill(rng.pick(ABOUT_ME), { phrase: cardPhrase(character, rng) });
  const gesture = fill(rng.pick(GESTURES), slots);
  const closing = fill(rng.pick(CLOSING_GESTURES), slots);
  const hook = fill(rng.pick(HOOKS), slots);
  const others = (character.others ?? []).filter((other) => other.trim());
  if (others.length === 0) {
    return [`*${gesture}.* "${first} ${about}"`, `*${closing}.* "${hook}"`].join("\n\n");
  }
  // A group scene (decision 0164): the speaker answers whoever spoke before and turns to another present.
  const answering = character.answering?.trim();
  const opening2 =
    continuing && answering ? capitalize(fill(rng.pick(ANSWER_OTHER), { other: answering })) : first;
  const turnTo = fill(rng.pick(TURN_TO_OTHER), { ...slots, other: rng.pick(others) });
  return [`*${gesture}.* "${opening2} ${about}"`, turnTo].join("\n\n");
}

/** A group scene: the speaker answers the character who spoke before (`{other}`). */
const ANSWER_OTHER = [
  "{other} is not wrong, but there is more to it.",
  "I heard what {other} said, and I see it differently.",
  "Listen to {other}, but listen to me too.",
] as const;

/** A group scene: the speaker turns to another character present (`{other}`). */
const TURN_TO_OTHER = [
  '*{name} turns to {other}.* "What do you make of this, {other}?"',
  '*{name} glances at {other}.* "{other} knows this better than I do."',
  '*{name} nods towards {other}.* "Tell {user} what you saw, {other}."',
] as const;

// The offline text provider's answer to "Make a card": a Story Card drafted from a narrator passage without a
// model. It prefers a name the passage uses (a capitalised run of words), then a phrase the narrator leaned on
// ("the drowned bell"), skips subjects that already have a card, and quotes the passage's own sentences about
// it as the description. Answers JSON, as the drafting instructions ask a vendor model to.
import type { ChatMessage } from "../types";
import { isPlace, keyPhrases } from "./narrator";

/** Capitalised words that start sentences or address the player rather than name someone. */
const NOT_NAMES = new Set(
  "the a an you your it its he she they we i his her their this that there then when as in on at by with from " +
    "for to of but and or if so yet now here what who where why how scene".split(" "),
);

const systemText = (messages: readonly ChatMessage[]) =>
  messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");

export const isCardDraftRequest = (messages: readonly ChatMessage[]): boolean =>
  /role:\s*card drafter/i.test(systemText(messages));

const titleCase = (phrase: string) =>
  phrase
    .split(" ")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");

/** Names in the passage, most mentioned first, then in order of appearance. */
function names(passage: string): string[] {
  const counts = new Map<string, { count: number; first: number }>();
  const pattern = /\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2}/gu;
  for (const match of passage.matchAll(pattern)) {
    const words = match[0].split(/\s+/).filter((word) => !NOT_NAMES.has(word.toLowerCase()));
    if (words.length === 0) continue;
    const name = words.join(" ");
    const seen = counts.get(name);
    if (seen) seen.count++;
    else counts.set(name, { count: 1, first: match.index ?? 0 });
  }
  return [...counts.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .map(([n]) => n);
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

export function draftCardOffline(messages: readonly ChatMessage[]): string {
  const passage = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const existingLine = /^existing cards:(.*)$/im.exec(systemText(messages))?.[1] ?? "";
  const existing = new Set(
    existingLine
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const text = passage.replace(/^\s*SCENE:.*$/gim, "");
  const named = names(text).map((name) => ({ name, proper: true }));
  const phrases = keyPhrases(text, 8)
    .map((phrase) => phrase.replace(/^(?:the|your|his|her|their|its)\s+/i, ""))
    .map((phrase) => ({ name: titleCase(phrase), proper: false }));
  const subject = [...named, ...phrases].find(({ name }) => !existing.has(name.toLowerCase()));
  if (!subject) return "{}";
  const words = subject.name.split(" ");
  const head = words[words.length - 1]!;
  const triggers = subject.proper
    ? [subject.name, ...(words.length > 1 ? words.filter((word) => word.length >= 3) : [])]
    : [head.toLowerCase(), ...(words.length > 1 ? [subject.name.toLowerCase()] : [])];
  const kind = isPlace(subject.name) ? "place" : subject.proper ? "character" : "thing";
  return JSON.stringify({
    name: subject.name,
    kind,
    triggers: [...new Set(triggers)],
    description: sentencesAbout(text, triggers),
  });
}

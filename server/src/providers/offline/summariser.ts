// The offline text provider's rolling summary: without a model it keeps the summary so far and adds, for each
// exchange that left the window, what the player did (in the second person) and the narrator's first sentence
// about it. Past the length the summariser was asked for, the oldest additions give way, but the story's
// opening sentence stays, so the narrator still knows how it began.
import type { ChatMessage } from "../types";
import { toSecondPerson } from "./phrases";

const LIMIT = 1500;

const systemText = (messages: readonly ChatMessage[]) =>
  messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");

export const isSummaryRequest = (messages: readonly ChatMessage[]): boolean =>
  /role:\s*story summariser/i.test(systemText(messages));

const firstSentence = (text: string) =>
  text
    .replace(/^\s*SCENE:.*$/gim, "")
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?])\s/)[0]
    ?.trim() ?? "";

const asSentence = (text: string) => {
  const trimmed = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?]*$/, "");
  return trimmed ? `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.` : "";
};

export function summariseOffline(messages: readonly ChatMessage[]): string {
  const before = /^summary so far:(.*)$/im.exec(systemText(messages))?.[1]?.trim() ?? "";
  const previous = before === "(none yet)" ? "" : before;
  const passages = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const added: string[] = [];
  for (const block of passages.split(/\n\s*\n/)) {
    const [, who, words] = /^(Player|Narrator):\s*([\s\S]*)$/.exec(block.trim()) ?? [];
    if (!who || !words?.trim()) continue;
    added.push(who === "Player" ? asSentence(toSecondPerson(words).slice(0, 200)) : firstSentence(words));
  }
  const sentences = [...previous.split(/(?<=[.!?])\s+/), ...added].map((s) => s.trim()).filter(Boolean);
  const [opening, ...rest] = sentences;
  while (rest.length > 1 && [opening, ...rest].join(" ").length > LIMIT) rest.shift();
  return [opening, ...rest].join(" ").slice(0, LIMIT);
}

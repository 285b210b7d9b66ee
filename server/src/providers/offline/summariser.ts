// The offline text provider's rolling summary: without a model it keeps the summary so far and adds, for each
// exchange that left the window, what the player did (in the second person) and the narrator's first sentence
// about it. Past the length the summariser was asked for, the oldest additions give way, but the story's
// opening sentence stays, so the narrator still knows how it began.
import type { TextRequestFor } from "../types";
import { toSecondPerson } from "./phrases";

const LIMIT = 1500;

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

/** The summary the request carries, with its passages folded in (the summary so far and the passages, as data). */
export function summariseOffline(request: TextRequestFor<"summary">): string {
  const previous = request.summarySoFar.replace(/\s+/g, " ").trim();
  const added: string[] = [];
  for (const { speaker, text } of request.passages) {
    // A passage's first paragraph: what the player did, or how the narrator's answer began.
    const words = text.trim().split(/\n\s*\n/)[0] ?? "";
    if (!words.trim()) continue;
    added.push(speaker === "player" ? asSentence(toSecondPerson(words).slice(0, 200)) : firstSentence(words));
  }
  const sentences = [...previous.split(/(?<=[.!?])\s+/), ...added].map((s) => s.trim()).filter(Boolean);
  const [opening, ...rest] = sentences;
  while (rest.length > 1 && [opening, ...rest].join(" ").length > LIMIT) rest.shift();
  return [opening, ...rest].join(" ").slice(0, LIMIT);
}

// The narrator's context, assembled within a token budget: what one turn sends to the text provider.
// Pure: it takes the parts and a token counter and answers the exact messages plus what each part cost.
//
// Priority when the budget is tight (highest first): the narrator's instructions and the player's message
// (always sent), the story's Memory, the active Story Cards (the most recently mentioned first), the rolling
// summary of what left the window, the recent messages (the oldest dropped first), the Author's Note. Memory,
// the cards and the summary sit at the top with the instructions; the Author's Note goes just before the
// player's message.
import { countTokens } from "gpt-tokenizer";
import type { ChatMessage } from "../providers/types";

/** Chat formats wrap each message in a few tokens of their own (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export type ContextPart =
  | "instructions"
  | "memory"
  | "cards"
  | "summary"
  | "history"
  | "authors_note"
  | "prompt";

/** An active Story Card as the narrator reads it. */
export type ContextCard = { id: string; name: string; kind: string; description: string };

export type ContextInput = {
  instructions: string;
  memory: string;
  /** The turn's active cards, the most recently mentioned first (the first to keep when space is short). */
  cards?: ContextCard[];
  /** The story so far (the rolling summary of messages that left the window). */
  summary?: string;
  /** The conversation before this turn, oldest first (already cut to the history window). */
  history: { role: "user" | "assistant"; content: string }[];
  authorsNote: string;
  /** What the narrator answers: the player's message (or the Continue line). */
  prompt: string;
  budget: number;
};

export type AssembledContext = {
  messages: ChatMessage[];
  parts: { part: ContextPart; tokens: number }[];
  /** Messages of the history that did not fit, oldest first. */
  droppedMessages: number;
  /** The ids of the active cards that fit, in the order they were given. */
  keptCardIds: string[];
  totalTokens: number;
  budget: number;
};

/** A real tokenizer's count (the o200k encoding of OpenAI's current models): an estimate for others. */
export const countTextTokens = (text: string): number => countTokens(text);

const messageTokens = (content: string, count: (text: string) => number) => count(content) + MESSAGE_OVERHEAD;

export const MEMORY_HEADING = "Memory (always true in this story):";
export const AUTHORS_NOTE_HEADING = "Author's Note (follow this style and direction):";
export const SUMMARY_HEADING = "The story so far (earlier turns, summarised):";
export const CARDS_HEADING = "Story Cards (who and what is in this scene; keep them as described):";

/** One card's line: "- Mara (character): A blind cartographer." The offline narrator reads it back. */
export const cardLine = (card: ContextCard) =>
  `- ${card.name} (${card.kind})${card.description.trim() ? `: ${card.description.trim().replace(/\s+/g, " ")}` : ""}`;

export function assembleContext(
  input: ContextInput,
  count: (text: string) => number = countTextTokens,
): AssembledContext {
  const memory = input.memory.trim();
  const note = input.authorsNote.trim();
  const memoryBlock = memory ? `\n\n${MEMORY_HEADING}\n${memory}` : "";
  const noteMessage = note ? `${AUTHORS_NOTE_HEADING}\n${note}` : "";

  // The instructions and the player's message always go; everything else takes what is left, by priority.
  const instructionTokens = messageTokens(input.instructions, count);
  const promptTokens = messageTokens(input.prompt, count);
  let left = input.budget - instructionTokens - promptTokens;

  const memoryTokens = memoryBlock ? count(memoryBlock) : 0;
  const keepMemory = memoryTokens > 0 && memoryTokens <= left;
  if (keepMemory) left -= memoryTokens;

  // Cards, most recently mentioned first, each whole or not at all; the heading costs once.
  const cards = input.cards ?? [];
  const headingTokens = cards.length ? count(`\n\n${CARDS_HEADING}`) : 0;
  const keptCards: ContextCard[] = [];
  let cardTokens = 0;
  for (const card of cards) {
    const tokens = count(`\n${cardLine(card)}`) + (keptCards.length === 0 ? headingTokens : 0);
    if (tokens > left) continue;
    left -= tokens;
    cardTokens += tokens;
    keptCards.push(card);
  }
  const cardsBlock = keptCards.length
    ? `\n\n${CARDS_HEADING}${keptCards.map((card) => `\n${cardLine(card)}`).join("")}`
    : "";

  const summary = input.summary?.trim() ?? "";
  const summaryBlock = summary ? `\n\n${SUMMARY_HEADING}\n${summary}` : "";
  const summaryTokens = summaryBlock ? count(summaryBlock) : 0;
  const keepSummary = summaryTokens > 0 && summaryTokens <= left;
  if (keepSummary) left -= summaryTokens;

  const kept: ContextInput["history"] = [];
  let historyTokens = 0;
  for (let i = input.history.length - 1; i >= 0; i--) {
    const message = input.history[i]!;
    const tokens = messageTokens(message.content, count);
    if (tokens > left) break;
    left -= tokens;
    historyTokens += tokens;
    kept.unshift(message);
  }

  const noteTokens = noteMessage ? messageTokens(noteMessage, count) : 0;
  const keepNote = noteTokens > 0 && noteTokens <= left;

  const messages: ChatMessage[] = [
    {
      role: "system",
      content: `${input.instructions}${keepMemory ? memoryBlock : ""}${cardsBlock}${keepSummary ? summaryBlock : ""}`,
    },
    ...kept.map((m) => ({ role: m.role, content: m.content })),
    ...(keepNote ? [{ role: "system" as const, content: noteMessage }] : []),
    { role: "user", content: input.prompt },
  ];
  const parts: AssembledContext["parts"] = [
    { part: "instructions", tokens: instructionTokens },
    { part: "memory", tokens: keepMemory ? memoryTokens : 0 },
    { part: "cards", tokens: cardTokens },
    { part: "summary", tokens: keepSummary ? summaryTokens : 0 },
    { part: "history", tokens: historyTokens },
    { part: "authors_note", tokens: keepNote ? noteTokens : 0 },
    { part: "prompt", tokens: promptTokens },
  ];
  return {
    messages,
    parts,
    droppedMessages: input.history.length - kept.length,
    keptCardIds: keptCards.map((card) => card.id),
    totalTokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    budget: input.budget,
  };
}

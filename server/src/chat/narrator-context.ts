// The narrator's context, assembled within a token budget: what one turn sends to the text provider.
// Pure: it takes the parts and a token counter and answers the exact messages plus what each part cost.
//
// Priority when the budget is tight (highest first): the narrator's instructions and the player's message
// (always sent), the story's Memory, the recent messages (the oldest dropped first), the Author's Note.
// Memory sits at the top with the instructions; the Author's Note goes just before the player's message.
import { countTokens } from "gpt-tokenizer";
import type { ChatMessage } from "../providers/types";

/** Chat formats wrap each message in a few tokens of their own (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export type ContextPart = "instructions" | "memory" | "history" | "authors_note" | "prompt";

export type ContextInput = {
  instructions: string;
  memory: string;
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
  totalTokens: number;
  budget: number;
};

/** A real tokenizer's count (the o200k encoding of OpenAI's current models): an estimate for others. */
export const countTextTokens = (text: string): number => countTokens(text);

const messageTokens = (content: string, count: (text: string) => number) => count(content) + MESSAGE_OVERHEAD;

export const MEMORY_HEADING = "Memory (always true in this story):";
export const AUTHORS_NOTE_HEADING = "Author's Note (follow this style and direction):";

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
    { role: "system", content: `${input.instructions}${keepMemory ? memoryBlock : ""}` },
    ...kept.map((m) => ({ role: m.role, content: m.content })),
    ...(keepNote ? [{ role: "system" as const, content: noteMessage }] : []),
    { role: "user", content: input.prompt },
  ];
  const parts: AssembledContext["parts"] = [
    { part: "instructions", tokens: instructionTokens },
    { part: "memory", tokens: keepMemory ? memoryTokens : 0 },
    { part: "history", tokens: historyTokens },
    { part: "authors_note", tokens: keepNote ? noteTokens : 0 },
    { part: "prompt", tokens: promptTokens },
  ];
  return {
    messages,
    parts,
    droppedMessages: input.history.length - kept.length,
    totalTokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    budget: input.budget,
  };
}

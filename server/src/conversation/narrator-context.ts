// The narrator's context, assembled within a token budget: what one turn sends to the text provider.
// Pure: it takes the parts and a token counter and answers the exact messages plus what each part cost.
//
// Priority when the budget is tight (highest first): the narrator's instructions, the post-history
// instructions and the player's message (always sent), the story's Memory, the active Story Cards, the recalled
// older exchanges, the rolling summary of what left the window, the recent messages (the oldest dropped first),
// the Author's Note. Memory, the cards, the recalled exchanges and the summary sit at the top with the instructions; the post-history instructions go just
// before the player's message, and the Author's Note `authorsNoteDepth` messages from the end (1, the default:
// just before the player's message and the post-history instructions; 3: with two history messages after it).
//
// The cards may take at most the story's lore share of the budget. When they do not all fit, the lower
// `priority` is left out first (ties: the least recently mentioned first; constant cards count as mentioned
// now); the kept ones are placed by `insertion_order` ascending (ties: the most recently mentioned first). With
// every card at the defaults this is the order of mention, as before the lore rules.
//
// Long text is stored whole (a card's fields up to 32,000 characters, decision 0142) and cut here, for this
// turn only: the story's context, its own narrator instructions and its post-history instructions each to
// their share of the budget (STORY_CONTEXT_, INSTRUCTIONS_ and POST_HISTORY_BUDGET_PERCENT, by narratorContext
// in turn.ts), and a Memory that does not fit whole to what is left, at most MEMORY_BUDGET_PERCENT; each cut
// is answered in `cut`, which "What the narrator sees" shows. A card is still whole or left out.
import type { AspectRatio } from "@storyverse/contract/generation-settings";
import { DEFAULT_INSERTION_ORDER, DEFAULT_PRIORITY } from "@storyverse/contract/story-cards";
import { countTokens } from "gpt-tokenizer";
import type { ChatMessage } from "../providers/types";

/** Chat formats wrap each message in a few tokens of their own (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export type ContextPart =
  | "instructions"
  | "memory"
  | "cards"
  | "recall"
  | "summary"
  | "history"
  | "authors_note"
  | "post_history_instructions"
  | "prompt";

/** An active Story Card as the narrator reads it; `insertionOrder` 100 and `priority` 10 unless set. */
export type ContextCard = {
  id: string;
  name: string;
  kind: string;
  description: string;
  insertionOrder?: number;
  priority?: number;
};

export type ContextInput = {
  instructions: string;
  memory: string;
  /** The turn's active cards, the most recently mentioned first (constant cards count as mentioned now). */
  cards?: ContextCard[];
  /** The share of the budget the cards may take (the story's lore budget); all that is left when not given. */
  loreBudgetPercent?: number;
  /** Older exchanges recalled for this turn (recall.ts), the most relevant first. */
  recalled?: RecalledLine[];
  /** The share of the budget the recalled exchanges may take (RECALL_BUDGET_PERCENT). */
  recallBudgetPercent?: number;
  /** The story so far (the rolling summary of messages that left the window). */
  summary?: string;
  /** The conversation before this turn, oldest first (already cut to the history window). */
  history: { role: "user" | "assistant"; content: string }[];
  authorsNote: string;
  /**
   * How many messages from the end the Author's Note goes, counting the player's message (1, the default: just
   * before it). Deeper than the history reaches: right after the instructions.
   */
  authorsNoteDepth?: number;
  /** Sent as a system message after the history (and the Author's Note), just before the player's message. */
  postHistoryInstructions?: string;
  /** What the narrator answers: the player's message (or the Continue line). */
  prompt: string;
  budget: number;
};

/** A recalled exchange as the narrator reads it. */
export type RecalledLine = { messageId: string; turn: number; player: string; narrator: string };

/** A text sent cut to fit the budget this turn (stored whole): how many of its characters went. */
export type CutToBudget = {
  part: "context" | "instructions" | "post_history_instructions" | "memory";
  keptCharacters: number;
  totalCharacters: number;
};

export type AssembledContext = {
  messages: ChatMessage[];
  /** Texts sent only in part to fit the budget. */
  cut: CutToBudget[];
  parts: { part: ContextPart; tokens: number }[];
  /** Messages of the history that did not fit, oldest first. */
  droppedMessages: number;
  /** The ids of the active cards that fit, in the order they are placed. */
  keptCardIds: string[];
  /** The narrator messages of the recalled exchanges that fit. */
  keptRecalledIds: string[];
  totalTokens: number;
  budget: number;
};

/**
 * How a story's turns are generated (its generation settings, `stories/settings.ts`): what the text provider is
 * asked for, where the Author's Note goes, and how the scenes are painted.
 */
export type TurnGeneration = {
  maxTokens: number;
  temperature: number;
  /** The story's chosen text model; absent: the provider's default. */
  model?: string;
  authorsNoteDepth: number;
  artStyle: string;
  aspectRatio: AspectRatio;
};

/** A real tokenizer's count (the o200k encoding of OpenAI's current models): an estimate for others. */
export const countTextTokens = (text: string): number => countTokens(text);

const messageTokens = (content: string, count: (text: string) => number) => count(content) + MESSAGE_OVERHEAD;

export const MEMORY_HEADING = "Memory (always true in this story):";
export const AUTHORS_NOTE_HEADING = "Author's Note (follow this style and direction):";
export const SUMMARY_HEADING = "The story so far (earlier turns, summarised):";
export const CARDS_HEADING = "Story Cards (who and what is in this scene; keep them as described):";
export const RECALL_HEADING = "Recalled from earlier in this story (older turns that bear on this one):";
/** The share of the budget recalled exchanges may take. */
export const RECALL_BUDGET_PERCENT = 15;
/** The most of the budget a long story context takes in the instructions (the rest of it is left out). */
export const STORY_CONTEXT_BUDGET_PERCENT = 25;
/** The most of the budget a story's own narrator instructions (a card's system prompt) take. */
export const INSTRUCTIONS_BUDGET_PERCENT = 20;
/** The most of the budget the post-history instructions take. */
export const POST_HISTORY_BUDGET_PERCENT = 10;
/** The most of the budget a Memory that does not fit whole takes, cut. */
export const MEMORY_BUDGET_PERCENT = 25;
/** Less room than this for a cut text: it is left out rather than sent as a stub. */
const CUT_MIN_TOKENS = 20;
/** What a cut text ends with, so the narrator (and the player) can see it goes on. */
export const CUT_MARK = " […]";

/**
 * `text` whole when it costs at most `maxTokens` (as `cost` counts it), else its longest beginning that does,
 * cut at a word and marked with CUT_MARK; "" when not even CUT_MIN_TOKENS fit. Never inside a surrogate pair.
 */
export function fitToTokens(
  text: string,
  maxTokens: number,
  cost: (text: string) => number,
): { text: string; cut: boolean } {
  if (cost(text) <= maxTokens) return { text, cut: false };
  if (maxTokens < CUT_MIN_TOKENS) return { text: "", cut: true };
  const chars = Array.from(text);
  const cutAt = (n: number) => {
    const head = chars.slice(0, n).join("");
    const space = head.search(/\s\S*$/);
    return `${(space > n / 2 ? head.slice(0, space) : head).trimEnd()}${CUT_MARK}`;
  };
  // The longest beginning that fits, found by halving (a count is linear, so this stays cheap).
  let low = 0;
  let high = chars.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cost(cutAt(mid)) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  return { text: low > 0 ? cutAt(low) : "", cut: true };
}

/** One recalled exchange's line: "- Turn 5: You: ... Narrator: ..." The offline narrator reads it back. */
export const recalledLine = (line: RecalledLine) =>
  `- Turn ${line.turn}: ${line.player ? `You: ${line.player} ` : ""}Narrator: ${line.narrator}`;

/** One card's line: "- Mara (character): A blind cartographer." The offline narrator reads it back. */
export const cardLine = (card: ContextCard) =>
  `- ${card.name} (${card.kind})${card.description.trim() ? `: ${card.description.trim().replace(/\s+/g, " ")}` : ""}`;

export function assembleContext(
  input: ContextInput,
  count: (text: string) => number = countTextTokens,
): AssembledContext {
  const memory = input.memory.trim();
  const note = input.authorsNote.trim();
  const memoryWhole = memory ? `\n\n${MEMORY_HEADING}\n${memory}` : "";
  const noteMessage = note ? `${AUTHORS_NOTE_HEADING}\n${note}` : "";

  // The instructions and the player's message always go; everything else takes what is left, by priority.
  const instructionTokens = messageTokens(input.instructions, count);
  const promptTokens = messageTokens(input.prompt, count);
  const postHistory = input.postHistoryInstructions?.trim() ?? "";
  const postHistoryTokens = postHistory ? messageTokens(postHistory, count) : 0;
  let left = input.budget - instructionTokens - promptTokens - postHistoryTokens;

  // Memory whole when it fits; else its beginning, within what is left and its share of the budget.
  const cut: CutToBudget[] = [];
  let memoryBlock = memoryWhole;
  let memoryTokens = memoryBlock ? count(memoryBlock) : 0;
  if (memoryTokens > left) {
    const room = Math.min(left, Math.floor((input.budget * MEMORY_BUDGET_PERCENT) / 100));
    const heading = count(`\n\n${MEMORY_HEADING}\n`);
    const fitted = fitToTokens(memory, room - heading, count);
    memoryBlock = fitted.text ? `\n\n${MEMORY_HEADING}\n${fitted.text}` : "";
    memoryTokens = memoryBlock ? count(memoryBlock) : 0;
    cut.push({
      part: "memory",
      keptCharacters: fitted.text ? Array.from(fitted.text).length - CUT_MARK.length : 0,
      totalCharacters: Array.from(memory).length,
    });
  }
  const keepMemory = memoryTokens > 0 && memoryTokens <= left;
  if (keepMemory) left -= memoryTokens;

  // Cards, each whole or not at all, the higher priority kept first (then the more recent); the heading
  // costs once. They take at most their share of the budget.
  const cards = input.cards ?? [];
  const headingTokens = cards.length ? count(`\n\n${CARDS_HEADING}`) : 0;
  const loreShare =
    input.loreBudgetPercent === undefined ? left : Math.floor((input.budget * input.loreBudgetPercent) / 100);
  let cardRoom = Math.min(left, loreShare);
  const recency = new Map(cards.map((card, index) => [card, index]));
  const byPriority = [...cards].sort(
    (a, b) =>
      (b.priority ?? DEFAULT_PRIORITY) - (a.priority ?? DEFAULT_PRIORITY) ||
      recency.get(a)! - recency.get(b)!,
  );
  const keptCards: ContextCard[] = [];
  let cardTokens = 0;
  for (const card of byPriority) {
    const tokens = count(`\n${cardLine(card)}`) + (keptCards.length === 0 ? headingTokens : 0);
    if (tokens > cardRoom) continue;
    cardRoom -= tokens;
    cardTokens += tokens;
    keptCards.push(card);
  }
  left -= cardTokens;
  keptCards.sort(
    (a, b) =>
      (a.insertionOrder ?? DEFAULT_INSERTION_ORDER) - (b.insertionOrder ?? DEFAULT_INSERTION_ORDER) ||
      recency.get(a)! - recency.get(b)!,
  );
  const cardsBlock = keptCards.length
    ? `\n\n${CARDS_HEADING}${keptCards.map((card) => `\n${cardLine(card)}`).join("")}`
    : "";

  // Recalled exchanges, each whole or not at all, the most relevant first, within their share.
  const recalled = input.recalled ?? [];
  const recallHeadingTokens = recalled.length ? count(`\n\n${RECALL_HEADING}`) : 0;
  let recallRoom = Math.min(
    left,
    Math.floor((input.budget * (input.recallBudgetPercent ?? RECALL_BUDGET_PERCENT)) / 100),
  );
  const keptRecalled: RecalledLine[] = [];
  let recallTokens = 0;
  for (const line of recalled) {
    const tokens = count(`\n${recalledLine(line)}`) + (keptRecalled.length === 0 ? recallHeadingTokens : 0);
    if (tokens > recallRoom) continue;
    recallRoom -= tokens;
    recallTokens += tokens;
    keptRecalled.push(line);
  }
  left -= recallTokens;
  // Told in story order.
  keptRecalled.sort((a, b) => a.turn - b.turn);
  const recallBlock = keptRecalled.length
    ? `\n\n${RECALL_HEADING}${keptRecalled.map((line) => `\n${recalledLine(line)}`).join("")}`
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

  // The history messages that come after the note: depth 1 puts it after all of them.
  const after = Math.min(Math.max((input.authorsNoteDepth ?? 1) - 1, 0), kept.length);
  const noteAt = kept.length - after;
  const history = kept.map((m) => ({ role: m.role, content: m.content }));
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: `${input.instructions}${keepMemory ? memoryBlock : ""}${cardsBlock}${recallBlock}${keepSummary ? summaryBlock : ""}`,
    },
    ...history.slice(0, noteAt),
    ...(keepNote ? [{ role: "system" as const, content: noteMessage }] : []),
    ...history.slice(noteAt),
    ...(postHistory ? [{ role: "system" as const, content: postHistory }] : []),
    { role: "user", content: input.prompt },
  ];
  const parts: AssembledContext["parts"] = [
    { part: "instructions", tokens: instructionTokens },
    { part: "memory", tokens: keepMemory ? memoryTokens : 0 },
    { part: "cards", tokens: cardTokens },
    // Only when something was recalled, so stories without recall answer the parts they always did.
    ...(recalled.length ? [{ part: "recall" as const, tokens: recallTokens }] : []),
    { part: "summary", tokens: keepSummary ? summaryTokens : 0 },
    { part: "history", tokens: historyTokens },
    { part: "authors_note", tokens: keepNote ? noteTokens : 0 },
    // Only when the story has them, so stories without them answer the parts they always did.
    ...(postHistory ? [{ part: "post_history_instructions" as const, tokens: postHistoryTokens }] : []),
    { part: "prompt", tokens: promptTokens },
  ];
  return {
    messages,
    cut,
    parts,
    droppedMessages: input.history.length - kept.length,
    keptCardIds: keptCards.map((card) => card.id),
    keptRecalledIds: keptRecalled.map((line) => line.messageId),
    totalTokens: parts.reduce((sum, part) => sum + part.tokens, 0),
    budget: input.budget,
  };
}

// Which Story Cards a turn wakes, and why. A card is active when one of its triggers appears in the player's
// message or in the story's `lore_scan_depth` newest messages (4 unless the story says otherwise), or always
// when it is constant. A plain trigger matches as a whole word, without regard to case unless the card is
// case-sensitive; words are Unicode-aware: a trigger is bounded by anything that is not a letter, a mark or a
// digit of any script ("Élodie" matches in "élodie's", "Ash" does not match in "Ashford", "猫" matches between
// spaces or punctuation). A trigger written `/pattern/flags` is a regular expression with its own flags.
// Secondary triggers follow SillyTavern's selective logic over the same scanned texts: AND ANY (at least one
// also present), AND ALL (all present), NOT ANY (none present), NOT ALL (not all present).

import v8 from "node:v8";
import vm from "node:vm";
import { CARD_TRIGGER_WINDOW, regexTrigger, type SelectiveLogic } from "@storyverse/contract/story-cards";
import type { CardActivationReason } from "@storyverse/contract/story-craft";

// A player's `/regex/` trigger runs on the server against every turn's messages. Patterns that can take
// exponential time are refused on save (contract), but polynomial ones ("a*a*a*b") remain: with this V8 flag
// a match that backtracks excessively continues on V8's linear-time engine (same answer, bounded time) instead
// of holding the event loop. It changes nothing for a match that does not backtrack that much.
v8.setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");

// The linear-time engine takes no `i` or `u` flag and no lookaround, and the save-time check cannot see every
// ambiguous pattern ("(a|a)*$"): so a `/regex/` trigger is matched in a context of its own under a time limit,
// which V8 interrupts even mid-match. A trigger that runs out of time matches nothing.
const REGEX_MATCH_MAX_MS = 25;
/** All `/regex/` triggers of one activation together, so a hundred slow cards cannot add up either. */
const REGEX_ACTIVATION_MAX_MS = 200;
const regexSandbox = vm.createContext(Object.create(null));
const lastMatches = new vm.Script(`{
  const lasts = [];
  let pattern = null;
  try { pattern = new RegExp(source, flags); } catch {}
  for (const text of texts) {
    let last = -1;
    if (pattern) for (const match of text.matchAll(pattern)) last = match.index;
    lasts.push(last);
  }
  JSON.stringify(lasts);
}`);

type RegexBudget = { ms: number };

/** Tries of one trigger interrupted while it had barely run (the process was waiting for a core, not matching). */
const REGEX_MATCH_TRIES = 3;

/** Where a `/regex/` trigger last matches in each text (-1: not at all, or out of time). */
function regexLastMatches(
  regex: { source: string; flags: string },
  texts: readonly string[],
  budget: RegexBudget,
): number[] {
  const none = texts.map(() => -1);
  for (let tried = 1; budget.ms >= 1; tried += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const timeout = Math.max(1, Math.floor(Math.min(REGEX_MATCH_MAX_MS, budget.ms)));
    Object.assign(regexSandbox, { source: regex.source, flags: `${regex.flags}g`, texts: [...texts] });
    try {
      return JSON.parse(lastMatches.runInContext(regexSandbox, { timeout }) as string) as number[];
    } catch {
      // The limit is wall-clock time. A pattern that really ran out of it used about that much CPU; one
      // interrupted on a loaded host (waiting for a core, or for a collection) did not, and is tried again with
      // what is left of the budget, so a busy machine does not silently drop a player's trigger.
      const cpu = process.cpuUsage(cpuStarted);
      const ranMs = (cpu.user + cpu.system) / 1000;
      if (ranMs >= timeout / 2 || tried >= REGEX_MATCH_TRIES) return none;
    } finally {
      budget.ms -= performance.now() - started;
      Object.assign(regexSandbox, { source: null, flags: null, texts: null });
    }
  }
  return none;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What activation reads of a card (the lore fields default to a plain, case-insensitive card). */
export type ActivationCard = {
  triggers: string[];
  enabled?: boolean;
  secondaryTriggers?: string[];
  selectiveLogic?: SelectiveLogic;
  constant?: boolean;
  caseSensitive?: boolean;
};

/** A whole-word matcher for one plain trigger (inner spaces match any run of spaces). */
function wordPattern(trigger: string, caseSensitive: boolean): RegExp {
  const words = trigger.normalize("NFC").trim().split(/\s+/).map(escapeRegExp).join("\\s+");
  return new RegExp(
    `(?<![\\p{L}\\p{M}\\p{N}])${words}(?![\\p{L}\\p{M}\\p{N}])`,
    caseSensitive ? "gu" : "giu",
  );
}

/**
 * The texts a turn's cards are woken by, the most recent first: the player's message, then the `depth`
 * newest messages (0: the player's message only).
 */
export function triggerTexts(
  prompt: string,
  history: { content: string }[],
  depth: number = CARD_TRIGGER_WINDOW,
): string[] {
  const recent = depth > 0 ? history.slice(-depth) : [];
  return [prompt, ...recent.reverse().map((message) => message.content)];
}

/** Where in the scanned texts a mention was: "your message", "1 message back", "2 messages back"... */
const whereOf = (text: number) =>
  text === 0 ? "your message" : `${text} message${text === 1 ? "" : "s"} back`;

/** Where one trigger last matches in each text (-1: not at all); a `/regex/flags` one in its sandbox. */
function lastMentions(
  trigger: string,
  texts: readonly string[],
  caseSensitive: boolean,
  budget: RegexBudget,
): number[] {
  const regex = regexTrigger(trigger);
  if (regex) return regexLastMatches(regex, texts, budget);
  const pattern = wordPattern(trigger, caseSensitive);
  return texts.map((text) => {
    let last = -1;
    for (const match of text.matchAll(pattern)) last = match.index;
    return last;
  });
}

/** The newest mention of any of the triggers: the text (0 = newest) and position, and which trigger. */
function newestMention(
  triggers: string[],
  texts: readonly string[],
  caseSensitive: boolean,
  budget: RegexBudget,
): { text: number; at: number; key: string } | null {
  const mentions = triggers
    .filter((trigger) => trigger.trim())
    .map((trigger) => ({ key: trigger, lasts: lastMentions(trigger, texts, caseSensitive, budget) }));
  for (let text = 0; text < texts.length; text++) {
    let found: { at: number; key: string } | null = null;
    for (const { key, lasts } of mentions) {
      const at = lasts[text]!;
      if (at >= 0 && (!found || at > found.at)) found = { at, key };
    }
    if (found) return { text, ...found };
  }
  return null;
}

/** Does the card's selective logic let it fire, given which secondary triggers appear somewhere? */
function secondaryVerdict(
  card: ActivationCard,
  texts: readonly string[],
  budget: RegexBudget,
): { fires: boolean; secondary?: string[]; without?: string[] } {
  const keys = (card.secondaryTriggers ?? []).filter((key) => key.trim());
  if (keys.length === 0) return { fires: true };
  const present = keys.filter(
    (key) => newestMention([key], texts, card.caseSensitive ?? false, budget) !== null,
  );
  const absent = keys.filter((key) => !present.includes(key));
  switch (card.selectiveLogic ?? "and_any") {
    case "and_any":
      return { fires: present.length > 0, secondary: present };
    case "and_all":
      return { fires: absent.length === 0, secondary: present };
    case "not_any":
      return { fires: present.length === 0, without: absent };
    case "not_all":
      return { fires: absent.length > 0, without: absent };
  }
}

export type ActiveCard<T> = {
  card: T;
  reason: CardActivationReason;
  /** How recent the mention is: 0 for constant cards (mentioned now), then by text and position. */
  recency: number;
};

/**
 * The enabled cards a turn wakes with why, the most recently mentioned first: constant cards (they count as
 * mentioned now), then by the newest text that mentions them, and within one text by the later mention.
 * Disabled cards never wake.
 */
export function activateCards<T extends ActivationCard>(
  cards: readonly T[],
  textsNewestFirst: readonly string[],
): ActiveCard<T>[] {
  const texts = textsNewestFirst.map((text) => text.normalize("NFC"));
  const budget: RegexBudget = { ms: REGEX_ACTIVATION_MAX_MS };
  const ranked: { card: T; reason: CardActivationReason; text: number; at: number; order: number }[] = [];
  cards.forEach((card, order) => {
    if (card.enabled === false) return;
    if (card.constant) {
      ranked.push({ card, reason: { kind: "constant" }, text: -1, at: 0, order });
      return;
    }
    const mention = newestMention(card.triggers, texts, card.caseSensitive ?? false, budget);
    if (!mention) return;
    const verdict = secondaryVerdict(card, texts, budget);
    if (!verdict.fires) return;
    ranked.push({
      card,
      reason: {
        kind: "key",
        key: mention.key,
        where: whereOf(mention.text),
        messages_back: mention.text,
        ...(verdict.secondary?.length ? { secondary: verdict.secondary } : {}),
        ...(verdict.without?.length ? { without: verdict.without } : {}),
      },
      text: mention.text,
      at: mention.at,
      order,
    });
  });
  ranked.sort((a, b) => a.text - b.text || b.at - a.at || a.order - b.order);
  return ranked.map((entry, recency) => ({ card: entry.card, reason: entry.reason, recency }));
}

/** The enabled cards a turn wakes, the most recently mentioned first (see activateCards). */
export function activeCards<T extends ActivationCard>(
  cards: readonly T[],
  textsNewestFirst: readonly string[],
): T[] {
  return activateCards(cards, textsNewestFirst).map((entry) => entry.card);
}

const quoted = (keys: string[]) => keys.map((key) => `"${key}"`).join(", ");

/** Why a card fired, in words: `always on`, `"Mara" in your message`, `"ship" in 2 messages back, and "storm"`. */
export function describeReason(reason: CardActivationReason): string {
  if (reason.kind === "constant") return "always on";
  return [
    `"${reason.key}" in ${reason.where}`,
    ...(reason.secondary?.length ? [`and ${quoted(reason.secondary)}`] : []),
    ...(reason.without?.length ? [`without ${quoted(reason.without)}`] : []),
  ].join(", ");
}

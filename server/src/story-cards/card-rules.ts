// The rules a Story Card's text keeps however it arrives (the card editor, a card or lorebook import, a
// story restore), written once: a text cut to fit its limit with one note the player sees, triggers cleaned
// (trimmed, NFC, each once whatever its case, a pattern the app would refuse left out, at most
// CARD_TRIGGERS_MAX), and a name freed beside the story's others as "Mara (2)", "Mara (3)"...
// Decision 0135 says which of the old copies' behaviours these keep.
import type { ImportNote } from "@storyverse/contract/interop";
import {
  CARD_NAME_MAX_LENGTH,
  CARD_TRIGGER_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
  regexTriggerProblem,
} from "@storyverse/contract/story-cards";

/**
 * `text` within `max` characters (counted as code points: never inside a surrogate pair, and no space left
 * at the cut), with a note naming `what` when it was cut.
 */
export function cutToFit(text: string, max: number, what: string, notes: ImportNote[]): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  notes.push({ name: what, reason: `cut from ${chars.length} to ${max} characters to fit the app's limit` });
  return chars.slice(0, max).join("").trimEnd();
}

/** A trigger as a card keeps it: trimmed, in Unicode's composed form (NFC). */
const triggerForm = (trigger: string) => trigger.trim().normalize("NFC");

/** Triggers as the card keeps them: trimmed, NFC, none empty, each once (case-insensitively), in order. */
export function cleanTriggers(triggers: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of triggers) {
    const trigger = triggerForm(raw);
    const key = trigger.toLowerCase();
    if (!trigger || seen.has(key)) continue;
    seen.add(key);
    kept.push(trigger);
  }
  return kept;
}

/**
 * Triggers from a file (an import or a restore) within the card's rules: cleaned, a trigger over
 * CARD_TRIGGER_MAX_LENGTH or a pattern the app would refuse left out (a cut pattern would match something
 * else, or be no pattern at all), at most CARD_TRIGGERS_MAX kept; each thing left out is a note on `what`.
 */
export function fitTriggers(triggers: readonly string[], what: string, notes: ImportNote[]): string[] {
  const kept: string[] = [];
  for (const trigger of cleanTriggers(triggers)) {
    if (Array.from(trigger).length > CARD_TRIGGER_MAX_LENGTH) {
      notes.push({
        name: what,
        reason: `left out a trigger: "${trigger}" is longer than ${CARD_TRIGGER_MAX_LENGTH} characters`,
      });
      continue;
    }
    const problem = regexTriggerProblem(trigger);
    if (problem) {
      notes.push({ name: what, reason: `left out a trigger: ${problem.replace(/^triggers: /, "")}` });
      continue;
    }
    kept.push(trigger);
  }
  if (kept.length > CARD_TRIGGERS_MAX) {
    notes.push({ name: what, reason: `kept the first ${CARD_TRIGGERS_MAX} of its ${kept.length} triggers` });
    return kept.slice(0, CARD_TRIGGERS_MAX);
  }
  return kept;
}

/** A card's name as it is compared: the story's names are unique case-insensitively. */
export const nameKey = (name: string) => name.trim().normalize("NFC").toLowerCase();

/**
 * `name` (trimmed, NFC; "Unnamed" when empty), or the first of "name (2)", "name (3)"... that `taken` (names
 * as nameKey gives them) does not hold, cut to fit CARD_NAME_MAX_LENGTH with its number; the name is added to
 * `taken`.
 */
export function freeName(name: string, taken: Set<string>): string {
  const base = name.trim().normalize("NFC") || "Unnamed";
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : ` (${n})`;
    const candidate = `${Array.from(base)
      .slice(0, CARD_NAME_MAX_LENGTH - suffix.length)
      .join("")
      .trimEnd()}${suffix}`;
    if (!taken.has(nameKey(candidate))) {
      taken.add(nameKey(candidate));
      return candidate;
    }
  }
}

/** The note for a card renamed by freeName (`what` names the card as the file had it). */
export function renamedNote(what: string, name: string): ImportNote {
  return { name: what, reason: `renamed "${name}": another card has that name` };
}

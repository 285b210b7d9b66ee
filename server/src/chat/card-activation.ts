// Which Story Cards a turn wakes: a card is active when one of its triggers appears, as a whole word and
// without regard to case, in the player's message or the newest messages. Words are Unicode-aware: a
// trigger is bounded by anything that is not a letter, a mark or a digit of any script ("Élodie" matches in
// "élodie's", "Ash" does not match in "Ashford", "猫" matches between spaces or punctuation).
import { CARD_TRIGGER_WINDOW } from "@storyverse/contract/story-cards";
import type { TurnCard } from "./narration";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A whole-word, case-insensitive matcher for one trigger (inner spaces match any run of spaces). */
export function triggerPattern(trigger: string): RegExp {
  const words = trigger.normalize("NFC").trim().split(/\s+/).map(escapeRegExp).join("\\s+");
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${words}(?![\\p{L}\\p{M}\\p{N}])`, "giu");
}

/** The texts a turn's cards are woken by, the most recent first: the prompt, then the newest messages. */
export function triggerTexts(prompt: string, history: { content: string }[]): string[] {
  return [
    prompt,
    ...history
      .slice(-CARD_TRIGGER_WINDOW)
      .reverse()
      .map((message) => message.content),
  ];
}

/**
 * The enabled cards a turn wakes, the most recently mentioned first: by the newest text that mentions
 * them, and within one text by the later mention. Disabled cards never wake.
 */
export function activeCards<T extends Pick<TurnCard, "triggers"> & { enabled?: boolean }>(
  cards: readonly T[],
  textsNewestFirst: readonly string[],
): T[] {
  const texts = textsNewestFirst.map((text) => text.normalize("NFC"));
  const ranked: { card: T; text: number; at: number; order: number }[] = [];
  cards.forEach((card, order) => {
    if (card.enabled === false) return;
    const patterns = card.triggers.filter((trigger) => trigger.trim()).map(triggerPattern);
    for (let text = 0; text < texts.length; text++) {
      let at = -1;
      for (const pattern of patterns) {
        for (const match of texts[text]!.matchAll(pattern)) at = Math.max(at, match.index);
      }
      if (at >= 0) {
        ranked.push({ card, text, at, order });
        return;
      }
    }
  });
  ranked.sort((a, b) => a.text - b.text || b.at - a.at || a.order - b.order);
  return ranked.map((entry) => entry.card);
}

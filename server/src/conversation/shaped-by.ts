// What shaped a story's narrator message (docs/decisions/0105), recorded when its turn stores it: read off the
// context the turn actually sent (after the budget), not off the story's settings.
import type { ShapedBy } from "@storyverse/contract/chat";
import type { TurnCard } from "./narration";
import type { AssembledContext, RecalledLine } from "./narrator-context";

const sent = (context: Pick<AssembledContext, "parts">, part: "memory" | "summary") =>
  context.parts.some((entry) => entry.part === part && entry.tokens > 0);

/**
 * `active`: the turn's active cards; `context`: what was assembled from them; `references`: the storage keys
 * the scene is painted from (none when the turn paints no scene). A card counts when its text fit the budget
 * or its portrait went as a reference.
 */
export function shapedBy(
  active: TurnCard[],
  context: Pick<AssembledContext, "parts" | "keptCardIds"> &
    Partial<Pick<AssembledContext, "keptRecalledIds">> & {
      recalled?: Pick<RecalledLine, "messageId" | "turn">[];
    },
  references: string[],
): ShapedBy {
  const painted = new Set(references);
  const kept = new Set(context.keptCardIds);
  const cards = active.flatMap((card) => {
    const portraitUsed = card.portraitKey !== null && painted.has(card.portraitKey);
    return kept.has(card.id) || portraitUsed
      ? [{ id: card.id, name: card.name, portrait_used: portraitUsed }]
      : [];
  });
  const recalledKept = new Set(context.keptRecalledIds ?? []);
  const recalled = (context.recalled ?? [])
    .filter((line) => recalledKept.has(line.messageId))
    .map((line) => line.turn)
    .sort((a, b) => a - b);
  return {
    cards,
    memory: sent(context, "memory"),
    summary: sent(context, "summary"),
    references: references.length,
    // Only when something was recalled, so the messages of stories without recall read as before.
    ...(recalled.length ? { recalled } : {}),
  };
}

/**
 * A version that keeps another's scene (Retry "New words", Continue) or paints a new one for the same words
 * (Retry "New scene"): its words were shaped by `words`, its picture by `scene` (null: a scene recorded
 * before shaped_by was, so no references are known).
 */
export function withSceneOf(words: ShapedBy, scene: ShapedBy | null): ShapedBy {
  const portraits = new Map((scene?.cards ?? []).map((card) => [card.id, card]));
  const cards = words.cards.map((card) => ({
    ...card,
    portrait_used: portraits.get(card.id)?.portrait_used ?? false,
  }));
  const listed = new Set(cards.map((card) => card.id));
  for (const card of portraits.values()) if (card.portrait_used && !listed.has(card.id)) cards.push(card);
  return { ...words, cards, references: scene?.references ?? 0 };
}

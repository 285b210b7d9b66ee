// Characters know what they saw (issue 43 item 3, decision 0165). Each message records who was present when it
// was written; a story that keeps each speaker to what they saw sends a group's speaker only those messages, and
// the summary and recall only of those. A character is matched by card id, else by name: a branch's messages
// before its fork name the source's cards, whose copies on the branch keep the names (as speakers are found).
import { type SQL, sql } from "drizzle-orm";
import type { PresentCharacter } from "../db/schema";
import type { StorySetting, Witness } from "./narration";

/** Who a message written with this setting has present: a group's cards, a character teller's; null: all. */
export function presentOf(story: StorySetting | null): PresentCharacter[] | null {
  if (story?.group) return story.group.present.map((card) => ({ card_id: card.id, name: card.name }));
  if (story?.teller) return [{ card_id: story.teller.cardId, name: story.teller.name }];
  return null;
}

/** Whether the character was present: null (the narrator's, the player's before groups) is seen by all. */
export function wasPresent(present: readonly PresentCharacter[] | null | undefined, who: Witness): boolean {
  if (!present) return true;
  const name = who.name.toLowerCase();
  return present.some((one) => one.card_id === who.cardId || one.name.toLowerCase() === name);
}

/** The same rule over a chat_messages row named `alias` (recall's candidates). */
export function presentInSql(alias: string, who: Witness): SQL {
  const present = sql`${sql.identifier(alias)}.present`;
  return sql`(
    ${present} is null
    or ${present} @> ${JSON.stringify([{ card_id: who.cardId }])}::jsonb
    or exists (select 1 from jsonb_array_elements(${present}) one where lower(one->>'name') = ${who.name.toLowerCase()})
  )`;
}

/**
 * Who witnessed every message of a summary after it folds these messages: the characters present for all of
 * them (by id or name), null while every message folded was seen by all.
 */
export function witnessesAfter(
  witnesses: readonly PresentCharacter[] | null,
  folded: readonly { present?: readonly PresentCharacter[] | null }[],
): PresentCharacter[] | null {
  let kept: PresentCharacter[] | null = witnesses ? [...witnesses] : null;
  for (const message of folded) {
    if (!message.present) continue;
    kept = (kept ?? [...message.present]).filter((one) =>
      wasPresent(message.present, { cardId: one.card_id, name: one.name }),
    );
  }
  return kept;
}

// What a whole-story backup needs of the story cards module: each branch's cards as stored (every column, the
// lore ones included) and its living-lore drafts, and the restore's writes of them (decision 0171: the stories
// module's backup rows no longer read them). The interop module reaches the story_cards and lore_suggestions
// tables only through here. Callers check the story: the backup's tree read answers 404 for anyone else's.
import { PORTRAIT_UPLOADS_MAX, TOO_MANY_PORTRAITS_DETAIL } from "@storyverse/contract/story-cards";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { loreSuggestions, storyCards } from "../db/schema";
import { TooLarge } from "../platform/errors";
import { type CardRow, countUploadedPortraits, listCards, lockUserPortraits } from "./cards-repo";
import { allSuggestions, type SuggestionRow } from "./living-lore-repo";

export type BackupCard = CardRow;
export type BackupDraft = SuggestionRow;
export type RestoredCard = typeof storyCards.$inferInsert;
export type RestoredDraft = typeof loreSuggestions.$inferInsert;

/** One branch's cards and drafts, as stored. */
export async function branchCardsForBackup(
  ctx: Pick<AppContext, "db">,
  userId: string,
  branchId: string,
): Promise<{ cards: BackupCard[]; drafts: BackupDraft[] }> {
  return {
    cards: await listCards(ctx.db, userId, branchId),
    drafts: await allSuggestions(ctx.db, userId, branchId),
  };
}

/** A restored story's cards and drafts (in the last batch, with its gallery items). */
export async function insertRestoredCardsAndDrafts(
  q: Queryable,
  cards: RestoredCard[],
  drafts: RestoredDraft[],
): Promise<void> {
  for (let start = 0; start < cards.length; start += 500) {
    await q.insert(storyCards).values(cards.slice(start, start + 500));
  }
  for (let start = 0; start < drafts.length; start += 1_000) {
    await q.insert(loreSuggestions).values(drafts.slice(start, start + 1_000));
  }
}

/**
 * Refuses a restore whose uploaded portraits would take the user past PORTRAIT_UPLOADS_MAX. Holds the
 * user's portrait lock until the caller's transaction ends, as a card's own upload does.
 */
export async function assertRoomForRestoredPortraits(q: Queryable, userId: string, count: number) {
  if (count === 0) return;
  await lockUserPortraits(q, userId);
  if ((await countUploadedPortraits(q, userId, null)) + count > PORTRAIT_UPLOADS_MAX) {
    throw new TooLarge(TOO_MANY_PORTRAITS_DETAIL);
  }
}

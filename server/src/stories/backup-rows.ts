// What a whole-story backup needs of the stories module: every live branch row of the story, and the restore's
// writes of a new story: its branch rows hidden (`restoring`) until the last batch shows them, who tells each,
// and the removal of a hidden story a restore did not finish. The interop module reaches the stories table
// only through here (the cards and drafts through story-cards/backup-rows.ts). Callers check nothing: a story that is not the user's is a 404 here, and the restore's limits
// are checked before these writes.

import type { SpeakerOrder } from "@storyverse/contract/generation-settings";
import type { Story } from "@storyverse/contract/stories";
import { and, eq, or } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";
import { NotFound } from "../platform/errors";
import { treeRows } from "./branches-repo";
import { groupOf } from "./group";
import { findStory, type StoryRow, storiesChanged, storyCache } from "./repo";
import { listedStory } from "./service";
import { tellerOf } from "./teller";

/** A branch row as a backup writes it (when it was last played is the restore's own: it was made then). */
/** A branch in a backup holds every message it shows (decision 0137): what it shares is not said. */
export type BackupStory = Omit<StoryRow, "lastActivity" | "historyFrom" | "historyThrough" | "historyUntil">;
export type RestoredStory = Omit<typeof stories.$inferInsert, "lastActivity">;

/**
 * Every live branch of the story that `storyId` (the story or any of its branches) belongs to, the first
 * branch first (its cards and drafts are the story cards module's: story-cards/backup-rows.ts); and the branch
 * the story shows. NotFound for anyone else's.
 */
export async function treeForBackup(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<{ branches: { story: BackupStory }[]; viewingBranchId: string | null }> {
  const row = await findStory(ctx.db, userId, storyId);
  if (!row) throw new NotFound("Story not found");
  const rootId = row.rootId ?? row.id;
  const rows = (await treeRows(ctx.db, userId, rootId)).filter(
    (branch) => !branch.restoring && !(branch.id === rootId && branch.branchRemoved),
  );
  // The first row first (treeRows orders by creation; the first row is the oldest, but say so).
  rows.sort((a, b) => (a.id === rootId ? -1 : b.id === rootId ? 1 : 0));
  const branches: { story: BackupStory }[] = [];
  for (const story of rows) branches.push({ story: await withOwnCards(ctx, story) });
  const root = rows.find((branch) => branch.id === rootId);
  return { branches, viewingBranchId: (root ?? row).viewingBranchId ?? null };
}

/**
 * The row with who tells it as it plays: its teller, card and group as this branch's own cards. A branch's row
 * names its source's cards (teller.ts, group.ts), and the archive names each card among its branch's cards.
 */
async function withOwnCards(ctx: Pick<AppContext, "db">, story: StoryRow): Promise<StoryRow> {
  const { teller, card } = await tellerOf(ctx, story);
  const group = await groupOf(ctx, story);
  return {
    ...story,
    teller,
    tellerCardId: card?.id ?? null,
    groupCardIds: group.present.map((present) => present.id),
    mutedCardIds: group.mutedIds,
    speakerOrder: group.order,
  };
}

/** A restored story's branch rows, hidden (`restoring`) until finishRestoredStory, the first row first. */
export async function insertRestoringStories(q: Queryable, rows: RestoredStory[]): Promise<void> {
  for (const row of rows) {
    await q.insert(stories).values({ ...row, restoring: true, lastActivity: row.updatedAt });
  }
  storiesChanged(q, rows);
}

/**
 * Who tells each restored branch (decisions 0154, 0164): the teller, its card, and the group's present and
 * muted cards with its order. Set once its cards exist, for the card's foreign key.
 */
export type RestoredTeller = {
  storyId: string;
  teller: "narrator" | "character" | "group";
  tellerCardId: string | null;
  groupCardIds: string[];
  mutedCardIds: string[];
  speakerOrder: SpeakerOrder;
};

export async function setRestoredTellers(
  q: Queryable,
  userId: string,
  tellers: RestoredTeller[],
): Promise<void> {
  for (const { storyId, ...told } of tellers) {
    // A new row already says this: the narrator, no card, no group.
    const asNew =
      told.teller === "narrator" &&
      told.tellerCardId === null &&
      told.groupCardIds.length === 0 &&
      told.speakerOrder === "natural";
    if (asNew) continue;
    await q
      .update(stories)
      .set(told)
      .where(and(eq(stories.userId, userId), eq(stories.id, storyId)));
  }
}

/** The restore's last batch: every branch of the story shown at once, on the branch it showed. */
export async function finishRestoredStory(
  q: Queryable,
  userId: string,
  rootId: string,
  viewingBranchId: string | null,
): Promise<void> {
  await q
    .update(stories)
    .set({ restoring: false })
    .where(and(eq(stories.userId, userId), or(eq(stories.id, rootId), eq(stories.rootId, rootId))));
  await q.update(stories).set({ viewingBranchId }).where(eq(stories.id, rootId));
  storyCache.invalidate(q, userId);
}

/**
 * Removes a story a restore was writing and did not finish (its branches, messages, cards and drafts go
 * with it by the foreign keys); a story already shown is never touched. True when there was one.
 */
export async function deleteRestoringStory(q: Queryable, userId: string, rootId: string): Promise<boolean> {
  const gone = await q
    .delete(stories)
    .where(and(eq(stories.userId, userId), eq(stories.id, rootId), eq(stories.restoring, true)))
    .returning({ id: stories.id });
  storyCache.invalidate(q, userId);
  return gone.length > 0;
}

/** A restored story's row in the caller's transaction (ids, keys and times already chosen). */
export async function insertRestoredStory(q: Queryable, story: RestoredStory): Promise<void> {
  await q.insert(stories).values({ ...story, lastActivity: story.updatedAt });
  storyCache.invalidate(q, story.userId);
}

/** The restored story as the stories list shows it (its card, with counts and picture). */
export async function restoredStory(
  ctx: Parameters<typeof listedStory>[0],
  userId: string,
  storyId: string,
): Promise<Story> {
  // The card shows the branch the story views, as the list does.
  const root = await findStory(ctx.db, userId, storyId);
  if (!root) throw new NotFound("Story not found");
  return listedStory(ctx, userId, root.viewingBranchId ?? storyId);
}

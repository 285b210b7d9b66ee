// SQL for the stories table. A story card's counts and picture come from the chat and media modules (service.ts).
import { and, desc, eq, gte, ilike, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { stories } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";
import { acrossParts, defineReadCache, partOf } from "../platform/read-cache";

export type StoryRow = typeof stories.$inferSelect;

/**
 * A user's story rows as the hot reads use them (the list, one story, a branch's address), kept per process
 * under the user (decision 0117). Every change to `stories` is a write of this file or of
 * `branches-repo.ts`, `imported-story.ts`, `backup-rows.ts` or `living-lore-repo.ts`, and each invalidates
 * its user after its statement.
 */
export const storyCache = defineReadCache<unknown>("stories.rows", ["stories"], { perPart: ["stories"] });

/** last_activity raised to `at` (never lowered): set by every write that sets updated_at (decision 0134). */
export const laterActivity = (at: Date): SQL => sql`greatest(${stories.lastActivity}, ${at})`;

/**
 * The cache's owners (decision 0134): each story row (a branch) is one part of its user, so a turn in one story
 * keeps the other stories' rows; answers over several rows (the whole list) are a part of their own, which
 * every change of the user's rows drops.
 */
export const storyOwner = (userId: string, storyId: string): string => partOf(userId, storyId);
const acrossStories = (userId: string): string => acrossParts(userId);

/** After a statement that changed these rows (each names its user; and its id, else the whole user goes). */
export function storiesChanged(q: Queryable, rows: readonly { userId: string; id?: string }[]): void {
  for (const row of rows) {
    if (row.id) {
      storyCache.invalidate(q, storyOwner(row.userId, row.id));
      storyCache.invalidate(q, acrossStories(row.userId));
    } else storyCache.invalidate(q, row.userId);
  }
}

const listStoriesStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(stories)
    // A story a restore is still writing is not shown anywhere until its last batch (decision 0123).
    .where(and(eq(stories.userId, sql.placeholder("userId")), eq(stories.restoring, false)))
    .orderBy(desc(stories.updatedAt))
    .prepare("list_stories"),
);

export async function listStories(q: Queryable, userId: string): Promise<StoryRow[]> {
  return storyCache.read(q, `list:${userId}`, acrossStories(userId), () =>
    listStoriesStatement(q).execute({ userId }),
  ) as Promise<StoryRow[]>;
}

/** A story list card's row: the branch the story shows, and its story's id and creation (its first row's). */
export type ListedRow = { row: StoryRow; storyId: string; storyCreatedAt: Date };

/**
 * One page of the story list in SQL (decision 0134): the row each story shows (its first row, or the branch
 * that row views), most recently played first by last_activity, ties by story id, after the cursor, holding
 * `words` in its title or context when given. stories_user_activity_idx walks the user's rows newest first, so
 * the rows read grow with the page (and the branches not shown between its cards), not with the account.
 * Answers `limit + 1` rows at most: one more tells there is a next page.
 */
export async function storyListPage(
  q: Queryable,
  userId: string,
  options: { limit: number; after?: { at: Date; storyId: string } | undefined; words?: string | undefined },
): Promise<ListedRow[]> {
  const root = alias(stories, "root");
  const storyId = sql<string>`coalesce(${stories.rootId}, ${stories.id})`;
  const viewed = alias(stories, "viewed");
  const { after, words } = options;
  const pattern = words ? `%${likeLiteral(words)}%` : undefined;
  const rows = await q
    .select({ row: stories, storyCreatedAt: sql<Date>`coalesce(${root.createdAt}, ${stories.createdAt})` })
    .from(stories)
    .leftJoin(root, eq(root.id, stories.rootId))
    .where(
      and(
        eq(stories.userId, userId),
        // A story a restore is still writing is not shown anywhere until its last batch (decision 0123).
        eq(stories.restoring, false),
        or(
          // A first row shows itself unless it views a branch that is there to show.
          and(
            isNull(stories.rootId),
            or(
              isNull(stories.viewingBranchId),
              eq(stories.viewingBranchId, stories.id),
              sql`not exists (${q
                .select({ one: sql`1` })
                .from(viewed)
                .where(and(eq(viewed.id, stories.viewingBranchId), eq(viewed.restoring, false)))})`,
            ),
          ),
          // A branch is shown when its first row views it.
          and(eq(root.viewingBranchId, stories.id), eq(root.restoring, false)),
        ),
        after
          ? and(
              lte(stories.lastActivity, after.at),
              or(lt(stories.lastActivity, after.at), sql`${storyId} < ${after.storyId}::uuid`),
            )
          : undefined,
        pattern ? or(ilike(stories.title, pattern), ilike(stories.context, pattern)) : undefined,
      ),
    )
    .orderBy(desc(stories.lastActivity), desc(storyId))
    .limit(options.limit + 1);
  return rows.map(({ row, storyCreatedAt }) => ({
    row,
    storyId: row.rootId ?? row.id,
    storyCreatedAt: new Date(storyCreatedAt),
  }));
}

/** `%`, `_` and the backslash taken as themselves in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Any account's stories (and branches) whose title holds `words`, newest first, at most `limit` ids: for moderation. */
export async function storyIdsTitled(q: Queryable, words: string, limit: number): Promise<string[]> {
  const rows = await q
    .select({ id: stories.id })
    .from(stories)
    .where(ilike(stories.title, `%${likeLiteral(words)}%`))
    .orderBy(desc(stories.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

const findStoryStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(stories)
    .where(
      and(
        eq(stories.userId, sql.placeholder("userId")),
        eq(stories.id, sql.placeholder("storyId")),
        eq(stories.restoring, false),
      ),
    )
    .prepare("find_story"),
);

export async function findStory(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<StoryRow | undefined> {
  const [row] = (await storyCache.read(q, `story:${userId}:${storyId}`, storyOwner(userId, storyId), () =>
    findStoryStatement(q).execute({ userId, storyId }),
  )) as StoryRow[];
  return row;
}

/** Stories the user created in [start, end) that still exist. */
export async function countStoriesCreated(
  q: Queryable,
  userId: string,
  start: Date,
  end: Date,
): Promise<number> {
  const [row] = await q
    .select({ count: sql<number>`count(*)::int` })
    .from(stories)
    .where(
      and(
        eq(stories.userId, userId),
        // A branch is part of its story, not a story of its own.
        isNull(stories.rootId),
        gte(stories.createdAt, start),
        lt(stories.createdAt, end),
      ),
    );
  return Number(row?.count ?? 0);
}

export async function insertStory(
  q: Queryable,
  values: { userId: string; title: string; context: string; at: Date },
): Promise<StoryRow> {
  const [row] = await q
    .insert(stories)
    .values({
      userId: values.userId,
      title: values.title,
      context: values.context,
      createdAt: values.at,
      updatedAt: values.at,
      lastActivity: values.at,
    })
    .returning();
  storyCache.invalidate(q, values.userId);
  return row!;
}

export async function updateStory(
  q: Queryable,
  userId: string,
  storyId: string,
  values: Partial<
    Pick<
      StoryRow,
      | "title"
      | "context"
      | "pinnedThumbnailKey"
      | "pinnedAt"
      | "memory"
      | "authorsNote"
      | "summary"
      | "summaryUpdatedAt"
      | "narratorInstructions"
      | "postHistoryInstructions"
      | "creatorNotes"
      | "characterName"
      | "loreBudgetPercent"
      | "loreScanDepth"
      | "outputLength"
      | "temperature"
      | "textModel"
      | "authorsNoteDepth"
      | "artStyle"
      | "aspectRatio"
      | "inputMode"
    >
  > & {
    updatedAt: Date;
  },
): Promise<boolean> {
  const updated = await q
    .update(stories)
    .set({ ...values, lastActivity: laterActivity(values.updatedAt) })
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id });
  storiesChanged(q, [{ userId, id: storyId }]);
  return updated.length === 1;
}

export async function deleteStory(q: Queryable, userId: string, storyId: string): Promise<boolean> {
  const deleted = await q
    .delete(stories)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id });
  storyCache.invalidate(q, userId);
  return deleted.length === 1;
}

/**
 * The summary job's write: only if the summary is still the one the job started from (a player's correction
 * or another job in between wins, and the next job starts from it). Leaves updated_at alone: a summary is
 * not the player's activity.
 */
export async function replaceSummary(
  q: Queryable,
  storyId: string,
  expected: { summary: string; through: Date | null },
  next: {
    summary: string;
    through: Date;
    at: Date;
    covers: number | null;
    witnesses: StoryRow["summaryWitnesses"];
  },
): Promise<boolean> {
  const updated = await q
    .update(stories)
    .set({
      summary: next.summary,
      summaryThrough: next.through,
      summaryCovers: next.covers,
      summaryUpdatedAt: next.at,
      summaryWitnesses: next.witnesses,
    })
    .where(
      and(
        eq(stories.id, storyId),
        eq(stories.summary, expected.summary),
        expected.through ? eq(stories.summaryThrough, expected.through) : isNull(stories.summaryThrough),
      ),
    )
    .returning({ id: stories.id, userId: stories.userId });
  storiesChanged(q, updated);
  return updated.length === 1;
}

/** Keeps the count of messages a summary folded, counted once, if the summary is still the one counted. */
export async function keepSummaryCovers(
  q: Queryable,
  storyId: string,
  through: Date,
  covers: number,
): Promise<void> {
  const updated = await q
    .update(stories)
    .set({ summaryCovers: covers })
    .where(and(eq(stories.id, storyId), eq(stories.summaryThrough, through), isNull(stories.summaryCovers)))
    .returning({ id: stories.id, userId: stories.userId });
  storiesChanged(q, updated);
}

/** The stored keys a story still names: its pinned picture (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByStories: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: stories, user: stories.userId, column: stories.pinnedThumbnailKey }],
    owners,
    keys,
  );

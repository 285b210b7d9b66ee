// SQL for the stories table. A story card's counts and picture come from the chat and media modules (service.ts).
import { and, desc, eq, gte, ilike, isNull, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { stories } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";
import { defineReadCache } from "../platform/read-cache";

export type StoryRow = typeof stories.$inferSelect;

/**
 * A user's story rows as the hot reads use them (the list, one story, a branch's address), kept per process
 * under the user (decision 0117). Every change to `stories` is a write of this file or of
 * `branches-repo.ts`, `imported-story.ts`, `backup-rows.ts` or `living-lore-repo.ts`, and each invalidates
 * its user after its statement.
 */
export const storyCache = defineReadCache<unknown>("stories.rows", ["stories"]);

/** After a statement that changed these rows (each names its user). */
export function storiesChanged(q: Queryable, rows: readonly { userId: string }[]): void {
  for (const userId of new Set(rows.map((row) => row.userId))) storyCache.invalidate(q, userId);
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
  return storyCache.read(q, `list:${userId}`, userId, () =>
    listStoriesStatement(q).execute({ userId }),
  ) as Promise<StoryRow[]>;
}

/** `%`, `_` and the backslash taken as themselves in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The ids of the user's story rows whose title or context holds `words` (case-insensitive): the story list's
 * search (decision 0129). The user's rows come by stories_user_idx; the words are matched as written, inside
 * words too, as the list's search box always did.
 */
export async function searchStoryIds(q: Queryable, userId: string, words: string): Promise<Set<string>> {
  const pattern = `%${likeLiteral(words)}%`;
  const rows = await q
    .select({ id: stories.id })
    .from(stories)
    .where(
      and(
        eq(stories.userId, userId),
        eq(stories.restoring, false),
        or(ilike(stories.title, pattern), ilike(stories.context, pattern)),
      ),
    );
  return new Set(rows.map((row) => row.id));
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
  const [row] = (await storyCache.read(q, `story:${userId}:${storyId}`, userId, () =>
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
    .set(values)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id });
  storyCache.invalidate(q, userId);
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
  next: { summary: string; through: Date; at: Date },
): Promise<boolean> {
  const updated = await q
    .update(stories)
    .set({ summary: next.summary, summaryThrough: next.through, summaryUpdatedAt: next.at })
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

/** The stored keys a story still names: its pinned picture (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByStories: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: stories, user: stories.userId, column: stories.pinnedThumbnailKey }],
    owners,
    keys,
  );

// What the account archive (leave/export.ts, decision 0143) needs of the stories module: the user's
// stories (each the first row of its tree; its branches travel in its backup) a page at a time, from a keyset
// cursor on (created_at, id), so the archive never lists the whole library at once.
import { and, asc, count, eq, gt, isNull, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";

export type AccountStory = { id: string; title: string; createdAt: Date };

const whole = (userId: string) =>
  and(eq(stories.userId, userId), isNull(stories.rootId), eq(stories.restoring, false));

/** One page of the user's stories (the first row of each tree), oldest first, after `after`. */
export async function accountStoriesPage(
  q: Queryable,
  userId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<AccountStory[]> {
  const from = after
    ? or(
        gt(stories.createdAt, after.createdAt),
        and(eq(stories.createdAt, after.createdAt), gt(stories.id, after.id)),
      )
    : undefined;
  return q
    .select({ id: stories.id, title: stories.title, createdAt: stories.createdAt })
    .from(stories)
    .where(and(whole(userId), from))
    .orderBy(asc(stories.createdAt), asc(stories.id))
    .limit(limit);
}

/** How many stories the account has (for the archive's progress). */
export async function accountStoryCount(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(stories).where(whole(userId));
  return row?.n ?? 0;
}

// SQL for share links.
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { shareLinks } from "../db/schema";

export type ShareLinkRow = typeof shareLinks.$inferSelect;

export async function insertShareLink(
  q: Queryable,
  values: typeof shareLinks.$inferInsert,
): Promise<ShareLinkRow> {
  const [row] = await q.insert(shareLinks).values(values).returning();
  return row!;
}

/** Ends every live link of a story; returns how many there were. */
export async function revokeStoryLinks(
  q: Queryable,
  userId: string,
  storyId: string,
  at: Date,
): Promise<number> {
  const revoked = await q
    .update(shareLinks)
    .set({ revokedAt: at })
    .where(and(eq(shareLinks.userId, userId), eq(shareLinks.storyId, storyId), isNull(shareLinks.revokedAt)))
    .returning({ id: shareLinks.id });
  return revoked.length;
}

export async function findLiveStoryLink(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<ShareLinkRow | undefined> {
  const [row] = await q
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.userId, userId), eq(shareLinks.storyId, storyId), isNull(shareLinks.revokedAt)))
    .orderBy(desc(shareLinks.createdAt))
    .limit(1);
  return row;
}

export async function findLiveLinkByHash(q: Queryable, tokenHash: string): Promise<ShareLinkRow | undefined> {
  const [row] = await q
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.tokenHash, tokenHash), isNull(shareLinks.revokedAt)));
  return row;
}

/** The story's newest link, live or not (a taken-down link's reason is shown to its owner). */
export async function findNewestStoryLink(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<ShareLinkRow | undefined> {
  const [row] = await q
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.userId, userId), eq(shareLinks.storyId, storyId)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .limit(1);
  return row;
}

/**
 * Live links (or taken-down ones), newest first, `limit` after the cursor (created_at, id): of these owners or
 * stories only, or the one with this token hash, when given (the admin console's Moderation).
 */
export function liveLinksPage(
  q: Queryable,
  filter: { userIds?: string[]; tokenHash?: string; storyIds?: string[]; takenDown?: boolean },
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<ShareLinkRow[]> {
  const conditions: SQL[] = [
    filter.takenDown ? isNotNull(shareLinks.takenDownAt) : isNull(shareLinks.revokedAt),
  ];
  if (filter.tokenHash) conditions.push(eq(shareLinks.tokenHash, filter.tokenHash));
  // A search reaches links of the matching owners or of the matching stories.
  const either: SQL[] = [];
  if (filter.userIds && filter.userIds.length > 0) either.push(inArray(shareLinks.userId, filter.userIds));
  if (filter.storyIds && filter.storyIds.length > 0)
    either.push(inArray(shareLinks.storyId, filter.storyIds));
  if (filter.userIds || filter.storyIds) conditions.push(either.length > 0 ? or(...either)! : sql`false`);
  if (after) {
    conditions.push(
      or(
        lt(shareLinks.createdAt, after.createdAt),
        and(eq(shareLinks.createdAt, after.createdAt), lt(shareLinks.id, after.id)),
      )!,
    );
  }
  return q
    .select()
    .from(shareLinks)
    .where(and(...conditions))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .limit(limit);
}

/**
 * Lifts an administrator's takedown: the link works again, unless the story has a newer link (then undefined,
 * as for a hash no taken-down link has).
 */
export async function liftTakedown(q: Queryable, tokenHash: string): Promise<ShareLinkRow | undefined> {
  const [row] = await q
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.tokenHash, tokenHash), isNotNull(shareLinks.takenDownAt)));
  if (!row) return undefined;
  const [newer] = await q
    .select({ id: shareLinks.id })
    .from(shareLinks)
    .where(and(eq(shareLinks.storyId, row.storyId), gt(shareLinks.createdAt, row.createdAt)))
    .limit(1);
  if (newer) return undefined;
  const [lifted] = await q
    .update(shareLinks)
    .set({ revokedAt: null, takenDownAt: null, takenDownReason: null })
    .where(and(eq(shareLinks.id, row.id), isNotNull(shareLinks.takenDownAt)))
    .returning();
  return lifted;
}

/** Takes a live link down with its reason; the row taken down, or undefined when no live link has the hash. */
export async function takeDownLink(
  q: Queryable,
  tokenHash: string,
  at: Date,
  reason: string,
): Promise<ShareLinkRow | undefined> {
  const [row] = await q
    .update(shareLinks)
    .set({ revokedAt: at, takenDownAt: at, takenDownReason: reason })
    .where(and(eq(shareLinks.tokenHash, tokenHash), isNull(shareLinks.revokedAt)))
    .returning();
  return row;
}

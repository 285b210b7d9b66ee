// SQL for share links.
import { and, desc, eq, inArray, isNull, lt, or } from "drizzle-orm";
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
 * Live links, newest first, `limit` after the cursor (created_at, id): of these owners only, or the one with
 * this token hash, when given (the admin console's Moderation).
 */
export function liveLinksPage(
  q: Queryable,
  filter: { userIds?: string[]; tokenHash?: string },
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<ShareLinkRow[]> {
  const conditions = [isNull(shareLinks.revokedAt)];
  if (filter.userIds) conditions.push(inArray(shareLinks.userId, filter.userIds));
  if (filter.tokenHash) conditions.push(eq(shareLinks.tokenHash, filter.tokenHash));
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

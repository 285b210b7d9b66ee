// SQL for share links.
import { and, desc, eq, isNull } from "drizzle-orm";
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

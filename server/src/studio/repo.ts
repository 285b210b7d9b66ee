// SQL for the Studio's conversation (studio_messages): prompts, advisor answers and generated batches.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { mediaItems, studioMessages } from "../db/schema";

export type StudioMessageRow = typeof studioMessages.$inferSelect;
export type NewStudioMessage = typeof studioMessages.$inferInsert;
export type StudioMediaRow = typeof mediaItems.$inferSelect;

export async function insertStudioMessages(
  q: Queryable,
  values: NewStudioMessage[],
): Promise<StudioMessageRow[]> {
  return q.insert(studioMessages).values(values).returning();
}

/** The newest `limit` messages, oldest first; `advisorOnly` keeps the advisor conversation alone. */
export async function recentStudioMessages(
  q: Queryable,
  userId: string,
  limit: number,
  options: { advisorOnly?: boolean } = {},
): Promise<StudioMessageRow[]> {
  const conditions = [eq(studioMessages.userId, userId)];
  if (options.advisorOnly) conditions.push(eq(studioMessages.isAdvisor, true));
  const rows = await q
    .select()
    .from(studioMessages)
    .where(and(...conditions))
    .orderBy(desc(studioMessages.createdAt), desc(studioMessages.id))
    .limit(limit);
  return rows.reverse();
}

/**
 * The user's gallery items among `ids`, in one query for a whole history page. This reads the media module's
 * table, which its repo has no batch lookup for yet; it belongs in media/repo.ts and moves there when that
 * file is open to change. Scoped to the user, so a stray id can never show someone else's file.
 */
export async function findOwnedMediaByIds(
  q: Queryable,
  userId: string,
  ids: string[],
): Promise<StudioMediaRow[]> {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), inArray(mediaItems.id, ids)));
}

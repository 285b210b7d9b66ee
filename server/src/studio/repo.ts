// SQL for the Studio's conversation (studio_messages): prompts, advisor answers and generated batches.
import { and, desc, eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { studioMessages } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";

export type StudioMessageRow = typeof studioMessages.$inferSelect;
export type NewStudioMessage = typeof studioMessages.$inferInsert;

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

export async function findStudioMessage(q: Queryable, id: string): Promise<StudioMessageRow | undefined> {
  const [row] = await q.select().from(studioMessages).where(eq(studioMessages.id, id));
  return row;
}

/**
 * Ends a queued batch only while it is still pending; false when it ended already (another try, the
 * deadline), so a batch has one outcome and one settlement.
 */
export async function settleBatchIfPending(
  q: Queryable,
  id: string,
  patch: Pick<NewStudioMessage, "status" | "content" | "mediaIds" | "error">,
): Promise<boolean> {
  const rows = await q
    .update(studioMessages)
    .set(patch)
    .where(and(eq(studioMessages.id, id), eq(studioMessages.status, "pending")))
    .returning({ id: studioMessages.id });
  return rows.length > 0;
}

/** The stored keys a Studio request still names: its input images (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByStudio: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: studioMessages, user: studioMessages.userId, column: studioMessages.inputKeys, array: true }],
    owners,
    keys,
  );

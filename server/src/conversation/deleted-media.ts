// Gallery items the player deleted (media/delete.ts): which story messages still show them, and those
// messages showing "deleted" afterwards (their key cleared, their media status kept "completed").
import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";
import { conversationCache } from "./repo";

/** The made-by messages (and the branches' copies of them, decision 0114) that show one of `keys`. */
const showing = (userId: string, messageIds: string[], keys: string[]): SQL =>
  and(
    eq(chatMessages.userId, userId),
    or(inArray(chatMessages.id, messageIds), inArray(chatMessages.copiedFrom, messageIds)),
    or(inArray(chatMessages.imageKey, keys), inArray(chatMessages.videoKey, keys)),
  )!;

/** The messages showing one of `keys` among those that made them (by id: index lookups, never a scan). */
export async function messagesShowingMedia(
  q: Queryable,
  userId: string,
  messageIds: string[],
  keys: string[],
): Promise<{ id: string; storyId: string | null }[]> {
  if (messageIds.length === 0 || keys.length === 0) return [];
  return q
    .select({ id: chatMessages.id, storyId: chatMessages.storyId })
    .from(chatMessages)
    .where(showing(userId, messageIds, keys));
}

/** Clears `keys` from the messages that showed them: the story shows that the picture or clip was deleted. */
export async function forgetDeletedMedia(
  q: Queryable,
  userId: string,
  messageIds: string[],
  keys: string[],
): Promise<void> {
  if (messageIds.length === 0 || keys.length === 0) return;
  const cleared = await q
    .update(chatMessages)
    .set({
      imageKey: sql`case when ${inArray(chatMessages.imageKey, keys)} then null else ${chatMessages.imageKey} end`,
      videoKey: sql`case when ${inArray(chatMessages.videoKey, keys)} then null else ${chatMessages.videoKey} end`,
    })
    .where(showing(userId, messageIds, keys))
    .returning({ id: chatMessages.id });
  if (cleared.length > 0) conversationCache.invalidate(q, userId);
}

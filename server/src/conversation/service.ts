// What the rest of the app asks of conversations besides a turn (turn.ts), story craft (craft.ts) and how
// messages are shown (presentation.ts): media status polls (which settle media past their deadline), a
// story's deletion, counts and transcripts for the story list, exports and sharing, and recall's preview.
import type { MediaStatus } from "@storyverse/contract/chat";
import { MEDIA_TIMED_OUT_MESSAGE } from "@storyverse/contract/chat";
import type { AppContext } from "../context";
import { refundPaid } from "../credits";
import type { PresentCharacter } from "../db/schema";
import { urlFor } from "../media";
import { NotFound } from "../platform/errors";
import { failMedia, generateMediaJob, mediaDeadline, mediaPartTenths } from "./media-job";
import {
  countMessagesNewer,
  countMessagesThrough,
  deleteConversation,
  findMessage,
  lockConversation,
  messagesAfter,
  newestNarrations,
  pendingMessagesOfStory,
  storyConversationStats,
} from "./repo";

/**
 * Media still pending past the turn's deadline (its job died on the last try, or the queue lost it) must
 * not hold the user's credits: the poll that notices fails it, refunds the media part and cancels the job.
 */
export async function mediaStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "jobs" | "log">,
  userId: string,
  storyId: string | null | undefined,
  messageId: string,
): Promise<MediaStatus> {
  let row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.mediaStatus === "pending" && ctx.clock.now().getTime() >= mediaDeadline(row)) {
    await failMedia(ctx, row, MEDIA_TIMED_OUT_MESSAGE);
    // Read back: the job may have finished first, and then its media are the answer.
    row = (await findMessage(ctx.db, userId, storyId, messageId)) ?? row;
  }
  return {
    message_id: row.id,
    status: row.mediaStatus,
    media_generation_completed: row.mediaStatus === "completed",
    media_generation_failed: row.mediaStatus === "failed",
    media_generation_error: row.mediaError,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
  };
}

/** The answer for a message that makes no video (an image or chat turn, or a user's message). */
export const NOT_A_VIDEO_TASK_DETAIL = "Unknown video task: this message makes no video.";

/** A video turn's media status (GET /api/video-status/{id}); any other message is a 404, never "processing". */
export async function videoTaskStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "jobs" | "log">,
  userId: string,
  messageId: string,
): Promise<MediaStatus> {
  const row = await findMessage(ctx.db, userId, undefined, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.role !== "assistant" || row.mode !== "video" || row.mediaStatus === "none") {
    throw new NotFound(NOT_A_VIDEO_TASK_DETAIL);
  }
  return mediaStatus(ctx, userId, undefined, messageId);
}

/**
 * Deletes a story's messages. Media still being made for them will never reach the user (the job finds
 * its message gone and removes what it made), so their media part is refunded and their jobs cancelled, in
 * the caller's transaction. Refunds are keyed by message id: a job that failed first cannot double them.
 * Holds the conversation's lock, as a turn's commit does: a turn being written either committed before
 * (and is refunded here) or commits after and finds its story gone (and is refunded whole by the turn).
 * Returns the uploaded reference files to remove once the caller's transaction has committed.
 */
export async function deleteStoryConversation(
  ctx: Pick<AppContext, "db" | "clock" | "log" | "jobs">,
  userId: string,
  storyId: string,
): Promise<string[]> {
  await lockConversation(ctx.db, userId, storyId);
  const pending = await pendingMessagesOfStory(ctx.db, userId, storyId);
  for (const message of pending) {
    await refundPaid(
      ctx,
      message,
      mediaPartTenths(message),
      message.id,
      "Refund: the story was deleted before its media was ready",
    );
    await ctx.jobs.cancel(generateMediaJob, message.id, { tx: ctx.db });
  }
  await deleteConversation(ctx.db, userId, storyId);
  return pending.flatMap((message) => message.referenceKeys);
}

/** How many messages each story's conversation holds and when the newest was written. */
export async function conversationStats(ctx: Pick<AppContext, "db">, userId: string, storyIds: string[]) {
  return storyConversationStats(ctx.db, userId, storyIds);
}

/** One message of a story as its words (for drafting a card from it); undefined when not the user's. */
export async function storyMessageText(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  messageId: string,
): Promise<
  { role: "user" | "assistant"; content: string; imageKey: string | null; speaker: string | null } | undefined
> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) return undefined;
  // Only a finished picture counts: a pending or failed one is not in the gallery yet.
  const imageKey = row.mediaStatus === "completed" ? row.imageKey : null;
  return {
    role: row.role as "user" | "assistant",
    content: row.content,
    imageKey,
    speaker: row.speaker?.name ?? null,
  };
}

/** How many messages a story shows, and how many are no newer than `through` (one counting query). */
export async function storyMessageCounts(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  through: Date | null,
) {
  return countMessagesThrough(ctx.db, userId, storyId, through);
}

/** How many messages a story shows newer than `after`, counted up to `most` (a bounded read). */
export async function storyMessagesNewer(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  after: Date | null,
  most: number,
) {
  return countMessagesNewer(ctx.db, userId, storyId, after, most);
}

/** A story's newest `limit` narrations (the shown version of each), oldest first: a bounded read. */
export async function storyNarrations(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  limit: number,
): Promise<string[]> {
  return (await newestNarrations(ctx.db, userId, storyId, limit)).map((row) => row.content);
}

/** At most `limit` of a story's shown messages newer than `after` (from the first when null), oldest first. */
export async function storyMessagesAfter(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  after: Date | null,
  limit: number,
): Promise<
  { role: "user" | "assistant"; content: string; createdAt: Date; present: PresentCharacter[] | null }[]
> {
  const rows = await messagesAfter(ctx.db, userId, storyId, after, limit);
  return rows.map((row) => ({
    role: row.role as "user" | "assistant",
    content: row.content,
    createdAt: row.createdAt,
    present: row.present ?? null,
  }));
}

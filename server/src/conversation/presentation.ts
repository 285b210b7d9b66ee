// Messages as the API and the event stream show them: signed media links, retry versions, what shaped them.
import type { ChatMessage } from "@storyverse/contract/chat";
import type { MediaEvent } from "@storyverse/contract/events";
import type { AppContext } from "../context";
import { urlFor } from "../media";
import { findMessage, type MessageRow, versionCounts } from "./repo";

/** Messages as the API shows them, with their version number and count where they were retried. */
export async function withVersions(ctx: Pick<AppContext, "db" | "storage">, rows: MessageRow[]) {
  const counts = await versionCounts(
    ctx.db,
    rows.flatMap((row) => (row.versionGroup ? [row.versionGroup] : [])),
  );
  return Promise.all(
    rows.map(async (row) => {
      const message = await toChatMessage(ctx, row);
      const count = row.versionGroup ? counts.get(row.versionGroup) : undefined;
      return count ? { ...message, version: row.versionNumber, version_count: count } : message;
    }),
  );
}

export async function toChatMessage(ctx: Pick<AppContext, "storage">, row: MessageRow): Promise<ChatMessage> {
  const created = row.createdAt.toISOString();
  return {
    id: row.id,
    _id: row.id,
    message_id: row.id,
    role: row.role,
    content: row.content,
    timestamp: created,
    created_at: created,
    mode: row.mode,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
    media_status: row.mediaStatus,
    media_error: row.mediaError,
    ...(row.stopped ? { stopped: true } : {}),
    // Absent (not null) where nothing was recorded: the player's, the main chat's and older messages.
    ...(row.shapedBy ? { shaped_by: row.shapedBy } : {}),
    // Who spoke (decision 0154): a character teller's card; null for the narrator and the player.
    speaker: row.speaker ?? null,
  };
}

/** What the event stream says when a message's media ended; null while pending (or when it is gone). */
export async function mediaEventOf(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  messageId: string,
): Promise<MediaEvent | null> {
  const row = await findMessage(ctx.db, userId, undefined, messageId);
  if (!row || (row.mediaStatus !== "completed" && row.mediaStatus !== "failed")) return null;
  return {
    message_id: row.id,
    story_id: row.storyId,
    status: row.mediaStatus,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
    error: row.mediaError,
  };
}

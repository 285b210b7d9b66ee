// A turn shows an edit of its own picture (decision 0163): after repainting a region of a story's picture, the
// player puts the result in the turn's place (and can go back to the original the same way); an extended clip
// takes its clip's place likewise. Only the same line of pictures is allowed: the new one was made from the
// turn's (by edits, each one step of `parent_id`), or the turn's was made from it. The story's words, versions
// and every other branch stay as they are.
import type { ChatMessage } from "@storyverse/contract/chat";
import {
  NOT_THIS_TURNS_LINE_DETAIL,
  STILL_PAINTING_DETAIL,
  TURN_HAS_NO_MEDIA_DETAIL,
  TURN_MEDIA_LINE_MAX,
} from "@storyverse/contract/story-craft";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { findOwnedById, findOwnedByKey, type MediaItemRow } from "../media";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { ownMessages } from "./branch-history";
import { withVersions } from "./presentation";
import { findMessage, updateMediaKey } from "./repo";

/** Said when the gallery item is not the player's (the same words as the picture editor's). */
const NOT_IN_GALLERY = "This picture is not in your Gallery.";

export async function replaceTurnMedia(
  ctx: Pick<AppContext, "db" | "clock" | "storage">,
  userId: string,
  storyId: string,
  messageId: string,
  galleryItemId: string,
): Promise<ChatMessage> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  if (row.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL, "media_in_progress");
  const item = await findOwnedById(ctx.db, userId, galleryItemId);
  if (!item) throw new NotFound(NOT_IN_GALLERY);
  // A clip turn also keeps its first picture: a clip replaces the clip, a picture the picture.
  const currentKey = item.kind === "video" ? row.videoKey : row.imageKey;
  if (row.role !== "assistant" || !currentKey) throw new InvalidInput(TURN_HAS_NO_MEDIA_DETAIL);
  if (item.storageKey === currentKey) return (await withVersions(ctx, [row]))[0]!;
  const current = await findOwnedByKey(ctx.db, userId, currentKey);
  if (!current || !(await sameLine(ctx.db, userId, current, item))) {
    throw new InvalidInput(NOT_THIS_TURNS_LINE_DETAIL);
  }
  const media = item.kind === "video" ? { videoKey: item.storageKey } : { imageKey: item.storageKey };
  // The branch holds the message alone before its picture changes (decision 0137): no other branch sees it.
  const updated = await ctx.db.transaction(async (tx) => {
    const owned = await ownMessages(tx, { userId, storyId, messageIds: [row.id] });
    return updateMediaKey(tx, owned.get(row.id) ?? row.id, { from: currentKey, ...media }, ctx.clock.now());
  });
  // Nothing updated: the turn's picture changed meanwhile (a new scene was painted); the player asks again.
  if (!updated) throw new Conflict(STILL_PAINTING_DETAIL, "media_in_progress");
  return (await withVersions(ctx, [updated]))[0]!;
}

/** Whether one was made from the other by edits, looking at most TURN_MEDIA_LINE_MAX steps each way. */
async function sameLine(q: Queryable, userId: string, turns: MediaItemRow, chosen: MediaItemRow) {
  return (await madeFrom(q, userId, chosen, turns.id)) || (await madeFrom(q, userId, turns, chosen.id));
}

async function madeFrom(q: Queryable, userId: string, item: MediaItemRow, ancestorId: string) {
  let parentId = item.parentId;
  for (let step = 0; parentId && step < TURN_MEDIA_LINE_MAX; step++) {
    if (parentId === ancestorId) return true;
    parentId = (await findOwnedById(q, userId, parentId))?.parentId ?? null;
  }
  return false;
}

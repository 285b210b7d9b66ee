// A story turn's clip replaced by its extension (decision 0160, media/clip-job.ts): "Extend this clip" on a
// video turn makes the turn show the longer clip; the shorter one stays in the Gallery. Wired into the clip
// job by the worker (workers.ts), since media does not write chat's rows.
import { and, eq, or } from "drizzle-orm";
import { chatMessages } from "../db/schema";
import type { ClipTurns } from "../media";
import { conversationCache } from "./repo";

export const chatClipTurns: ClipTurns = {
  async replaceClip(q, userId, messageId, fromKey, toKey) {
    // The turn and its branches' copies of it (decision 0114) that still show the clip that was extended.
    const replaced = await q
      .update(chatMessages)
      .set({ videoKey: toKey })
      .where(
        and(
          eq(chatMessages.userId, userId),
          or(eq(chatMessages.id, messageId), eq(chatMessages.copiedFrom, messageId)),
          eq(chatMessages.videoKey, fromKey),
        ),
      )
      .returning({ id: chatMessages.id });
    if (replaced.length > 0) conversationCache.invalidate(q, userId);
    return replaced.length > 0;
  },
};

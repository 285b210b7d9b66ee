// Where a gallery item is still shown (media/delete.ts asks before deleting one): the story messages that
// made it and the branches' copies of them, the story cards whose portrait it is (decision 0141), each story's
// title, and whether a live share link shows it.
// Deleting it clears it from those messages (they show "deleted") and from a story card's pinned picture.
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context";
import { forgetDeletedMedia, messagesShowingMedia } from "../conversation";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";
import type { DeletedItem, MediaShownIn, MediaUses } from "../media";
import { findStory, storyCache } from "./repo";

const madeBy = (items: DeletedItem[]) => [
  ...new Set(items.flatMap((item) => (item.messageId ? [item.messageId] : []))),
];
const keysOf = (items: DeletedItem[]) => items.map((item) => item.storageKey);

/** What other modules answer about a story's media, handed in by the root (decision 0171). */
type OtherUses = {
  /** Whether the story has a live share link (sharing). */
  isShared: (q: Queryable, userId: string, storyId: string) => Promise<boolean>;
  /** The stories whose cards show one of these gallery items as a portrait or a reference (story cards). */
  storiesWhoseCardsShow: (q: Queryable, userId: string, itemIds: string[]) => Promise<string[]>;
};

export function storyMediaUses(ctx: Pick<AppContext, "db">, others: OtherUses): MediaUses {
  return {
    async shownIn(userId, items) {
      const messages = await messagesShowingMedia(ctx.db, userId, madeBy(items), keysOf(items));
      const portraits = await others.storiesWhoseCardsShow(
        ctx.db,
        userId,
        items.map((item) => item.id),
      );
      const storyIds = [
        ...new Set([...messages.flatMap((m) => (m.storyId ? [m.storyId] : [])), ...portraits]),
      ];
      const shown: MediaShownIn[] = [];
      for (const storyId of storyIds) {
        const story = await findStory(ctx.db, userId, storyId);
        if (!story) continue;
        const shared = await others.isShared(ctx.db, userId, storyId);
        shown.push({ storyId, storyTitle: story.title, shared });
      }
      return shown;
    },
    async forget(q: Queryable, userId, items) {
      await forgetDeletedMedia(q, userId, madeBy(items), keysOf(items));
      // A card pinned to one of these pictures shows the story's newest one again.
      const storyIds = [...new Set(items.flatMap((item) => (item.storyId ? [item.storyId] : [])))];
      const pinned = items.flatMap((item) => [
        item.storageKey,
        ...(item.thumbnailKey ? [item.thumbnailKey] : []),
      ]);
      if (storyIds.length === 0) return;
      const cleared = await q
        .update(stories)
        .set({ pinnedThumbnailKey: null, pinnedAt: null })
        .where(
          and(
            eq(stories.userId, userId),
            inArray(stories.id, storyIds),
            inArray(stories.pinnedThumbnailKey, pinned),
          ),
        )
        .returning({ id: stories.id });
      if (cleared.length > 0) storyCache.invalidate(q, userId);
    },
  };
}

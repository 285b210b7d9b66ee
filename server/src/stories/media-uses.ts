// Where a gallery item is still shown (media/delete.ts asks before deleting one): the story messages that
// made it and the branches' copies of them, the story cards whose portrait it is (decision 0141), each story's
// title, and whether a live share link shows it.
// Deleting it clears it from those messages (they show "deleted") and from a story card's pinned picture.
import { and, arrayOverlaps, eq, inArray, or } from "drizzle-orm";
import type { AppContext } from "../context";
import { forgetDeletedMedia, messagesShowingMedia } from "../conversation/deleted-media";
import type { Queryable } from "../db/client";
import { stories, storyCards } from "../db/schema";
import type { DeletedItem, MediaShownIn, MediaUses } from "../media/delete";
import { findLiveStoryLink } from "../sharing/repo";
import { GALLERY_REFERENCE_PREFIX } from "../story-cards/cards-repo";
import { findStory, storyCache } from "./repo";

const madeBy = (items: DeletedItem[]) => [
  ...new Set(items.flatMap((item) => (item.messageId ? [item.messageId] : []))),
];
const keysOf = (items: DeletedItem[]) => items.map((item) => item.storageKey);

export function storyMediaUses(ctx: Pick<AppContext, "db">): MediaUses {
  return {
    async shownIn(userId, items) {
      const messages = await messagesShowingMedia(ctx.db, userId, madeBy(items), keysOf(items));
      // A story card whose portrait (story_cards_portrait_item_idx) or other reference (decision 0161) is one
      // of the pictures shows it too.
      const portraits = await ctx.db
        .select({ storyId: storyCards.storyId })
        .from(storyCards)
        .where(
          and(
            eq(storyCards.userId, userId),
            or(
              inArray(
                storyCards.portraitItemId,
                items.map((item) => item.id),
              ),
              arrayOverlaps(
                storyCards.referenceExtras,
                items.map((item) => `${GALLERY_REFERENCE_PREFIX}${item.id}`),
              ),
            ),
          ),
        );
      const storyIds = [
        ...new Set([
          ...messages.flatMap((m) => (m.storyId ? [m.storyId] : [])),
          ...portraits.map((card) => card.storyId),
        ]),
      ];
      const shown: MediaShownIn[] = [];
      for (const storyId of storyIds) {
        const story = await findStory(ctx.db, userId, storyId);
        if (!story) continue;
        const shared = !!(await findLiveStoryLink(ctx.db, userId, storyId));
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

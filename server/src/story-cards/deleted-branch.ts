// What a story's branch asks of the story cards (decision 0171): a new branch starts with copies of its source's
// cards and living-lore drafts; a deleted branch's uploaded portraits are removed once the deletion commits. The
// cards and drafts go with the branch's row (the foreign key), or here when the row stays, emptied (a story's
// first branch).
import type { StoryBranchPart } from "../context";
import { discardStoryPortraits, storyPortraitUploads } from "./cards";
import { copyCards, deleteCardsOf } from "./cards-repo";
import { copyLoreSuggestions, deleteLoreSuggestionsOf } from "./living-lore-repo";

export const cardsBranchPart: StoryBranchPart = {
  async copy(q, fromBranchId, toBranchId, at) {
    await copyCards(q, fromBranchId, toBranchId, at);
    await copyLoreSuggestions(q, fromBranchId, toBranchId);
  },
  async remove(ctx, userId, branchId, emptied) {
    const portraits = await storyPortraitUploads(ctx, userId, branchId);
    if (emptied) {
      await deleteCardsOf(ctx.db, branchId);
      await deleteLoreSuggestionsOf(ctx.db, branchId);
    }
    return portraits;
  },
  // A portrait another branch's card still shows stays (cards.ts checks after the commit).
  discard: (ctx, keys) => discardStoryPortraits(ctx, keys),
};

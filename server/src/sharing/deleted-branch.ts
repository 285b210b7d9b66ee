// What deleting a story's first branch asks of sharing (decision 0114): its row stays as the story that holds
// the other branches, so its links are ended here rather than by the foreign key. Kept apart from service.ts,
// which reads stories; the root hands it to the stories module as a branch part (decision 0171).
import type { AppContext, StoryBranchPart } from "../context";
import { revokeStoryLinks } from "./repo";

export async function revokeBranchLinks(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
): Promise<void> {
  await revokeStoryLinks(ctx.db, userId, storyId, ctx.clock.now());
}

/** A deleted branch's share links: the foreign key ends them, or this when the branch's row stays. */
export const sharingBranchPart: StoryBranchPart = {
  async remove(ctx, userId, branchId, emptied) {
    if (emptied) await revokeBranchLinks(ctx, userId, branchId);
    return [];
  },
};

// What deleting a story's first branch asks of sharing (decision 0114): its row stays as the story that holds
// the other branches, so its links are ended here rather than by the foreign key. Kept apart from service.ts,
// which reads stories, so the stories service calls this without an import cycle.
import type { AppContext } from "../context";
import { revokeStoryLinks } from "./repo";

export async function revokeBranchLinks(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
): Promise<void> {
  await revokeStoryLinks(ctx.db, userId, storyId, ctx.clock.now());
}

// What deleting a story asks of the exports module: its exports' rows go inside the deleting transaction,
// their files once it has committed. Kept apart from export-files.ts, which reads the story to build a
// book. The root hands it to the stories module as a branch part (decision 0171).
import type { AppContext, StoryBranchPart } from "../context";
import { deleteExportsOfStory } from "./export-repo";
import { storyFilmCaptionKeys } from "./film-repo";

/**
 * Inside a story's deletion: removes its export rows and answers the files to remove once the deletion has
 * committed: the exports, and its films' captions (the films' rows go with the story; their videos stay in
 * the gallery, but nothing shows those captions any more). An export job finishing later finds its row gone
 * and removes its own file (export-job.ts); a film finishing later finds its row gone and keeps nothing.
 */
export async function deleteStoryExports(ctx: Pick<AppContext, "db">, storyId: string): Promise<string[]> {
  const captions = await storyFilmCaptionKeys(ctx.db, storyId);
  return [...(await deleteExportsOfStory(ctx.db, storyId)), ...captions];
}

/** Removes export files (after the deletion that took their rows has committed). */
export async function discardExportFiles(ctx: Pick<AppContext, "storage" | "log">, keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      ctx.storage.delete(key).catch((error: unknown) => {
        ctx.log.warn({ err: error, key }, "a deleted story's export file could not be removed");
      }),
    ),
  );
}

/** A deleted branch's exports: rows inside the deletion, files after it. */
export const exportsBranchPart: StoryBranchPart = {
  remove: (ctx, _userId, branchId) => deleteStoryExports(ctx, branchId),
  discard: discardExportFiles,
};

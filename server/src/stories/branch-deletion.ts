// Deleting branches' contents (decision 0114), for a whole story and for one branch: the messages (a picture
// still being made refunded) in the caller's transaction with what other modules keep of the branch (cards,
// narrations, exports, share links: the branch parts the root hands in, decision 0171), and the files only
// they used once it has committed. A branch shares its earliest history's files with the branch it came
// from (its copies name the same uploads and portraits), so a file another branch still names stays.

import type { AppContext } from "../context";
import { deleteStoryConversation, filesStillNamed, referencesOfConversation } from "../conversation";
import { discardUploadedInputs } from "../media";

export type DeletionContext = Pick<
  AppContext,
  "db" | "clock" | "storage" | "log" | "jobs" | "storyBranchParts"
>;

/** The files to remove after the commit: the turns' uploads, and each branch part's (in `storyBranchParts` order). */
export type BranchFiles = { uploads: string[]; parts: string[][] };

/**
 * Removes these branches' messages and what the branch parts keep of them, answering the files to remove after
 * the commit. `emptied`: the branches' rows stay (a story's first branch, kept to hold the others).
 */
export async function deleteBranchContents(
  ctx: DeletionContext,
  userId: string,
  storyIds: string[],
  emptied = false,
): Promise<BranchFiles> {
  const files: BranchFiles = { uploads: [], parts: ctx.storyBranchParts.map(() => []) };
  for (const storyId of storyIds) {
    // Before the messages go: a part may read rows that go with them (a narration's audio files).
    for (const [index, part] of ctx.storyBranchParts.entries()) {
      files.parts[index]!.push(...(await part.remove(ctx, userId, storyId, emptied)));
    }
    // A finished turn keeps its uploads for a retry; once no message names them they are nobody's.
    files.uploads.push(...(await referencesOfConversation(ctx.db, userId, storyId)));
    files.uploads.push(...(await deleteStoryConversation(ctx, userId, storyId)));
  }
  // What the story's other branches still name stays (their copies of a shared turn use the same upload).
  files.uploads = [...new Set(files.uploads)];
  const named = await filesStillNamed(ctx.db, userId, files.uploads);
  files.uploads = files.uploads.filter((key) => !named.has(key));
  return files;
}

/** Removes the files once the rows that named them are gone for good (a rolled-back delete keeps both). */
export async function discardBranchFiles(ctx: DeletionContext, files: BranchFiles): Promise<void> {
  await discardUploadedInputs(ctx, files.uploads);
  for (const [index, part] of ctx.storyBranchParts.entries())
    await part.discard?.(ctx, files.parts[index] ?? []);
}

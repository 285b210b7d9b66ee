// Deleting branches' contents (decision 0114), for a whole story and for one branch: the messages (a picture
// still being made refunded), cards, drafts, exports and narrations in the caller's transaction, and the files
// only they used once it has committed. A branch shares its earliest history's files with the branch it came
// from (its copies name the same uploads and portraits), so a file another branch still names stays.

import type { AppContext } from "../context";
import { filesStillNamed, referencesOfConversation } from "../conversation/branch-history";
import { deleteStoryConversation } from "../conversation/service";
import { deleteStoryExports, discardExportFiles } from "../exports/deleted-story";
import { discardUploadedInputs } from "../media/inputs";
import { discardStoryPortraits, storyPortraitUploads } from "../story-cards/cards";
import { discardSpeechFiles, storySpeechFiles } from "../voice/deleted-story";

type DeletionContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "jobs">;

export type BranchFiles = {
  uploads: string[];
  exportFiles: string[];
  speechFiles: string[];
  portraits: string[];
};

/** Removes these branches' messages and exports, answering the files to remove after the commit. */
export async function deleteBranchContents(
  ctx: DeletionContext,
  userId: string,
  storyIds: string[],
): Promise<BranchFiles> {
  const files: BranchFiles = { uploads: [], exportFiles: [], speechFiles: [], portraits: [] };
  for (const storyId of storyIds) {
    // Cards go with their branch (the foreign key); the portraits they uploaded are theirs.
    files.portraits.push(...(await storyPortraitUploads(ctx, userId, storyId)));
    // Narrations' rows go with their messages (the foreign key); their audio files after the commit.
    files.speechFiles.push(...(await storySpeechFiles(ctx, storyId)));
    // A finished turn keeps its uploads for a retry; once no message names them they are nobody's.
    files.uploads.push(...(await referencesOfConversation(ctx.db, userId, storyId)));
    files.uploads.push(...(await deleteStoryConversation(ctx, userId, storyId)));
    // Exports hold the branch's whole text and pictures: they go with it.
    files.exportFiles.push(...(await deleteStoryExports(ctx, storyId)));
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
  await discardExportFiles(ctx, files.exportFiles);
  await discardSpeechFiles(ctx, files.speechFiles);
  // A portrait another branch's card still shows stays (cards.ts checks after the commit).
  await discardStoryPortraits(ctx, files.portraits);
}

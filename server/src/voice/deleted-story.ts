// A deleted story's narrations: their rows go with it (foreign key), their audio files right after the commit.
import type { AppContext, StoryBranchPart } from "../context";
import type { Queryable } from "../db/client";
import { storySpeechKeys } from "./repo";

export async function storySpeechFiles(ctx: { db: Queryable }, storyId: string): Promise<string[]> {
  return storySpeechKeys(ctx.db, storyId);
}

export async function discardSpeechFiles(ctx: Pick<AppContext, "storage" | "log">, keys: string[]) {
  await Promise.all(
    keys.map((key) =>
      ctx.storage.delete(key).catch((error: unknown) => {
        ctx.log.warn({ err: error, key }, "a deleted story's narration audio could not be removed");
      }),
    ),
  );
}

/** A deleted branch's narration audio (decision 0171): its rows go with its messages, its files after. */
export const speechBranchPart: StoryBranchPart = {
  remove: (ctx, _userId, branchId) => storySpeechFiles(ctx, branchId),
  discard: discardSpeechFiles,
};

// The mark a copy of messages leaves for recall, written by the conversation in the copy's transaction so that
// it imports no recall (decision 0170); recall's indexing job reads and clears it (recall/vectors.ts).
import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { recallWalksDue } from "../db/schema";

/**
 * Marks a branch that was given copies of messages for recall (in the copy's transaction): copies carry no
 * vectors, and a turn's indexing job reads only the newest narrations, so the branch's next job walks it from
 * its start (decision 0166).
 */
export async function markRecallWalkDue(q: Queryable, storyId: string): Promise<void> {
  await q
    .insert(recallWalksDue)
    .values({ storyId })
    .onConflictDoUpdate({ target: recallWalksDue.storyId, set: { marks: sql`${recallWalksDue.marks} + 1` } });
}

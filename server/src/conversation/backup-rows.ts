// What a whole-story backup needs of the chat module: every message of a story as stored, retry versions the
// story does not show included, and the restore's bulk insert of a story's messages. The interop module reads
// and writes them only through here, never through the chat repo.
import { asc } from "drizzle-orm";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";
import { branchMessages, copyIdOf } from "./branch-messages";
import { conversationCache, type MessageRow, type NewMessage } from "./repo";

/** A backup does not carry what shaped a message (docs/decisions/0105): a restored story's messages have none. */
export type BackupMessage = Omit<MessageRow, "shapedBy" | "seq">;
export type RestoredMessage = NewMessage;

/** Inserted in slices: a long story would pass the driver's limit on parameters in one statement. */
const INSERT_SLICE = 200;

/** Every message of one of the user's stories, every version of every answer, in the order they were written. */
export async function storyMessagesForBackup(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<BackupMessage[]> {
  const rows = await ctx.db
    .select()
    .from(chatMessages)
    .where(branchMessages(userId, storyId))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.versionNumber), asc(chatMessages.id));
  // What was undone (and every version of its answer) has left the story: a backup keeps none of it.
  const undone = new Set(
    rows.flatMap((row) => (row.undoStep === null ? [] : [row.id, row.versionGroup ?? row.id])),
  );
  return rows
    .filter((row) => !undone.has(row.id) && !(row.versionGroup && undone.has(row.versionGroup)))
    .map((row) => (row.storyId === storyId ? row : asCopy(row, storyId)));
}

/**
 * A message the branch shares with an earlier one (decision 0137), as the branch's copy of it would be: its own
 * id (the id a copy-on-write would give it), no charge, no checkpoint name (names belong to their branch).
 * So every branch of a backup holds its messages under ids of its own, as when branches held copies.
 */
function asCopy(row: MessageRow, storyId: string): MessageRow {
  return {
    ...row,
    id: copyIdOf(storyId, row.id),
    storyId,
    versionGroup: row.versionGroup ? copyIdOf(storyId, row.versionGroup) : null,
    chargedTenths: 0,
    checkpoint: null,
    copiedFrom: row.copiedFrom ?? row.id,
  };
}

/** A restored story's messages, in the caller's transaction (ids, keys and times already chosen). */
export async function insertRestoredMessages(q: Queryable, rows: RestoredMessage[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_SLICE) {
    await q.insert(chatMessages).values(rows.slice(start, start + INSERT_SLICE));
  }
  for (const userId of new Set(rows.map((row) => row.userId))) conversationCache.invalidate(q, userId);
}

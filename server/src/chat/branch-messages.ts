// The one place that says which rows of chat_messages are a branch's messages (decision 0132). Every query that
// reads or changes a story's (a branch's) messages scopes itself with `branchMessages`, so what "a branch's
// messages" means can change here alone: today each branch holds its own rows (decision 0114), so it is the
// rows of the user with the branch's story id.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { chatMessages } from "../db/schema";

/** The condition on `chat_messages` that selects the messages of one branch (a story's row) of this user. */
export const branchMessages = (userId: string, storyId: string): SQL =>
  and(eq(chatMessages.userId, userId), eq(chatMessages.storyId, storyId))!;

/** The same condition for hand-written SQL that names `chat_messages` by `alias` ("message" in `from chat_messages message`). */
export const branchMessagesAs = (alias: string, userId: string, storyId: string): SQL =>
  sql`${sql.identifier(alias)}.user_id = ${userId} and ${sql.identifier(alias)}.story_id = ${storyId}`;

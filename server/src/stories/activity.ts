// When a story was last played, as the stories module keeps it (decision 0134): the chat module's turn calls
// `storyPlayed` in the transaction that writes the new messages, so the story list's order (stories'
// last_activity, on stories_user_activity_idx) follows every turn without the chat module writing the stories
// table. Writes of the story row itself raise it too (`laterActivity` in repo.ts).
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";
import { laterActivity, storiesChanged } from "./repo";

/** The story (a branch row) was played at `at`: its last activity is at least that. */
export async function storyPlayed(q: Queryable, userId: string, storyId: string, at: Date): Promise<void> {
  const rows = await q
    .update(stories)
    .set({ lastActivity: laterActivity(at) })
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id, userId: stories.userId });
  storiesChanged(q, rows);
}

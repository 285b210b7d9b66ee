// SQL for stories. Counts and dates come from the messages and media themselves, so they are always current.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";

export type StoryRow = typeof stories.$inferSelect;
export type StoryWithStats = StoryRow & {
  messageCount: number;
  lastMessageAt: Date | null;
  newestMediaKey: string | null;
  newestMediaAt: Date | null;
};

// Correlated subqueries written out with explicit aliases: Drizzle drops table names from columns in
// single-table selects, which would make "story_id = id" compare two columns of the same row.
const statsColumns = {
  messageCount: sql<number>`(select count(*)::int from chat_messages m where m.story_id = "stories"."id")`,
  // Epoch milliseconds: the same on both drivers, whatever their timestamp parsing.
  lastMessageAt: sql<string | null>`(select (extract(epoch from max(m.created_at)) * 1000)::bigint::text
    from chat_messages m where m.story_id = "stories"."id")`,
  newestMedia: sql<
    string | null
  >`(select coalesce(mi.thumbnail_key, mi.storage_key) || '|' || ((extract(epoch from mi.created_at) * 1000)::bigint)::text
    from media_items mi where mi.story_id = "stories"."id" and mi.user_id = "stories"."user_id"
    order by mi.created_at desc limit 1)`,
};

function withStats(
  row: StoryRow & { messageCount: number; lastMessageAt: string | null; newestMedia: string | null },
): StoryWithStats {
  const { newestMedia, ...rest } = row;
  const separator = newestMedia?.lastIndexOf("|") ?? -1;
  return {
    ...rest,
    messageCount: Number(row.messageCount),
    lastMessageAt: row.lastMessageAt === null ? null : new Date(Number(row.lastMessageAt)),
    newestMediaKey: newestMedia && separator > 0 ? newestMedia.slice(0, separator) : null,
    newestMediaAt: newestMedia && separator > 0 ? new Date(Number(newestMedia.slice(separator + 1))) : null,
  };
}

export async function listStories(q: Queryable, userId: string): Promise<StoryWithStats[]> {
  const rows = await q
    .select({ ...storyColumns(), ...statsColumns })
    .from(stories)
    .where(eq(stories.userId, userId))
    .orderBy(desc(stories.updatedAt));
  return rows.map(withStats);
}

export async function findStory(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<StoryWithStats | undefined> {
  const [row] = await q
    .select({ ...storyColumns(), ...statsColumns })
    .from(stories)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)));
  return row ? withStats(row) : undefined;
}

function storyColumns() {
  return {
    id: stories.id,
    userId: stories.userId,
    title: stories.title,
    context: stories.context,
    pinnedThumbnailKey: stories.pinnedThumbnailKey,
    pinnedAt: stories.pinnedAt,
    createdAt: stories.createdAt,
    updatedAt: stories.updatedAt,
  };
}

export async function insertStory(
  q: Queryable,
  values: { userId: string; title: string; context: string; at: Date },
): Promise<StoryRow> {
  const [row] = await q
    .insert(stories)
    .values({
      userId: values.userId,
      title: values.title,
      context: values.context,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return row!;
}

export async function updateStory(
  q: Queryable,
  userId: string,
  storyId: string,
  values: Partial<Pick<StoryRow, "title" | "context" | "pinnedThumbnailKey" | "pinnedAt">> & {
    updatedAt: Date;
  },
): Promise<boolean> {
  const updated = await q
    .update(stories)
    .set(values)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id });
  return updated.length === 1;
}

export async function deleteStory(q: Queryable, userId: string, storyId: string): Promise<boolean> {
  const deleted = await q
    .delete(stories)
    .where(and(eq(stories.userId, userId), eq(stories.id, storyId)))
    .returning({ id: stories.id });
  return deleted.length === 1;
}

// SQL for gallery items.
import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { mediaItems } from "../db/schema";

export type MediaItemRow = typeof mediaItems.$inferSelect;
export type NewMediaItem = typeof mediaItems.$inferInsert;

export async function insertMediaItem(q: Queryable, values: NewMediaItem): Promise<MediaItemRow> {
  const [row] = await q.insert(mediaItems).values(values).returning();
  return row!;
}

/** Newest first; `before` pages by (created_at, id). */
export async function listMediaItems(
  q: Queryable,
  userId: string,
  options: { kind?: "image" | "video"; limit: number; before?: { createdAt: Date; id: string } },
): Promise<MediaItemRow[]> {
  const conditions = [eq(mediaItems.userId, userId)];
  if (options.kind) conditions.push(eq(mediaItems.kind, options.kind));
  if (options.before) {
    conditions.push(
      or(
        lt(mediaItems.createdAt, options.before.createdAt),
        and(eq(mediaItems.createdAt, options.before.createdAt), lt(mediaItems.id, options.before.id)),
      )!,
    );
  }
  return q
    .select()
    .from(mediaItems)
    .where(and(...conditions))
    .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id))
    .limit(options.limit);
}

/** The item a storage key belongs to, if it is this user's (original or thumbnail). */
export async function findOwnedByKey(
  q: Queryable,
  userId: string,
  key: string,
): Promise<MediaItemRow | undefined> {
  const [row] = await q
    .select()
    .from(mediaItems)
    .where(
      and(
        eq(mediaItems.userId, userId),
        or(eq(mediaItems.storageKey, key), eq(mediaItems.thumbnailKey, key)),
      ),
    );
  return row;
}

export async function findOwnedById(
  q: Queryable,
  userId: string,
  id: string,
): Promise<MediaItemRow | undefined> {
  const [row] = await q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.id, id)));
  return row;
}

export async function listStoryMedia(q: Queryable, userId: string, storyId: string): Promise<MediaItemRow[]> {
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.storyId, storyId)))
    .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id));
}

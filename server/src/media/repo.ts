// SQL for gallery items.
import { and, desc, eq, gte, ilike, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { mediaBoardItems, mediaItems } from "../db/schema";
import { defineReadCache } from "../platform/read-cache";

export type MediaItemRow = typeof mediaItems.$inferSelect;
export type NewMediaItem = typeof mediaItems.$inferInsert;

/**
 * A user's newest media (the Gallery's first page, every story's newest picture), kept per process under the
 * user (decision 0117). Every change to `media_items` is a write of this file or of `backup-items.ts`, and
 * each invalidates its user after its statement.
 */
export const mediaCache = defineReadCache<unknown>("media.newest", ["media_items"]);

export async function insertMediaItem(q: Queryable, values: NewMediaItem): Promise<MediaItemRow> {
  const [row] = await q.insert(mediaItems).values(values).returning();
  mediaCache.invalidate(q, values.userId);
  return row!;
}

/** Newest first; `before` pages by (created_at, id). */
// The Gallery's first page (and "the newest item"): the hot case, built once.
const newestMediaStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(mediaItems)
    .where(eq(mediaItems.userId, sql.placeholder("userId")))
    .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id))
    .limit(sql.placeholder("limit"))
    .prepare("newest_media_items"),
);

export async function listMediaItems(
  q: Queryable,
  userId: string,
  options: {
    kind?: "image" | "video";
    limit: number;
    before?: { createdAt: Date; id: string } | undefined;
    /** Only the items whose description (the prompt) holds these words, case-insensitive. */
    search?: string | undefined;
    /** The Gallery's filters (decision 0141). */
    favourite?: boolean | undefined;
    storyId?: string | undefined;
    boardId?: string | undefined;
    /** Made at or after `from` and before `until`. */
    from?: Date | undefined;
    until?: Date | undefined;
  },
): Promise<MediaItemRow[]> {
  const filtered = options.favourite || options.storyId || options.boardId || options.from || options.until;
  if (!options.kind && !options.before && !options.search && !filtered) {
    const { limit } = options;
    return mediaCache.read(q, `newest:${userId}:${limit}`, userId, () =>
      newestMediaStatement(q).execute({ userId, limit }),
    ) as Promise<MediaItemRow[]>;
  }
  const conditions = [eq(mediaItems.userId, userId)];
  if (options.kind) conditions.push(eq(mediaItems.kind, options.kind));
  if (options.search) {
    // LIKE's wildcards and escape are the player's words, not patterns.
    const words = options.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    conditions.push(ilike(mediaItems.description, `%${words}%`));
  }
  if (options.favourite) conditions.push(eq(mediaItems.favourite, true));
  if (options.storyId) conditions.push(eq(mediaItems.storyId, options.storyId));
  if (options.from) conditions.push(gte(mediaItems.createdAt, options.from));
  if (options.until) conditions.push(lt(mediaItems.createdAt, options.until));
  if (options.boardId) {
    conditions.push(
      inArray(
        mediaItems.id,
        q
          .select({ id: mediaBoardItems.mediaId })
          .from(mediaBoardItems)
          .where(and(eq(mediaBoardItems.boardId, options.boardId), eq(mediaBoardItems.userId, userId))),
      ),
    );
  }
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

export type NewestStoryMedia = { storyId: string; key: string; createdAt: Date };

/** Each story's newest item of this user (its thumbnail when it has one): what a story card shows. */
export async function newestStoryMedia(
  q: Queryable,
  userId: string,
  storyIds: string[],
): Promise<NewestStoryMedia[]> {
  if (storyIds.length === 0) return [];
  const rows = await q
    .selectDistinctOn([mediaItems.storyId], {
      storyId: mediaItems.storyId,
      key: sql<string>`coalesce(${mediaItems.thumbnailKey}, ${mediaItems.storageKey})`,
      createdAt: mediaItems.createdAt,
    })
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), inArray(mediaItems.storyId, storyIds)))
    .orderBy(mediaItems.storyId, desc(mediaItems.createdAt), desc(mediaItems.id));
  return rows.map((row) => ({ storyId: row.storyId!, key: row.key, createdAt: row.createdAt }));
}

// The story list wants every story's newest media: one prepared statement, no id list.
const newestMediaOfAllStoriesStatement = preparedPerHandle((q) =>
  q
    .selectDistinctOn([mediaItems.storyId], {
      storyId: mediaItems.storyId,
      key: sql<string>`coalesce(${mediaItems.thumbnailKey}, ${mediaItems.storageKey})`,
      createdAt: mediaItems.createdAt,
    })
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, sql.placeholder("userId")), isNotNull(mediaItems.storyId)))
    .orderBy(mediaItems.storyId, desc(mediaItems.createdAt), desc(mediaItems.id))
    .prepare("newest_media_of_all_stories"),
);

/** newestStoryMedia for every story of the user. */
export async function newestMediaOfAllStories(q: Queryable, userId: string): Promise<NewestStoryMedia[]> {
  const rows = (await mediaCache.read(q, `stories:${userId}`, userId, () =>
    newestMediaOfAllStoriesStatement(q).execute({ userId }),
  )) as { storyId: string | null; key: string; createdAt: Date }[];
  return rows.map((row) => ({ storyId: row.storyId!, key: row.key, createdAt: row.createdAt }));
}

/** The user's images whose original is one of `keys` (one query): for showing small versions of them. */
export async function findOwnedImagesByKeys(
  q: Queryable,
  userId: string,
  keys: string[],
): Promise<MediaItemRow[]> {
  if (keys.length === 0) return [];
  return q
    .select()
    .from(mediaItems)
    .where(
      and(eq(mediaItems.userId, userId), eq(mediaItems.kind, "image"), inArray(mediaItems.storageKey, keys)),
    );
}

/** The user's items among `ids`, in one query; a stray id can never show someone else's file. */
export async function findOwnedByIds(q: Queryable, userId: string, ids: string[]): Promise<MediaItemRow[]> {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), inArray(mediaItems.id, ids)));
}

export async function deleteMediaItem(q: Queryable, id: string): Promise<void> {
  const deleted = await q
    .delete(mediaItems)
    .where(eq(mediaItems.id, id))
    .returning({ userId: mediaItems.userId });
  for (const { userId } of deleted) mediaCache.invalidate(q, userId);
}

/** The user's items made for one message or batch (e.g. by an earlier try of its job). */
export async function listMediaOfMessage(
  q: Queryable,
  userId: string,
  messageId: string,
): Promise<MediaItemRow[]> {
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.messageId, messageId)));
}

/** Deletes the user's items among `ids` (a gallery delete), in the caller's transaction. */
export async function deleteMediaItems(q: Queryable, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.delete(mediaItems).where(and(eq(mediaItems.userId, userId), inArray(mediaItems.id, ids)));
  mediaCache.invalidate(q, userId);
}

/** Videos whose poster is one of `keys` (a deleted scene picture) lose it (media_items_thumbnail_key_idx). */
export async function clearVideoPosters(q: Queryable, userId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const cleared = await q
    .update(mediaItems)
    .set({ thumbnailKey: null })
    .where(
      and(
        eq(mediaItems.userId, userId),
        eq(mediaItems.kind, "video"),
        inArray(mediaItems.thumbnailKey, keys),
      ),
    )
    .returning({ id: mediaItems.id });
  if (cleared.length > 0) mediaCache.invalidate(q, userId);
}

/** Marks (or unmarks) one of the user's items a favourite; undefined when it is not theirs. */
export async function setFavourite(
  q: Queryable,
  userId: string,
  id: string,
  favourite: boolean,
): Promise<MediaItemRow | undefined> {
  const [row] = await q
    .update(mediaItems)
    .set({ favourite })
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.id, id)))
    .returning();
  if (row) mediaCache.invalidate(q, userId);
  return row;
}

/** Items made from one of `keys` (a clip whose poster is this picture's original): an item's children. */
export async function listByPosterKey(q: Queryable, userId: string, key: string): Promise<MediaItemRow[]> {
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.thumbnailKey, key), eq(mediaItems.kind, "video")))
    .orderBy(desc(mediaItems.createdAt))
    .limit(20);
}

/** The pictures edited from `parentId` (decision 0145), newest first, by media_items_parent_idx. */
export async function listEditsOf(q: Queryable, userId: string, parentId: string): Promise<MediaItemRow[]> {
  return q
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.parentId, parentId)))
    .orderBy(desc(mediaItems.createdAt))
    .limit(20);
}

// What leaving with your data (accounts/leave-*.ts, decision 0143) needs of the media module: the gallery a
// page at a time (keyset on (created_at, id)) for the account archive, and every stored object the account
// owns a page at a time (keyset on key) for its deletion.
import { and, asc, count, eq, gt, inArray, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { mediaBoardItems, mediaBoards, mediaItems, mediaObjects } from "../db/schema";

export type AccountMediaItem = Pick<
  typeof mediaItems.$inferSelect,
  | "id"
  | "kind"
  | "storageKey"
  | "thumbnailKey"
  | "mimeType"
  | "bytes"
  | "width"
  | "height"
  | "source"
  | "storyTitle"
  | "description"
  | "createdAt"
  | "favourite"
> & {
  /** The names of the player's boards that hold it. */
  boards: string[];
};

const itemColumns = {
  id: mediaItems.id,
  kind: mediaItems.kind,
  storageKey: mediaItems.storageKey,
  thumbnailKey: mediaItems.thumbnailKey,
  mimeType: mediaItems.mimeType,
  bytes: mediaItems.bytes,
  width: mediaItems.width,
  height: mediaItems.height,
  source: mediaItems.source,
  storyTitle: mediaItems.storyTitle,
  description: mediaItems.description,
  createdAt: mediaItems.createdAt,
  favourite: mediaItems.favourite,
};

/** One page of the user's gallery, oldest first, after `after`. */
export async function accountGalleryPage(
  q: Queryable,
  userId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<AccountMediaItem[]> {
  const from = after
    ? or(
        gt(mediaItems.createdAt, after.createdAt),
        and(eq(mediaItems.createdAt, after.createdAt), gt(mediaItems.id, after.id)),
      )
    : undefined;
  const items = await q
    .select(itemColumns)
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), from))
    .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id))
    .limit(limit);
  if (items.length === 0) return [];
  // The page's items' boards (a player has at most BOARDS_MAX boards).
  const held = await q
    .select({ mediaId: mediaBoardItems.mediaId, name: mediaBoards.name })
    .from(mediaBoardItems)
    .innerJoin(mediaBoards, eq(mediaBoards.id, mediaBoardItems.boardId))
    .where(
      and(
        eq(mediaBoardItems.userId, userId),
        inArray(
          mediaBoardItems.mediaId,
          items.map((item) => item.id),
        ),
      ),
    )
    .orderBy(asc(mediaBoards.name));
  return items.map((item) => ({
    ...item,
    boards: held.filter((row) => row.mediaId === item.id).map((row) => row.name),
  }));
}

/** How many gallery items the account has. */
export async function accountGalleryCount(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(mediaItems).where(eq(mediaItems.userId, userId));
  return row?.n ?? 0;
}

/** One page of the storage keys the account owns (media_objects), in key order, after `afterKey`. */
export async function ownedObjectKeysPage(
  q: Queryable,
  userId: string,
  afterKey: string | null,
  limit: number,
): Promise<string[]> {
  const rows = await q
    .select({ key: mediaObjects.key })
    .from(mediaObjects)
    .where(
      and(eq(mediaObjects.userId, userId), afterKey === null ? undefined : gt(mediaObjects.key, afterKey)),
    )
    .orderBy(asc(mediaObjects.key))
    .limit(limit);
  return rows.map((row) => row.key);
}

// Media: stores generated files (with a webp thumbnail for images), records them as gallery items, and
// turns storage keys into signed URLs for the API. The database keeps keys; URLs are made per response.
import { randomUUID } from "node:crypto";
import type { GalleryItem } from "@storyverse/contract/media";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { NotFound } from "../platform/errors";
import { faststart } from "../platform/mp4-faststart";
import { inspectImage, makeThumbnail } from "./images";
import { storageWithin } from "./quota";
import {
  deleteMediaItem,
  findOwnedById,
  findOwnedByIds,
  findOwnedByKey,
  findOwnedImagesByKeys,
  insertMediaItem,
  listMediaItems,
  listMediaOfMessage,
  listStoryMedia,
  type MediaItemRow,
  newestStoryMedia,
} from "./repo";

const extensionFor: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

export type MediaOrigin = {
  userId: string;
  source: "main_chat" | "story" | "studio";
  storyId: string | null;
  storyTitle: string | null;
  messageId: string | null;
  description: string;
  /** The seed it was made with, when the painter says (decision 0145). */
  seed?: number | null;
  /** The picture an edit was made from (decision 0145), or the picture or clip a clip was made from (0160). */
  parentId?: string | null;
  /** A clip's length in seconds (decision 0160). */
  durationSeconds?: number | null;
};

type MediaContext = Pick<AppContext, "storage" | "clock">;

export async function saveImage(
  ctx: MediaContext,
  q: Queryable,
  origin: MediaOrigin,
  data: Buffer,
): Promise<MediaItemRow> {
  const info = await inspectImage(data);
  const id = randomUUID();
  const key = `u/${origin.userId}/${id}.${extensionFor[info.mimeType] ?? "bin"}`;
  const thumbnailKey = `u/${origin.userId}/${id}.thumb.webp`;
  // Counted against the quota in `q` (a caller's transaction, if it passed one: see quota.ts).
  const storage = storageWithin(ctx.storage, q);
  await storage.put(key, data, info.mimeType);
  try {
    await storage.put(thumbnailKey, await makeThumbnail(data), "image/webp");
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
  return insertMediaItem(q, {
    id,
    userId: origin.userId,
    kind: "image",
    storageKey: key,
    thumbnailKey,
    mimeType: info.mimeType,
    bytes: data.length,
    width: info.width,
    height: info.height,
    source: origin.source,
    storyId: origin.storyId,
    storyTitle: origin.storyTitle,
    messageId: origin.messageId,
    description: origin.description,
    createdAt: ctx.clock.now(),
    seed: origin.seed ?? null,
    parentId: origin.parentId ?? null,
  });
}

export async function saveVideo(
  ctx: MediaContext,
  q: Queryable,
  origin: MediaOrigin,
  data: Buffer,
  posterKey: string | null,
): Promise<MediaItemRow> {
  const id = randomUUID();
  const key = `u/${origin.userId}/${id}.mp4`;
  // Vendors' clips often keep their index (moov) at the end; stored faststart, they play as they arrive.
  const stored = faststart(data);
  await storageWithin(ctx.storage, q).put(key, stored, "video/mp4");
  return insertMediaItem(q, {
    id,
    userId: origin.userId,
    kind: "video",
    storageKey: key,
    // The scene image the clip was made from doubles as its poster in the gallery.
    thumbnailKey: posterKey,
    mimeType: "video/mp4",
    bytes: stored.length,
    source: origin.source,
    storyId: origin.storyId,
    storyTitle: origin.storyTitle,
    messageId: origin.messageId,
    description: origin.description,
    createdAt: ctx.clock.now(),
    seed: origin.seed ?? null,
    parentId: origin.parentId ?? null,
    durationSeconds: origin.durationSeconds ?? null,
  });
}

/**
 * Removes a just-made item that must not be kept (its request was refunded meanwhile): the gallery row,
 * then its files. A video's poster is the scene image's thumbnail, which belongs to that image.
 */
export async function discardMedia(
  ctx: Pick<AppContext, "storage" | "db">,
  item: Pick<MediaItemRow, "id" | "kind" | "storageKey" | "thumbnailKey">,
): Promise<void> {
  await deleteMediaItem(ctx.db, item.id);
  const keys = [item.storageKey, ...(item.kind === "image" && item.thumbnailKey ? [item.thumbnailKey] : [])];
  await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => undefined)));
}

/** Removes what an interrupted try made for a message or batch, so the next try does not add a second set. */
export async function discardMediaOfMessage(
  ctx: Pick<AppContext, "storage" | "db">,
  userId: string,
  messageId: string,
): Promise<void> {
  const items = await listMediaOfMessage(ctx.db, userId, messageId);
  await Promise.all(items.map((item) => discardMedia(ctx, item)));
}

export async function urlFor(ctx: Pick<AppContext, "storage">, key: string | null): Promise<string | null> {
  return key ? ctx.storage.signedUrl(key) : null;
}

export async function toGalleryItem(
  ctx: Pick<AppContext, "storage">,
  row: MediaItemRow,
): Promise<GalleryItem> {
  const url = await ctx.storage.signedUrl(row.storageKey);
  return {
    id: row.id,
    type: row.kind,
    media_url: url,
    url,
    thumbnail_url: await urlFor(ctx, row.thumbnailKey),
    created_at: row.createdAt.toISOString(),
    description: row.description,
    source: row.source,
    story_id: row.storyId,
    story_title: row.storyTitle,
    file_extension: extensionFor[row.mimeType] ?? "bin",
    message_id: row.messageId,
    favourite: row.favourite,
    seed: row.seed ?? null,
    parent_id: row.parentId ?? null,
    width: row.width ?? null,
    height: row.height ?? null,
    duration_seconds: row.durationSeconds ?? null,
  };
}

/** The user's newest image or video (or newest of one kind); undefined when they have none. */
export async function newestMedia(
  ctx: Pick<AppContext, "db">,
  userId: string,
  kind?: "image" | "video",
): Promise<MediaItemRow | undefined> {
  const [row] = await listMediaItems(ctx.db, userId, { limit: 1, ...(kind ? { kind } : {}) });
  return row;
}

export async function listGallery(
  ctx: Pick<AppContext, "storage" | "db">,
  userId: string,
  options: { kind?: "image" | "video"; limit: number; before?: { createdAt: Date; id: string } },
): Promise<GalleryItem[]> {
  const rows = await listMediaItems(ctx.db, userId, options);
  return Promise.all(rows.map((row) => toGalleryItem(ctx, row)));
}

/**
 * The bytes behind one of our media URLs, only if the file is the caller's. Anything else (another user's
 * file, an outside address, garbage) is a 404: we never fetch a URL we did not sign.
 */
export async function downloadOwn(ctx: Pick<AppContext, "storage" | "db">, userId: string, url: string) {
  const key = ctx.storage.keyFromUrl(url);
  const item = key ? await findOwnedByKey(ctx.db, userId, key) : undefined;
  if (!key || !item) throw new NotFound("Media not found");
  const isThumbnail = key === item.thumbnailKey;
  const mimeType = isThumbnail ? (key.endsWith(".webp") ? "image/webp" : item.mimeType) : item.mimeType;
  const data = await ctx.storage.read(key);
  const filename = `storyverse-${item.kind}-${item.createdAt.toISOString().slice(0, 10)}-${item.id.slice(0, 8)}.${extensionFor[mimeType] ?? "bin"}`;
  return { data, mimeType, filename };
}

/** A story's media, newest first, as the story media list shows them (contract: storyMediaItemSchema). */
export async function storyMedia(ctx: Pick<AppContext, "storage" | "db">, userId: string, storyId: string) {
  const rows = await listStoryMedia(ctx.db, userId, storyId);
  return Promise.all(
    rows.map(async (row) => ({
      message_id: row.messageId ?? row.id,
      type: row.kind,
      url: await ctx.storage.signedUrl(row.storageKey),
      created_at: row.createdAt.toISOString(),
      content_preview: row.description.slice(0, 160),
    })),
  );
}

/** The key of one of the user's media files behind a URL we signed, or undefined. */
export async function ownedKeyFromUrl(ctx: Pick<AppContext, "storage" | "db">, userId: string, url: string) {
  const key = ctx.storage.keyFromUrl(url);
  const item = key ? await findOwnedByKey(ctx.db, userId, key) : undefined;
  return item ? (item.thumbnailKey ?? item.storageKey) : undefined;
}

/**
 * An image of the user's by its original's or its thumbnail's key: the original's key and pixel size (for
 * pages that size pictures themselves, such as a shared story), or undefined.
 */
export async function ownedImageByKey(ctx: Pick<AppContext, "db">, userId: string, key: string) {
  const item = await findOwnedByKey(ctx.db, userId, key);
  if (item?.kind !== "image") return undefined;
  return {
    id: item.id,
    key: item.storageKey,
    thumbnailKey: item.thumbnailKey,
    width: item.width,
    height: item.height,
  };
}

/** Each story's newest picture key and its time, for the story cards. */
export async function newestMediaOfStories(ctx: Pick<AppContext, "db">, userId: string, storyIds: string[]) {
  return newestStoryMedia(ctx.db, userId, storyIds);
}

/**
 * For each key among `keys` that is one of the user's gallery pictures' originals, its small thumbnail's key:
 * what a strip of 48-px inputs shows instead of a 2K original (decision 0141). Other keys are not in the map.
 */
export async function smallImageKeys(
  ctx: Pick<AppContext, "db">,
  userId: string,
  keys: string[],
): Promise<Map<string, string>> {
  const rows = await findOwnedImagesByKeys(ctx.db, userId, [...new Set(keys)]);
  return new Map(
    rows.flatMap((row) => (row.thumbnailKey ? [[row.storageKey, row.thumbnailKey] as const] : [])),
  );
}

/** The user's gallery items among `ids` (others' ids are left out). */
export async function ownedMediaByIds(ctx: Pick<AppContext, "db">, userId: string, ids: string[]) {
  return findOwnedByIds(ctx.db, userId, ids);
}

/** A signed URL for one of the user's gallery items by id, or null if it is not theirs (or gone). */
export async function ownedMediaUrl(ctx: Pick<AppContext, "storage" | "db">, userId: string, id: string) {
  const item = await findOwnedById(ctx.db, userId, id);
  return item ? ctx.storage.signedUrl(item.storageKey) : null;
}

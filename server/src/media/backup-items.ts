// What a whole-story backup needs of the media module: a story's gallery items as stored, the restore's
// registration of the files it stored again as the caller's gallery items, the storage keys they get (the
// same shapes as generated media), and the checks that a file from an archive is the picture or clip it
// claims to be, judged by its bytes.
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import sharp from "sharp";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { mediaItems } from "../db/schema";
import { MAX_INPUT_PIXELS } from "./images";
import { type MediaItemRow, mediaCache } from "./repo";

export type BackupMediaItem = MediaItemRow;
export type RestoredMediaItem = typeof mediaItems.$inferInsert;

/** Generated pictures can be larger than an upload may be (10 MB); a backup's are judged up to this. */
const ARCHIVED_IMAGE_MAX_BYTES = 64 * 1024 * 1024;

const IMAGE_TYPES = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif" } as const;
const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

export const extensionOfType = (mimeType: string) => EXTENSIONS[mimeType] ?? "bin";

/** One of the user's stories' gallery items, oldest first. */
export async function storyMediaForBackup(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<BackupMediaItem[]> {
  return ctx.db
    .select()
    .from(mediaItems)
    .where(and(eq(mediaItems.userId, userId), eq(mediaItems.storyId, storyId)))
    .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id));
}

/** The restored story's gallery items, in the caller's transaction. */
export async function insertRestoredMediaItems(q: Queryable, rows: RestoredMediaItem[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 200) {
    await q.insert(mediaItems).values(rows.slice(start, start + 200));
  }
  for (const userId of new Set(rows.map((row) => row.userId))) mediaCache.invalidate(q, userId);
}

/** Where a restored file goes: a gallery file and its thumbnail as generated media; portraits and references apart. */
export function restoredMediaKey(
  userId: string,
  place: { item: string; thumbnail: boolean } | { folder: "portraits" | "references" },
  mimeType: string,
): string {
  const extension = extensionOfType(mimeType);
  if ("item" in place) return `u/${userId}/${place.item}${place.thumbnail ? ".thumb" : ""}.${extension}`;
  return `u/${userId}/${place.folder}/${randomUUID()}.${extension}`;
}

/**
 * What an image from an archive really is: PNG, JPEG, WebP or GIF that decodes whole, within the pixel
 * limit. Null for anything else (SVG, a renamed text file, a truncated picture).
 */
export async function inspectArchivedImage(
  data: Buffer,
): Promise<{ mimeType: string; width: number; height: number } | null> {
  if (data.length === 0 || data.length > ARCHIVED_IMAGE_MAX_BYTES) return null;
  try {
    const metadata = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!Object.hasOwn(IMAGE_TYPES, metadata.format)) return null;
    const { width, height } = metadata.autoOrient ?? metadata;
    if (!width || !height) return null;
    await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize(16, 16, { fit: "inside" })
      .raw()
      .toBuffer();
    return { mimeType: IMAGE_TYPES[metadata.format as keyof typeof IMAGE_TYPES], width, height };
  } catch {
    return null;
  }
}

/** A clip's type from its first bytes (an MP4's `ftyp` box, WebM's EBML header), or null. */
export function sniffVideo(head: Buffer): "video/mp4" | "video/webm" | null {
  if (head.length >= 12 && head.toString("latin1", 4, 8) === "ftyp") return "video/mp4";
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return "video/webm";
  return null;
}

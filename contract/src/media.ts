// Gallery items: every generated image and video.
import { z } from "zod";

export const mediaSourceSchema = z.enum(["main_chat", "story", "studio"]);

export const galleryItemSchema = z.object({
  id: z.string(),
  type: z.enum(["image", "video"]),
  media_url: z.string(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
  created_at: z.string(),
  description: z.string(),
  source: mediaSourceSchema,
  story_id: z.string().nullable(),
  story_title: z.string().nullable(),
  file_extension: z.string(),
  message_id: z.string().nullable(),
  /** Marked a favourite in the Gallery (decision 0141); every server answer says it. */
  favourite: z.boolean().optional(),
  /** The ids of the boards holding it: in the Gallery's pages and an item's details. */
  boards: z.array(z.string()).optional(),
  /** The seed it was made with (decision 0145); null: not recorded. */
  seed: z.number().int().nullable().optional(),
  /** The picture it was edited from (decision 0145); null: not an edit, or that picture was deleted. */
  parent_id: z.string().nullable().optional(),
  /** A picture's size in pixels (decision 0149: its shape shows in the Studio before it loads); null: unknown. */
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  /** A clip's length in seconds (decision 0160); null: a picture, or an older clip whose length is not recorded. */
  duration_seconds: z.number().nullable().optional(),
});
export type GalleryItem = z.infer<typeof galleryItemSchema>;

export const latestMediaSchema = z.object({
  latest_media: z
    .object({ url: z.string(), type: z.enum(["image", "video"]), created_at: z.string() })
    .nullable(),
});
export const lastImageSchema = z.object({ image: z.string().nullable() });
export const userImagesSchema = z.object({ success: z.literal(true), images: z.array(galleryItemSchema) });
export const userVideosSchema = z.object({ success: z.literal(true), videos: z.array(galleryItemSchema) });

/** How many gallery items one request may delete (POST /api/gallery/delete). */
export const MEDIA_DELETE_MAX = 100;

/** GET /api/media/usage: the bytes the account keeps in media storage and its quota (null: unlimited). */
export const mediaUsageSchema = z.object({
  usedBytes: z.number().int().nonnegative(),
  limitBytes: z.number().int().positive().nullable(),
});
export type MediaUsage = z.infer<typeof mediaUsageSchema>;

/** DELETE /api/gallery/{id}?confirm=1: confirm deletes an item a story message or a share link still shows. */
export const mediaDeleteQuerySchema = z.object({
  confirm: z
    .enum(["1", "true"], { error: "confirm must be 1 or true" })
    .optional()
    .describe("Delete even if a story message or a share link still shows the item"),
});

export const mediaDeleteManySchema = z.object({
  ids: z
    .array(z.uuid("each id must be a gallery item id"))
    .min(1, "Choose at least one item to delete")
    .max(MEDIA_DELETE_MAX, `At most ${MEDIA_DELETE_MAX} items can be deleted at once`),
  confirm: z.boolean().optional().describe("Delete even if a story message or a share link still shows them"),
});

/** What a delete removed, and the account's storage after it. */
export const mediaDeletedSchema = z.object({
  deleted: z.array(z.string()),
  usage: mediaUsageSchema,
});

/** "512.0 MB", "2.0 GB": a size as the account page and the quota's messages show it. */
export function formatStorageBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= 1024 * mb) return `${(bytes / (1024 * mb)).toFixed(1)} GB`;
  if (bytes >= mb) return `${(bytes / mb).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

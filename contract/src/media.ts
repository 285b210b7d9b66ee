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

// Read-only share links to a story: the owner makes (or replaces) one, anyone with it reads the story.
import { z } from "zod";
import { storyMessagesQuerySchema } from "./chat";

export const createShareRequestSchema = z
  .object({
    /** Show the owner's username on the public page; the email is never shown. */
    show_username: z.boolean().optional(),
  })
  // A POST with no body at all makes a link with the defaults.
  .nullish();
export type CreateShareRequest = z.input<typeof createShareRequestSchema>;

export const shareLinkResponseSchema = z.object({
  success: z.literal(true),
  url: z.string().describe("The public link; the owner can see it again while it is live"),
  created_at: z.string(),
  show_username: z.boolean(),
});
export type ShareLinkResponse = z.infer<typeof shareLinkResponseSchema>;

/**
 * GET .../share: the live link again, to copy for one more reader. A story without one answers `shared: false`
 * (a 200, not a 404: the dialog asks on every open, and having no link is an ordinary state).
 */
export const liveShareResponseSchema = z.object({
  success: z.literal(true),
  shared: z.boolean().describe("Whether the story has a live link"),
  url: z
    .string()
    .nullable()
    .describe(
      "The live link; null without one, or for a link made before links could be shown again (make a new one)",
    ),
  created_at: z.string().nullable(),
  show_username: z.boolean(),
  /** Only without a live link: an administrator took the story's link down, when and why (decision 0150). */
  taken_down: z.object({ at: z.string(), reason: z.string() }).optional(),
});
export type LiveShareResponse = z.infer<typeof liveShareResponseSchema>;

export const revokeShareResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** How wide a shared picture is shown: the page's column (720 px), or the screen less its margins on phones. */
export const SHARED_PICTURE_SIZES = "(min-width: 768px) 720px, calc(100vw - 2rem)";

/** A scene picture sized for the page: WebPs for srcset, and the size of `src` for width and height. */
export const sharedPictureSchema = z.object({
  src: z.string().describe("The WebP for the page column (720 px wide, or the original's width if smaller)"),
  srcset: z.string().describe("The same picture at each offered width, as an img srcset"),
  width: z.number().int(),
  height: z.number().int(),
});
export type SharedPicture = z.infer<typeof sharedPictureSchema>;

export const sharedMessageSchema = z.object({
  /** A handle for the message on this link only (not its id): stable across pages, opaque. */
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  mode: z.enum(["chat", "image", "video"]).nullable(),
  /** The original picture (2K PNG): for downloads; the page shows `picture`. */
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
  picture: sharedPictureSchema.nullable(),
});
export type SharedMessage = z.infer<typeof sharedMessageSchema>;

export const sharedStoryResponseSchema = z.object({
  success: z.literal(true),
  story: z.object({
    title: z.string(),
    context: z.string(),
    created_at: z.string(),
    thumbnail: z.string().nullable(),
  }),
  /** The owner's username when they opted in, else null. */
  author: z.string().nullable(),
  /** One page of the story, oldest first (the newest page without `before`). */
  messages: z.array(sharedMessageSchema),
  /** Older messages exist: pass next_cursor as before to read them. */
  has_more: z.boolean(),
  /** Opaque, for this link only; null on the story's first page. */
  next_cursor: z.string().nullable(),
});
export type SharedStoryResponse = z.infer<typeof sharedStoryResponseSchema>;

/**
 * GET /api/shared/{token}: a page of the shared story (decision 0138), as a story's messages are paged: the newest
 * `limit` (default 50, 1 to 200), or the `limit` before a page's next_cursor.
 */
export const sharedStoryQuerySchema = storyMessagesQuerySchema.pick({ limit: true, before: true });
export type SharedStoryQuery = z.input<typeof sharedStoryQuerySchema>;

/** The page opens on the newest this many messages (as a story does); older pages come at the default size. */
export const SHARED_NEWEST_PAGE_MESSAGES = 30;

/** 128 random bits, base64url without padding. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

// The Gallery organised (issue 45 item 5, decision 0141): favourites, boards (an item in several), the
// filters of GET /api/gallery, an item's details and a selection downloaded as one zip.
import { z } from "zod";
import { galleryItemSchema, MEDIA_DELETE_MAX } from "./media";

/** How many boards one player may have, and how long a board's name may be. */
export const BOARDS_MAX = 100;
export const BOARD_NAME_MAX = 60;
/** How many items one zip may hold (the same as one delete). */
export const MEDIA_ZIP_MAX = MEDIA_DELETE_MAX;

const boardName = z
  .string()
  .trim()
  .min(1, "Give the board a name")
  .max(BOARD_NAME_MAX, `A board's name is at most ${BOARD_NAME_MAX} characters`);
const mediaIds = z
  .array(z.uuid("each id must be a gallery item id"))
  .min(1, "Choose at least one item")
  .max(MEDIA_DELETE_MAX, `At most ${MEDIA_DELETE_MAX} items at once`);

export const boardSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** How many items the board holds. */
  count: z.number().int().nonnegative(),
  /** The newest item's small thumbnail (never an original), null for an empty board or a clip without one. */
  cover_url: z.string().nullable(),
  created_at: z.string(),
});
export type Board = z.infer<typeof boardSchema>;

export const boardsResponseSchema = z.object({ boards: z.array(boardSchema) });
export const boardResponseSchema = z.object({ board: boardSchema });

/** POST /api/boards */
export const createBoardSchema = z.object({ name: boardName });

/** PUT /api/boards/{id}: rename, and/or add or remove items (a picture stays in its other boards). */
export const updateBoardSchema = z
  .object({
    name: boardName.optional(),
    add: mediaIds.optional().describe("Gallery items to put on the board"),
    remove: mediaIds.optional().describe("Gallery items to take off the board (they stay in the Gallery)"),
  })
  .refine((body) => body.name !== undefined || body.add !== undefined || body.remove !== undefined, {
    message: "Say what to change: name, add or remove",
  });

/** PUT /api/media/{id}: mark a favourite, and/or set the boards that hold the item (all of them). */
export const updateMediaSchema = z
  .object({
    favourite: z.boolean().optional(),
    boards: z
      .array(z.uuid("each board must be one of your boards"))
      .max(BOARDS_MAX, `At most ${BOARDS_MAX} boards`)
      .optional(),
  })
  .refine((body) => body.favourite !== undefined || body.boards !== undefined, {
    message: "Say what to change: favourite or boards",
  });

export const mediaItemResponseSchema = z.object({ item: galleryItemSchema });

/** GET /api/media/{id}: what the details panel shows; null where the item's making was not recorded. */
export const mediaDetailsSchema = z.object({
  item: galleryItemSchema,
  prompt: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  bytes: z.number().int().nonnegative(),
  mime_type: z.string(),
  /** The model that made it, if it was recorded. */
  model: z.string().nullable(),
  /** The seed it was made with, if it was recorded. */
  seed: z.number().int().nullable(),
  /** The pictures it was made from (Studio inputs, a clip's scene picture) that are still in the Gallery. */
  references: z.array(galleryItemSchema),
  /** The item it was made from by an edit, if known and still in the Gallery. */
  parent: galleryItemSchema.nullable(),
  /** Items made from it (a clip animated from this picture; edits), still in the Gallery. */
  children: z.array(galleryItemSchema),
});
export type MediaDetails = z.infer<typeof mediaDetailsSchema>;

/** POST /api/media/zip */
export const mediaZipSchema = z.object({ ids: mediaIds });

/** The filters GET /api/gallery takes besides limit, cursor and q (all optional, combined with AND). */
export const galleryFilterSchema = z.object({
  kind: z.enum(["image", "video"], { error: "kind must be image or video" }).optional(),
  story: z.uuid("story must be a story id").optional(),
  board: z.uuid("board must be a board id").optional(),
  favourite: z
    .enum(["1", "true"], { error: "favourite must be 1 or true" })
    .optional()
    .describe("Only favourites"),
  from: z.iso.date("from must be a date (YYYY-MM-DD)").optional().describe("Made on or after this day (UTC)"),
  to: z.iso.date("to must be a date (YYYY-MM-DD)").optional().describe("Made on or before this day (UTC)"),
});
export type GalleryFilter = z.infer<typeof galleryFilterSchema>;

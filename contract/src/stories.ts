// Stories: named, persistent adventures, each with its own chat and media.
import { z } from "zod";
import { chatModeSchema, MAX_BATCH_SIZE, MAX_INPUT_IMAGES, MIN_BATCH_SIZE, messageTextSchema } from "./chat";
import { inputModeSchema } from "./generation-settings";

export const STORY_NAME_MAX_LENGTH = 30;
export const STORY_TITLE_MAX_LENGTH = 100;
/**
 * A story's context holds what an imported card's scenario and description say, each up to a card field's
 * 32,000 characters (decision 0142; the spec's 2,000 is raised by issue #43). What reaches the narrator is
 * decided by its token budget, never by this limit.
 */
export const STORY_CONTEXT_MAX_LENGTH = 65_000;

const titleSchema = (max: number) =>
  z
    .string({ error: "Story title is required" })
    .trim()
    .min(1, "Story title is required")
    .max(max, `Story title must be at most ${max} characters`);

const contextSchema = z
  .string()
  .max(STORY_CONTEXT_MAX_LENGTH, `Story context must be at most ${STORY_CONTEXT_MAX_LENGTH} characters`);

export const createStoryRequestSchema = z.object({
  title: titleSchema(STORY_NAME_MAX_LENGTH),
  context: contextSchema.optional().default(""),
});
export type CreateStoryRequest = z.input<typeof createStoryRequestSchema>;

export const updateStoryRequestSchema = z
  .object({
    title: titleSchema(STORY_TITLE_MAX_LENGTH).optional(),
    context: contextSchema.optional(),
    /** One of the user's own media URLs, pinned as the card's picture until newer media arrives. */
    thumbnail: z.string().max(4096).optional(),
  })
  .refine((v) => v.title !== undefined || v.context !== undefined || v.thumbnail !== undefined, {
    message: "Nothing to update: send title, context or thumbnail",
  });
export type UpdateStoryRequest = z.input<typeof updateStoryRequestSchema>;

export const storySchema = z.object({
  id: z.string(),
  _id: z.string(),
  title: z.string(),
  context: z.string(),
  thumbnail: z.string().nullable(),
  message_count: z.number(),
  last_updated: z.string(),
  updated_at: z.string(),
  created_at: z.string(),
  /** The branch the story shows (branches.ts): its memory, settings and messages are that branch's. */
  branch: z.object({ id: z.string(), name: z.string() }),
});
export type Story = z.infer<typeof storySchema>;

/** The story list a page at a time (GET /api/stories), most recently played first (decision 0129). */
export const STORIES_PAGE_DEFAULT = 50;
export const STORIES_PAGE_MAX = 100;
export const STORY_SEARCH_MAX_LENGTH = 200;
const pageLimitError = `limit must be a whole number from 1 to ${STORIES_PAGE_MAX}`;
export const storiesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: pageLimitError })
    .int(pageLimitError)
    .min(1, pageLimitError)
    .max(STORIES_PAGE_MAX, pageLimitError)
    .default(STORIES_PAGE_DEFAULT),
  /** next_cursor of the previous page; absent for the first. Opaque: do not build one. */
  cursor: z.string().max(200).optional(),
  /** Only the stories whose title or context holds these words (case-insensitive). */
  q: z
    .string()
    .max(STORY_SEARCH_MAX_LENGTH, `q must be at most ${STORY_SEARCH_MAX_LENGTH} characters`)
    .optional(),
});
export type StoriesQuery = z.input<typeof storiesQuerySchema>;

export const storiesResponseSchema = z.object({
  success: z.literal(true),
  stories: z.array(storySchema),
  /** Pass as cursor for the next page; null when this page is the last (absent from servers before paging). */
  next_cursor: z.string().nullable().default(null),
  has_more: z.boolean().default(false),
});
export type StoriesPage = z.infer<typeof storiesResponseSchema>;
export const storyResponseSchema = z.object({ success: z.literal(true), story: storySchema });
export const deleteStoryResponseSchema = z.object({ success: z.literal(true), message: z.string() });

export const storyMediaItemSchema = z.object({
  message_id: z.string(),
  type: z.enum(["image", "video"]),
  url: z.string(),
  created_at: z.string(),
  content_preview: z.string(),
});
export const storyMediaResponseSchema = z.object({
  success: z.literal(true),
  media: z.array(storyMediaItemSchema),
});

/**
 * What a reference is for (decision 0161): `content` (the default) is what the picture shows, `style` how it
 * looks, `character` who is in it. Painters that take several references get each with its role.
 */
export const REFERENCE_ROLES = ["content", "style", "character"] as const;
export type ReferenceRole = (typeof REFERENCE_ROLES)[number];
export const referenceRoleSchema = z.enum(REFERENCE_ROLES, {
  error: "role must be content, style or character",
});

/**
 * A selected image: a URL we signed, an object carrying one (a story media item the user picked), or a data:
 * URL. The object forms may carry the reference's `role` (absent: content).
 */
export const inputImageSchema = z.union([
  z.string().min(1).max(15_000_000),
  z.object({
    url: z.string().min(1).max(15_000_000),
    id: z.string().optional(),
    messageId: z.string().optional(),
    role: referenceRoleSchema.optional(),
  }),
  z.object({
    data: z.string().min(1).max(15_000_000),
    name: z.string().optional(),
    role: referenceRoleSchema.optional(),
  }),
]);
export type InputImage = z.infer<typeof inputImageSchema>;

/** The role an input image was sent with (content when it names none). */
export const inputImageRole = (input: InputImage): ReferenceRole =>
  typeof input === "string" ? "content" : (input.role ?? "content");

export const storyChatRequestSchema = z.object({
  prompt: messageTextSchema("prompt"),
  generate_video: z.boolean().optional(),
  chat_mode: chatModeSchema.optional(),
  /** Do / Say / Story for this turn's words (generation-settings.ts); the story's setting when not sent. */
  input_mode: inputModeSchema.optional(),
  batchSize: z
    .number()
    .int()
    .min(MIN_BATCH_SIZE, `batchSize must be between ${MIN_BATCH_SIZE} and ${MAX_BATCH_SIZE}`)
    .max(MAX_BATCH_SIZE, `batchSize must be between ${MIN_BATCH_SIZE} and ${MAX_BATCH_SIZE}`)
    .optional(),
  inputImages: z
    .array(inputImageSchema)
    .max(MAX_INPUT_IMAGES, `Maximum ${MAX_INPUT_IMAGES} images allowed for Seedream-4.`)
    .optional(),
  /**
   * A group scene (decision 0164): the present, unmuted character who speaks this turn (required when the
   * speaker order is "manual"; on continue, the next in "all" order); else the order's rule picks.
   */
  speaker_id: z.uuid("speaker_id must be the card id of a character present in this scene").optional(),
});
export type StoryChatRequest = z.input<typeof storyChatRequestSchema>;

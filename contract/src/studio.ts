// The Studio (its conversation, input images, the prompt advisor and image batches) and the paginated
// Gallery. Limits the web and the server both enforce live here.
import { z } from "zod";
import { MAX_BATCH_SIZE, MAX_INPUT_IMAGES, MIN_BATCH_SIZE, PROMPT_MAX_LENGTH } from "./chat";
import { quotaInfoSchema } from "./credits";
import { galleryFilterSchema } from "./gallery";
import { ASPECT_RATIO_MESSAGE, ASPECT_RATIOS } from "./generation-settings";
import { galleryItemSchema } from "./media";
import { seedSchema } from "./media-edit";
import { inputImageSchema } from "./stories";

/** Earlier Studio results that can be selected for reuse as inputs at once. */
export const MAX_REUSED_RESULTS = 3;
/** GET /api/studio/messages answers with the newest this many, oldest first. */
export const STUDIO_HISTORY_LIMIT = 200;
/** The advisor sees this many earlier advisor messages. */
export const ADVISOR_HISTORY_WINDOW = 10;

export const GALLERY_PAGE_DEFAULT = 60;
export const GALLERY_PAGE_MAX = 100;
export const GALLERY_SEARCH_MAX_LENGTH = 200;

/** A picked or uploaded file that is not an image: the web checks before sending, the server by the bytes. */
export const IMAGE_FILES_ONLY_MESSAGE = "Please select image files only.";

/** The product's fixed wording (the web shows it too), with the count the user actually sent. */
export const tooManyInputImagesMessage = (count: number) =>
  `Maximum ${MAX_INPUT_IMAGES} images allowed for Seedream-4. You currently have ${count} images.`;

const promptSchema = (what: string) =>
  z
    .string({ error: "prompt is required" })
    .trim()
    .min(1, `Please type ${what} first`)
    .max(PROMPT_MAX_LENGTH, `Prompts are limited to ${PROMPT_MAX_LENGTH} characters`);

export const batchSizeSchema = z
  .number({ error: `batch_size must be a whole number from ${MIN_BATCH_SIZE} to ${MAX_BATCH_SIZE}` })
  .int(`batch_size must be a whole number from ${MIN_BATCH_SIZE} to ${MAX_BATCH_SIZE}`)
  .min(MIN_BATCH_SIZE, `batch_size must be between ${MIN_BATCH_SIZE} and ${MAX_BATCH_SIZE}`)
  .max(MAX_BATCH_SIZE, `batch_size must be between ${MIN_BATCH_SIZE} and ${MAX_BATCH_SIZE}`);

export const studioGenerateRequestSchema = z.object({
  prompt: promptSchema("a prompt"),
  batch_size: batchSizeSchema.optional().default(MIN_BATCH_SIZE),
  /**
   * Each one a gallery item of the user's (its id, its URL, or `{url, id}` as the picker sends it) or an
   * upload (a data: URL, or `{data, name}`).
   */
  input_images: z
    .array(inputImageSchema)
    .max(MAX_INPUT_IMAGES, {
      error: (issue) => tooManyInputImagesMessage(Array.isArray(issue.input) ? issue.input.length : 0),
    })
    .optional()
    .default([]),
  /** The pictures' shape, each 2K on the long side (decision 0149); absent: 4:3, as before. */
  aspect_ratio: z.enum(ASPECT_RATIOS, { error: ASPECT_RATIO_MESSAGE }).optional(),
  /**
   * The first picture's seed; the batch's next pictures take the next seeds (seed + 1, ...), so any one of
   * them repeats alone with its own seed. Absent: a new one. Every picture keeps its seed (`items[].seed`).
   */
  seed: seedSchema.optional(),
});
export type StudioGenerateRequest = z.input<typeof studioGenerateRequestSchema>;

export const studioGenerateResponseSchema = z.object({
  success: z.literal(true),
  /** Signed URLs of the new images, in order. */
  images: z.array(z.string()),
  /** The same images as gallery items (with thumbnail_url). */
  items: z.array(galleryItemSchema),
  /** The assistant message that holds the batch. */
  message_id: z.string(),
  quota_info: quotaInfoSchema,
});
export type StudioGenerateResponse = z.infer<typeof studioGenerateResponseSchema>;

/**
 * `Prefer: respond-async` on POST /api/studio/generate-image queues the batch as a job and answers 202 at
 * once (charged as usual); the result comes as a `studio` event and from GET /api/studio/batches/{id}.
 * Without the header the call answers when the images exist, as the spec says.
 */
export const RESPOND_ASYNC = "respond-async";

export const studioBatchStatusSchema = z.enum(["pending", "completed", "failed"]);
export type StudioBatchStatus = z.infer<typeof studioBatchStatusSchema>;

export const studioBatchAcceptedSchema = z.object({
  success: z.literal(true),
  /** The assistant message that will hold the batch; also the batch's id. */
  message_id: z.string(),
  /** The user's message (the prompt), recorded with it. */
  prompt_message_id: z.string(),
  status: z.literal("pending"),
  quota_info: quotaInfoSchema,
});
export type StudioBatchAccepted = z.infer<typeof studioBatchAcceptedSchema>;

/** GET /api/studio/batches/{id}: where a queued batch stands. */
export const studioBatchSchema = z.object({
  message_id: z.string(),
  status: studioBatchStatusSchema,
  /** The assistant message's words: the batch summary, or why it failed. */
  content: z.string(),
  images: z.array(z.string()),
  items: z.array(galleryItemSchema),
  error: z.string().nullable(),
});
export type StudioBatch = z.infer<typeof studioBatchSchema>;

export const advisorChatRequestSchema = z.object({ prompt: promptSchema("a question") });
export type AdvisorChatRequest = z.input<typeof advisorChatRequestSchema>;

export const advisorChatResponseSchema = z.object({
  success: z.literal(true),
  /** The advisor's answer, in Markdown (render it safely: no raw HTML). */
  response: z.string(),
  message_id: z.string(),
  quota_info: quotaInfoSchema,
});
export type AdvisorChatResponse = z.infer<typeof advisorChatResponseSchema>;

export const studioMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  /** Signed URLs of the images this message produced (assistant messages of a batch). */
  images: z.array(z.string()),
  /** The same images as gallery items, for thumbnails and the lightbox. */
  image_items: z.array(galleryItemSchema),
  /** Signed URLs of the input images a user message was sent with. */
  input_images: z.array(z.string()),
  isAdvisor: z.boolean(),
  batchSize: z.number(),
  timestamp: z.string(),
  /** A batch queued with `Prefer: respond-async`: pending until its job ends (otherwise completed). */
  status: z.enum(["pending", "completed", "failed"]).optional(),
});
export type StudioMessage = z.infer<typeof studioMessageSchema>;

export const studioMessagesResponseSchema = z.object({
  success: z.literal(true),
  messages: z.array(studioMessageSchema),
});

export const galleryPageQuerySchema = galleryFilterSchema.extend({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${GALLERY_PAGE_MAX}` })
    .int(`limit must be a whole number from 1 to ${GALLERY_PAGE_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${GALLERY_PAGE_MAX}`)
    .max(GALLERY_PAGE_MAX, `limit must be a whole number from 1 to ${GALLERY_PAGE_MAX}`)
    .optional()
    .default(GALLERY_PAGE_DEFAULT),
  /** next_cursor of the previous page; absent for the first. Opaque: do not build one. */
  cursor: z.string().max(200).optional(),
  /** Only the items whose prompt (description) holds these words, case-insensitive (decision 0129). */
  q: z
    .string()
    .max(GALLERY_SEARCH_MAX_LENGTH, `q must be at most ${GALLERY_SEARCH_MAX_LENGTH} characters`)
    .optional(),
});
export type GalleryPageQuery = z.input<typeof galleryPageQuerySchema>;

export const galleryPageSchema = z.object({
  success: z.literal(true),
  /** Newest first: images and videos from every source. Show thumbnail_url in grids, never url. */
  items: z.array(galleryItemSchema),
  /** Pass as cursor for the next page; null when this page is the last. */
  next_cursor: z.string().nullable(),
});
export type GalleryPage = z.infer<typeof galleryPageSchema>;

// Clips that go on (issue 45 item 4, decision 0160): make a clip from any picture (image to video), with an
// optional last frame and a camera move, and extend a clip by 5 seconds up to 20. Both are slow (a vendor takes
// a minute or more), so each answers 202 with a clip job at once (charged as usual) and the job ends in a new
// gallery item (parent: the picture or the clip it came from) or a full refund.
import { z } from "zod";
import { quotaInfoSchema } from "./credits";
import { galleryItemSchema } from "./media";

/** How the camera moves through the clip; "still" keeps it fixed. */
export const CAMERA_MOVES = ["still", "push_in", "pull_out", "pan_left", "pan_right", "orbit"] as const;
export type CameraMove = (typeof CAMERA_MOVES)[number];
/** Every clip and every extension is this long. */
export const CLIP_SECONDS = 5;
/** A clip cannot be extended past this length. */
export const CLIP_MAX_SECONDS = 20;
export const CLIP_PROMPT_MAX = 2000;
/** Priced as a story's clip (contract/credits.ts `video`) for a new clip and for each 5-second extension. */
export const CLIP_PRICE_KIND = "video";

export const CAMERA_MESSAGE = "camera must be one of still, push_in, pull_out, pan_left, pan_right or orbit";

export const animateRequestSchema = z.object({
  prompt: z
    .string()
    .trim()
    .max(CLIP_PROMPT_MAX, `The prompt can be at most ${CLIP_PROMPT_MAX} characters`)
    .optional()
    .describe("What happens in the clip; absent: the picture's own prompt"),
  last_frame_id: z
    .uuid("last_frame_id must be the id of one of your pictures")
    .optional()
    .describe("A picture of the player's the clip ends on"),
  camera: z.enum(CAMERA_MOVES, { error: CAMERA_MESSAGE }).optional().describe("Absent: still"),
});
export type AnimateRequest = z.infer<typeof animateRequestSchema>;

export const extendRequestSchema = z.object({
  prompt: z
    .string()
    .trim()
    .max(CLIP_PROMPT_MAX, `The prompt can be at most ${CLIP_PROMPT_MAX} characters`)
    .optional()
    .describe("What happens next; absent: the clip's own prompt"),
  camera: z.enum(CAMERA_MOVES, { error: CAMERA_MESSAGE }).optional(),
});
export type ExtendRequest = z.infer<typeof extendRequestSchema>;

export const CLIP_JOB_STATUSES = ["pending", "completed", "failed"] as const;

/** GET /api/media/clips/{job_id}, and the 202 of animate and extend. */
export const clipJobSchema = z.object({
  job_id: z.string(),
  kind: z.enum(["animate", "extend"]),
  status: z.enum(CLIP_JOB_STATUSES),
  /** The picture or clip it was made from. */
  parent_id: z.string(),
  /** The new clip, once completed. */
  item: galleryItemSchema.nullable(),
  /** Why it failed (the charge was refunded), once failed. */
  detail: z.string().nullable(),
  /** The new clip's length in seconds (5 for a new clip; the parent's plus 5 for an extension). */
  duration_seconds: z.number(),
});
export type ClipJob = z.infer<typeof clipJobSchema>;

export const clipStartedSchema = clipJobSchema.extend({ quota_info: quotaInfoSchema });
export type ClipStarted = z.infer<typeof clipStartedSchema>;

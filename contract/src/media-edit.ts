// Editing a picture (issue 45 item 1, decision 0145): POST /api/media/{id}/edit. The mask travels as a PNG in
// a data URL inside the JSON body, as the Studio's input images do (one body convention for pictures).
import { z } from "zod";
import { quotaInfoSchema } from "./credits";
import { galleryItemSchema } from "./media";

export const MEDIA_EDIT_KINDS = ["inpaint", "outpaint", "vary", "upscale"] as const;
export type MediaEditKind = (typeof MEDIA_EDIT_KINDS)[number];
export const OUTPAINT_DIRECTIONS = ["left", "right", "up", "down"] as const;
export const VARY_STRENGTHS = ["subtle", "strong"] as const;
export const EDIT_PROMPT_MAX = 2000;
/** The largest seed kept (unsigned 32-bit, what every painter takes). */
export const SEED_MAX = 4_294_967_295;

/** The credit kind each edit is priced as (contract/credits.ts). */
export const EDIT_PRICE_KIND: Record<MediaEditKind, string> = {
  inpaint: "image_inpaint",
  outpaint: "image_outpaint",
  vary: "image_vary",
  upscale: "image_upscale",
};

export const seedSchema = z
  .number({ error: `seed must be a whole number from 0 to ${SEED_MAX}` })
  .int(`seed must be a whole number from 0 to ${SEED_MAX}`)
  .min(0, `seed must be a whole number from 0 to ${SEED_MAX}`)
  .max(SEED_MAX, `seed must be a whole number from 0 to ${SEED_MAX}`);

export const mediaEditSchema = z.object({
  kind: z.enum(MEDIA_EDIT_KINDS, { error: "kind must be one of inpaint, outpaint, vary or upscale" }),
  prompt: z
    .string()
    .trim()
    .max(EDIT_PROMPT_MAX, `The prompt can be at most ${EDIT_PROMPT_MAX} characters`)
    .optional(),
  /** inpaint: a PNG data URL of the picture's size; painted (alpha >= 128) pixels are repainted. */
  mask: z.string().optional(),
  direction: z
    .enum(OUTPAINT_DIRECTIONS, { error: "direction must be one of left, right, up or down" })
    .optional(),
  strength: z.enum(VARY_STRENGTHS, { error: "strength must be subtle or strong" }).optional(),
  /** The seed to use; absent: a new one (kept on the result). */
  seed: seedSchema.optional(),
});
export type MediaEditRequest = z.infer<typeof mediaEditSchema>;

export const mediaEditResponseSchema = z.object({
  success: z.literal(true),
  item: galleryItemSchema,
  quota_info: quotaInfoSchema,
});
export type MediaEditResponse = z.infer<typeof mediaEditResponseSchema>;

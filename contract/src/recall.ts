// Recall (issue #29): a story's older exchanges, out of the narrator's window, brought back into a turn's context
// when its words bear on them; the player pins one (always recalled) or forgets one (never recalled again).
import { z } from "zod";

export const RECALL_PROMPT_MAX_LENGTH = 4000;

export const recalledExchangeSchema = z.object({
  /** The exchange's narrator message. */
  message_id: z.string(),
  /** Its place among the story's narrator messages, 1 the first. */
  turn: z.number().int(),
  player: z.string(),
  narrator: z.string(),
  /** How well the words match it (text-search rank; 0 for a pinned one that does not match). */
  score: z.number(),
  /** The turn's words it shares (as the player wrote them, not their stems): why it was picked. */
  matched: z.array(z.string()),
  pinned: z.boolean(),
});
export type RecalledExchange = z.infer<typeof recalledExchangeSchema>;

/** GET /api/stories/{id}/recall?prompt=: what a turn with these words would recall. */
export const recallQuerySchema = z.object({
  prompt: z
    .string({ error: "prompt must be text" })
    .trim()
    .min(1, "prompt: give the words to recall for.")
    .max(RECALL_PROMPT_MAX_LENGTH, `prompt must be at most ${RECALL_PROMPT_MAX_LENGTH} characters`),
});

export const recallResponseSchema = z.object({
  success: z.literal(true),
  recalled: z.array(recalledExchangeSchema),
});

/** PUT /api/stories/{id}/recall/{message_id}: pin (always recalled) or forget (never recalled) an exchange. */
export const recallMarkRequestSchema = z
  .object({
    pinned: z.boolean({ error: "pinned must be true or false" }).optional(),
    forgotten: z.boolean({ error: "forgotten must be true or false" }).optional(),
  })
  .refine((body) => body.pinned !== undefined || body.forgotten !== undefined, {
    message: "Nothing to change: send pinned or forgotten.",
  });

export const recallMarkResponseSchema = z.object({
  success: z.literal(true),
  message_id: z.string(),
  pinned: z.boolean(),
  forgotten: z.boolean(),
});

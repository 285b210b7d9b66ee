// Per-user limits on the story routes that cost the operator without costing the player: "Make a card"
// (free, but it asks the text provider), "What the narrator sees" (free, but assembling and counting it costs CPU)
// and uploaded card portraits (free, but they are decoded, re-encoded and stored). Each answers 429 with a
// `detail` and `Retry-After`; the numbers are in docs/decisions/ (records 0072, 0041 and 0067).
import type { RateLimitRule } from "../platform/rate-limit";

const MINUTE = 60_000;

export const storyLimits = {
  /** Card drafts per user (they also count against the generation limit of 120 a minute). */
  cardDraftsPerUser: {
    name: "card-draft-user",
    limit: 10,
    windowMs: MINUTE,
    detail: (wait) => `You can draft at most 10 cards a minute. Please wait ${wait} and try again.`,
  },
  /** "What the narrator sees" per user: the panel reads it once when it opens. */
  narratorContextPerUser: {
    name: "narrator-context-user",
    limit: 30,
    windowMs: MINUTE,
    detail: (wait) =>
      `"What the narrator sees" can be opened at most 30 times a minute. Please wait ${wait} and try again.`,
  },
  /** Uploaded card portraits per user (a gallery image as portrait is not an upload and is not counted). */
  portraitUploadsPerUser: {
    name: "portrait-upload-user",
    limit: 20,
    windowMs: 10 * MINUTE,
    detail: (wait) => `You can upload at most 20 portraits in 10 minutes. Please wait ${wait} and try again.`,
  },
} satisfies Record<string, RateLimitRule>;

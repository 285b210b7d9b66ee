// The one error body every API failure carries: a human-readable `detail` and a stable `code` beside it.
import { z } from "zod";

/**
 * Every `code` an error body can carry: a stable name a client branches on (the detail's words may change).
 * The server's domain errors each carry one (server/src/platform/errors.ts) and the HTTP edge gives each its
 * status; a status the edge does not name (Fastify's own 405, 408, 415...) is `http_<status>`.
 */
export const ERROR_CODES = [
  "invalid_request",
  "invalid_file",
  "not_authenticated",
  "insufficient_credits",
  "forbidden",
  "not_found",
  "conflict",
  // Within conflict (409), the cases a client acts on differently (decision 0136):
  /** A turn of this story is being written: wait for it, then try again. */
  "turn_in_progress",
  /** The newest turn's picture or film is still being made: wait for it, then try again. */
  "media_in_progress",
  /** The story's last branch cannot be deleted: delete the story instead. */
  "last_branch",
  /** A gallery item a story or share link still shows: `used_in` says where; confirm to delete it anyway. */
  "media_in_use",
  "stopped",
  "payload_too_large",
  "storage_full",
  "range_not_satisfiable",
  "rate_limited",
  /** A spending cap (the account's daily or monthly, or the install's daily) is reached: `limit`, `resets_at`. */
  "usage_cap",
  /** The account was disabled by an administrator. */
  "account_disabled",
  "internal_error",
  "provider_failed",
  "unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorCodeSchema = z
  .union([z.enum(ERROR_CODES), z.string().regex(/^http_\d{3}$/)])
  .describe("A stable name of the error a client may branch on; the detail's words may change");

export const errorBodySchema = z.object({
  detail: z.string().describe("What went wrong, in words a user can act on"),
  code: errorCodeSchema,
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

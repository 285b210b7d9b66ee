// The one error body every API failure carries: a human-readable `detail` and a stable `code` beside it.
import { z } from "zod";

/** The `code` of an error body: a stable name a client may branch on (the detail's words may change). */
export const errorCodeSchema = z
  .string()
  .describe(
    "A stable name of the error: invalid_request, not_authenticated, insufficient_credits, forbidden, " +
      "not_found, conflict, payload_too_large, range_not_satisfiable, rate_limited, internal_error, " +
      "provider_failed, unavailable, invalid_file (or http_<status> for any other)",
  );

export const errorBodySchema = z.object({
  detail: z.string().describe("What went wrong, in words a user can act on"),
  code: errorCodeSchema,
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

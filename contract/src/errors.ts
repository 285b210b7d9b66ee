// The one error body every API failure carries: a human-readable `detail`.
import { z } from "zod";

export const errorBodySchema = z.object({
  detail: z.string().describe("What went wrong, in words a user can act on"),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// The gate in front of imports (a card or lorebook file up to 20 MB, a starter): free for the player, but each
// is read, parsed, its picture re-encoded and stored, so a player has one import in flight at a time per
// process and at most IMPORTS_PER_WINDOW in ten minutes (429 with detail and Retry-After), counted before the
// file is read. How a portrait is kept, and how many an account keeps, is the stories module's business.

import { Busy } from "../platform/errors";
import type { RateLimiter, RateLimitRule } from "../platform/rate-limit";

const IMPORTS_PER_WINDOW = 30;

const importRule: RateLimitRule = {
  name: "interop-import-user",
  limit: IMPORTS_PER_WINDOW,
  windowMs: 10 * 60_000,
  detail: (wait) =>
    `You can import at most ${IMPORTS_PER_WINDOW} files in 10 minutes. Please wait ${wait} and try again.`,
};

export const IMPORT_BUSY_DETAIL = "Another of your imports is still running. Please wait for it to finish.";

const inFlight = new Set<string>();

/** Runs one import for the user: refused while another of theirs runs, and counted against the limit. */
export async function withImportSlot<T>(
  limiter: RateLimiter,
  userId: string,
  work: () => Promise<T>,
): Promise<T> {
  if (inFlight.has(userId)) throw new Busy(IMPORT_BUSY_DETAIL, 2);
  inFlight.add(userId);
  try {
    await limiter.hit(importRule, userId);
    return await work();
  } finally {
    inFlight.delete(userId);
  }
}

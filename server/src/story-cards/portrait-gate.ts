// The card routes' gate for uploaded portraits: each player has one portrait upload in flight at a time per
// process (a body large enough to carry a picture takes the slot before it is read), and uploads count
// against a per-user limit (stories/limits.ts). What is kept of an upload is portraits.ts's business.
import type { FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from "fastify";
import { currentUser } from "../http/auth";
import { Busy } from "../platform/errors";
import type { RateLimiter } from "../platform/rate-limit";
import { storyLimits } from "../stories";

export const PORTRAIT_BUSY_DETAIL =
  "portrait: another of your portraits is still being uploaded. Please wait for it to finish.";

const inFlight = new Set<string>();
const slotHeld = new WeakSet<FastifyRequest>();

function takePortraitSlot(userId: string): () => void {
  if (inFlight.has(userId)) throw new Busy(PORTRAIT_BUSY_DETAIL, 2);
  inFlight.add(userId);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    inFlight.delete(userId);
  };
}

/** Whether a card request's portrait is an upload (a data: URL), not a gallery image or none. */
export function isPortraitUpload(portrait: unknown): boolean {
  return typeof portrait === "object" && portrait !== null && "data" in portrait;
}

/** Bodies up to this size are ordinary requests (the app's default body limit); larger ones carry a picture. */
const ORDINARY_BODY_BYTES = 1024 * 1024;

function isLarge(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  // A chunked body has no declared length: it may be of any size.
  if (length === undefined) return request.headers["transfer-encoding"] !== undefined;
  return Number(length) > ORDINARY_BODY_BYTES;
}

/**
 * A preParsing hook for the card routes: a body large enough to carry a picture takes the player's portrait
 * slot and counts against the upload limit before a byte of it is read, so a player cannot have several
 * 13 MB bodies arriving at once, nor have one read once over the limit. The slot lives until the reply ends.
 */
export function portraitUploadGate(limiter: RateLimiter): preParsingAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (!isLarge(request)) return payload;
    const userId = currentUser(request).id;
    const release = takePortraitSlot(userId);
    try {
      await limiter.hit(storyLimits.portraitUploadsPerUser, userId);
    } catch (error) {
      release();
      throw error;
    }
    slotHeld.add(request);
    reply.raw.once("close", release);
    return payload;
  };
}

/**
 * Runs a card change whose portrait is an upload: counted against the upload limit and holding the player's
 * portrait slot, unless the gate already did both before the body was read.
 */
export async function withPortraitUpload<T>(
  limiter: RateLimiter,
  request: FastifyRequest,
  work: () => Promise<T>,
): Promise<T> {
  if (slotHeld.has(request)) return work();
  const userId = currentUser(request).id;
  const release = takePortraitSlot(userId);
  try {
    await limiter.hit(storyLimits.portraitUploadsPerUser, userId);
    return await work();
  } finally {
    release();
  }
}

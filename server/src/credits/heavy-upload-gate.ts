// The gate in front of the routes whose bodies may carry images (a story turn with selected images, a Studio
// batch; up to ~140 MB of JSON). Fastify reads and parses a body before the handler runs, so the handler's
// own checks come too late to spare the memory: for a body larger than an ordinary request, the gate takes
// the user's heavy-request slot and refuses a user who cannot pay before a byte of it is read.
import type { FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from "fastify";
import type { AppContext } from "../context";
import { currentUser } from "../http/auth";
import { assertCovers, takeHeavySlot } from "./paid-work";

/** Bodies up to this size are ordinary requests (the app's default body limit); larger ones carry images. */
const ORDINARY_BODY_BYTES = 1024 * 1024;

const slotHeld = new WeakSet<FastifyRequest>();

/** True when the gate took the heavy slot for this request (released when the response ends). */
export function holdsHeavySlot(request: FastifyRequest): boolean {
  return slotHeld.has(request);
}

function isLarge(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  // A chunked body has no declared length: it may be of any size.
  if (length === undefined) return request.headers["transfer-encoding"] !== undefined;
  return Number(length) > ORDINARY_BODY_BYTES;
}

/** A preParsing hook: slot and price checked before a large body is read; the slot lives until the reply ends. */
export function heavyUploadGate(
  ctx: Pick<AppContext, "db">,
  /** The least the request can cost, checked against the balance before the body is read. */
  cheapest: { kind: string; quantity: number },
): preParsingAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (!isLarge(request)) return payload;
    const userId = currentUser(request).id;
    const release = takeHeavySlot(userId);
    try {
      await assertCovers(ctx, userId, cheapest.kind, cheapest.quantity);
    } catch (error) {
      release();
      throw error;
    }
    slotHeld.add(request);
    reply.raw.once("close", release);
    return payload;
  };
}

// Seedream 4 pictures on ModelArk: POST /images/generations at 2K, references inline as data: URLs, result links
// downloaded at once (they expire after 24 hours).
import { z } from "zod";
import {
  downloadMedia,
  parseAnswer,
  requestJson,
  sanitizeVendorMessage,
  toDataUrl,
  userMessages,
  type VendorContext,
} from "../http";
import { type ImageAspectRatio, type ImageProvider, ProviderError } from "../types";
import type { BytePlusSettings } from "./settings";

/** Seedream 4.0 takes at most 10 reference images. */
export const maxSeedreamReferences = 10;

const generationsSchema = z.object({
  data: z
    .array(
      z.object({
        url: z.string().nullish(),
        error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
      }),
    )
    .min(1),
});

// Content-policy refusals will refuse again; anything else an item reports may pass on a second try.
const finalItemCodes = /sensitive|invalid|risk|policy/i;

/** Seedream 4's recommended 2K sizes for every shape a picture can take (decision 0149). */
export const seedreamSizes: Record<ImageAspectRatio, string> = {
  "1:1": "2048x2048",
  "4:3": "2304x1728",
  "3:4": "1728x2304",
  "16:9": "2560x1440",
  "9:16": "1440x2560",
  "21:9": "3024x1296",
};
/** ModelArk's `seed` is a signed 32-bit integer from -1 (random) up: our unsigned seeds are folded into it. */
const SEED_MASK = 0x7fffffff;

export function createBytePlusImageProvider(settings: BytePlusSettings): ImageProvider {
  const ctx: VendorContext = { ...settings, vendor: "byteplus" };
  return {
    name: "byteplus",
    takesSeed: true,

    async generate(request) {
      if (request.references.length > maxSeedreamReferences) {
        throw new ProviderError(
          `${userMessages.rejected}: at most ${maxSeedreamReferences} reference images are allowed.`,
          false,
          `byteplus ${request.references.length} references`,
        );
      }
      const several = request.count > 1;
      const body = {
        model: settings.model,
        prompt: request.prompt,
        ...(request.references.length > 0 ? { image: request.references.map(toDataUrl) } : {}),
        // The chosen shape at 2K (Seedream 4's recommended sizes), else Seedream's own 2K.
        size: request.aspectRatio ? seedreamSizes[request.aspectRatio] : "2K",
        // The first picture's seed: a set made in one call is seeded once (decision 0149).
        ...(request.seed !== undefined ? { seed: request.seed & SEED_MASK } : {}),
        // One call makes a consistent set: "auto" lets Seedream return up to max_images related pictures.
        sequential_image_generation: several ? "auto" : "disabled",
        ...(several ? { sequential_image_generation_options: { max_images: request.count } } : {}),
        response_format: "url",
        watermark: false,
      };
      const answer = await requestJson(ctx, {
        method: "POST",
        path: "/images/generations",
        body,
        signal: request.signal,
      });
      const items = parseAnswer(generationsSchema, answer, ctx, "images").data;
      const urls = items.flatMap((item) => (item.url && !item.error ? [item.url] : []));
      if (urls.length === 0) {
        const failure = items.find((item) => item.error)?.error;
        const reason = failure?.message ? sanitizeVendorMessage(failure.message, ctx) : "";
        throw new ProviderError(
          reason
            ? `The AI provider could not make this image: ${reason}`
            : "The AI provider could not make this image. Please try again.",
          !finalItemCodes.test(failure?.code ?? ""),
          `byteplus image item error ${failure?.code ?? "without url"}`,
        );
      }
      // Some items may have failed while others succeeded: the caller gets (and pays for) what exists.
      return Promise.all(
        urls
          .slice(0, request.count)
          .map((url) =>
            downloadMedia(ctx, url, { kind: "image", timeoutMs: ctx.timeoutMs, signal: request.signal }),
          ),
      );
    },
  };
}

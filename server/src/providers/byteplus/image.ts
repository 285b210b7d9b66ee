// Seedream 4 pictures on ModelArk: POST /images/generations at 2K, references inline as data: URLs, result links
// downloaded at once (they expire after 24 hours). Edits (decision 0162) are the same call with the picture as
// its `image`: a variation (how far it goes said in the prompt, Seedream having no strength parameter) and an
// extension (the canvas padded with a grey strip to paint, the original's pixels put back over the answer).
// Seedream takes no mask, so it declares no inpaint; nor an upscale, which it would repaint rather than enlarge.
import sharp from "sharp";
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
import { promptWithRoles } from "../reference-roles";
import {
  atSize,
  outpaintPrompt,
  seedreamInput,
  seedreamOutpaint,
  seedreamSizeFor,
  varyPrompt,
} from "../seedream-edit";
import { type ImageAspectRatio, type ImageProvider, type MediaFile, ProviderError } from "../types";
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
        // Each style or character reference is named in the prompt by its place (decision 0161).
        prompt: promptWithRoles(request.prompt, request.references),
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
      return paint(body, request.count, request.signal);
    },

    editKinds: ["outpaint", "vary"],

    async edit(request) {
      if (request.kind !== "vary" && request.kind !== "outpaint") {
        throw new ProviderError(
          `${userMessages.rejected}: Seedream cannot make this edit.`,
          false,
          `byteplus edit ${request.kind}`,
        );
      }
      const common = {
        model: settings.model,
        seed: request.seed & SEED_MASK,
        sequential_image_generation: "disabled",
        response_format: "url",
        watermark: false,
      };
      if (request.kind === "vary") {
        const { width = 0, height = 0 } = await sharp(request.image.data).metadata();
        const [painted] = await paint(
          {
            ...common,
            prompt: varyPrompt(request.prompt, request.strength),
            image: [toDataUrl(await seedreamInput(request.image.data))],
            size: seedreamSizeFor(width, height),
          },
          1,
          request.signal,
        );
        return { data: await atSize(painted!.data, width, height), mimeType: "image/png" };
      }
      const job = await seedreamOutpaint(request);
      const [painted] = await paint(
        {
          ...common,
          prompt: outpaintPrompt(request.prompt, request.direction),
          image: [toDataUrl(await seedreamInput(job.canvas))],
          size: seedreamSizeFor(job.width, job.height),
        },
        1,
        request.signal,
      );
      return { data: await job.finish(painted!.data), mimeType: "image/png" };
    },
  };

  /** One generations call: the pictures it made (at most `count`), downloaded at once. */
  async function paint(body: object, count: number, signal: AbortSignal | undefined): Promise<MediaFile[]> {
    const answer = await requestJson(ctx, {
      method: "POST",
      path: "/images/generations",
      body,
      signal,
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
        .slice(0, count)
        .map((url) => downloadMedia(ctx, url, { kind: "image", timeoutMs: ctx.timeoutMs, signal })),
    );
  }
}

// seedream-4 pictures on Replicate: one prediction at 2K (references inline as data URIs), waited for with
// `Prefer: wait` and then polled, its output links downloaded at once. Edits (decision 0162) run other Replicate
// models, each configurable: an inpaint and an extension go to an inpainting model (FLUX.1 Fill [pro] by default:
// `image`, a black-and-white `mask`, white where it paints, `prompt`, `seed`) with the region prepared as for the
// own-GPU painters (gpu/canvas.ts, so only the brushed or new pixels change); an upscale to an upscaler
// (Real-ESRGAN by default: `image`, `scale: 2`); a variation to seedream-4 itself, the picture as `image_input`.
// Edit inputs over 1 MB go up through Replicate's files API first (data URIs are recommended below 1 MB only).
import sharp from "sharp";
import { exactlyDouble, inpaintJob, outpaintJob, type PaintJob } from "../gpu/canvas";
import { downloadMedia, toDataUrl, userMessages } from "../http";
import { promptWithRoles } from "../reference-roles";
import { atSize, seedreamInput, varyPrompt } from "../seedream-edit";
import { type ImageEditRequest, type ImageProvider, type MediaFile, ProviderError } from "../types";
import {
  createPrediction,
  failureMessage,
  inputFile,
  outputUrls,
  type ReplicateSettings,
  replicateContext,
  waitForPrediction,
} from "./predictions";

/** An official model (its latest version): inputs `image`, `mask` (white: paint), `prompt`, `seed`; one link out. */
export const defaultReplicateInpaintModel = "black-forest-labs/flux-fill-pro";
/** Real-ESRGAN, pinned (a community model runs by version): inputs `image`, `scale`; one link out. */
export const defaultReplicateUpscaleModel =
  "nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa";

export type ReplicateImageSettings = ReplicateSettings & {
  /** The inpainting model (REPLICATE_INPAINT_MODEL), "owner/name" or "owner/name:version". */
  inpaintModel?: string;
  /** The upscaler (REPLICATE_UPSCALE_MODEL), "owner/name" or "owner/name:version". */
  upscaleModel?: string;
};

const maxReferences = 10;
/** Model inputs' seeds are signed 32-bit integers: our unsigned seeds are folded into them. */
const SEED_MASK = 0x7fffffff;
// Content-policy refusals will refuse again; other failures may pass on a second try.
const finalFailure = /sensitive|nsfw|safety|policy|E005/i;

export function createReplicateImageProvider(settings: ReplicateImageSettings): ImageProvider {
  const ctx = replicateContext(settings);
  const inpaintModel = settings.inpaintModel ?? defaultReplicateInpaintModel;
  const upscaleModel = settings.upscaleModel ?? defaultReplicateUpscaleModel;

  /** Runs one prediction to its end and downloads its first `count` output pictures. */
  async function run(
    model: string,
    input: Record<string, unknown>,
    count: number,
    signal: AbortSignal | undefined,
  ): Promise<MediaFile[]> {
    const startedAt = Date.now();
    const created = await createPrediction(ctx, model, input, { wait: true, signal });
    const prediction = await waitForPrediction(ctx, created, {
      startedAt,
      pollIntervalMs: settings.pollIntervalMs ?? 1000,
      signal,
    });
    if (prediction.status !== "succeeded") {
      const text = typeof prediction.error === "string" ? prediction.error : "";
      throw new ProviderError(
        failureMessage(ctx, prediction, "image"),
        !finalFailure.test(text),
        `replicate prediction ${prediction.status}`,
      );
    }
    return Promise.all(
      outputUrls(ctx, prediction)
        .slice(0, count)
        .map((url) => downloadMedia(ctx, url, { kind: "image", timeoutMs: ctx.timeoutMs, signal })),
    );
  }

  /** An inpaint or an extension: the prepared region and its mask through the inpainting model. */
  async function fill(request: ImageEditRequest, job: PaintJob): Promise<MediaFile> {
    const [painted] = await run(
      inpaintModel,
      {
        image: await inputFile(ctx, { data: job.image, mimeType: "image/png" }, request.signal),
        mask: await inputFile(ctx, { data: job.mask!, mimeType: "image/png" }, request.signal),
        prompt: request.prompt,
        seed: request.seed & SEED_MASK,
      },
      1,
      request.signal,
    );
    return { data: await job.finish(painted!.data), mimeType: "image/png" };
  }

  return {
    name: "replicate",

    async generate(request) {
      if (request.references.length > maxReferences) {
        throw new ProviderError(
          `${userMessages.rejected}: at most ${maxReferences} reference images are allowed.`,
          false,
          `replicate ${request.references.length} references`,
        );
      }
      const withReferences = request.references.length > 0;
      const input = {
        // Each style or character reference is named in the prompt by its place (decision 0161).
        prompt: promptWithRoles(request.prompt, request.references),
        ...(withReferences ? { image_input: request.references.map(toDataUrl) } : {}),
        size: "2K",
        // The chosen shape (seedream-4 takes all six by name, decision 0149); else 4:3, the app's scene shape,
        // and with references the shape they have. Its input has no seed: the provider does not take one.
        aspect_ratio: request.aspectRatio ?? (withReferences ? "match_input_image" : "4:3"),
        ...(request.count > 1 ? { sequential_image_generation: "auto", max_images: request.count } : {}),
      };
      return run(settings.model, input, request.count, request.signal);
    },

    editKinds: ["inpaint", "outpaint", "vary", "upscale"],

    async edit(request) {
      switch (request.kind) {
        case "inpaint":
          return fill(request, await inpaintJob(request));
        case "outpaint":
          return fill(request, await outpaintJob(request));
        case "vary": {
          const { width = 0, height = 0 } = await sharp(request.image.data).metadata();
          const [painted] = await run(
            settings.model,
            {
              prompt: varyPrompt(request.prompt, request.strength),
              image_input: [await inputFile(ctx, await seedreamInput(request.image.data), request.signal)],
              size: "2K",
              aspect_ratio: "match_input_image",
            },
            1,
            request.signal,
          );
          return { data: await atSize(painted!.data, width, height), mimeType: "image/png" };
        }
        case "upscale": {
          const [upscaled] = await run(
            upscaleModel,
            {
              image: await inputFile(ctx, await seedreamInput(request.image.data), request.signal),
              scale: 2,
            },
            1,
            request.signal,
          );
          return { data: await exactlyDouble(request.image.data, upscaled!.data), mimeType: "image/png" };
        }
      }
    },
  };
}

// Pictures from the operator's own GPU through AUTOMATIC1111's HTTP API (decision 0156), which Forge, SD.Next
// and KoboldCpp also speak: POST /sdapi/v1/txt2img for new pictures (a batch of `count` from one seed, which
// A1111 makes with seed, seed + 1, ...), /sdapi/v1/img2img for a first reference, a variation, an inpaint and
// an outpaint (the region prepared by gpu/canvas.ts, with a black-and-white mask), and
// /sdapi/v1/extra-single-image to upscale x2. Every answer carries its pictures inline as base64.
// References (decision 0161): the first content reference is the starting picture; when the server has the
// ControlNet extension (GET /sdapi/v1/scripts lists "controlnet"), every other reference goes as a ControlNet
// unit through `alwayson_scripts`, with the reference preprocessor of its role, which needs no model file.
import { z } from "zod";
import {
  defaultGpuSize,
  exactlyDouble,
  gpuSizes,
  INPAINT_STRENGTH,
  inpaintJob,
  NEGATIVE_PROMPT,
  OUTPAINT_STRENGTH,
  outpaintJob,
  type PaintJob,
  REFERENCE_STRENGTH,
  referenceAt,
  type Size,
  VARY_STRENGTH,
  varyJob,
} from "../gpu/canvas";
import { inlineImage, malformedError, parseAnswer, requestJson, type VendorContext } from "../http";
import type {
  ImageEditRequest,
  ImageProvider,
  ImageRequest,
  MediaFile,
  ReferenceImage,
  ReferenceRole,
} from "../types";

export type A1111Settings = Omit<VendorContext, "vendor" | "authorization"> & {
  /** A checkpoint to switch the server to (IMAGE_MODEL); absent: whatever it has loaded. */
  model: string | undefined;
  /** The upscaler an upscale asks for by name (IMAGE_UPSCALER). */
  upscaler: string;
};

/** An upscaler every A1111 and Forge install lists (its weights are fetched on first use). */
export const defaultA1111Upscaler = "R-ESRGAN 4x+";

/** What every picture is painted with: a sampler every A1111-speaking server knows, and middling steps. */
const SAMPLING = { sampler_name: "Euler a", steps: 25, cfg_scale: 6 } as const;

/**
 * The Authorization header: `--api-auth user:password` is HTTP Basic, so a key with a colon is sent that way;
 * any other key (a reverse proxy's token) as a bearer token.
 */
export function a1111Authorization(apiKey: string | undefined): string | undefined {
  if (!apiKey) return undefined;
  return apiKey.includes(":") ? `Basic ${Buffer.from(apiKey).toString("base64")}` : `Bearer ${apiKey}`;
}

const picturesSchema = z.object({
  images: z.array(z.string()).min(1),
  info: z.string().nullish(),
});

const upscaledSchema = z.object({ image: z.string().min(1) });

/** GET /sdapi/v1/scripts: the names of the scripts (selectable and always-on) each tab has. */
const scriptsSchema = z.object({
  txt2img: z.array(z.string()).nullish(),
  img2img: z.array(z.string()).nullish(),
});

/** ControlNet's default "Multi ControlNet: max models amount": more units than this are not run. */
export const MAX_CONTROLNET_UNITS = 3;

/**
 * ControlNet's reference preprocessors, which steer by the picture itself with no model file: the whole
 * picture for content, its colours and light (AdaIN) for style, both for a character (decision 0161).
 */
export const CONTROLNET_REFERENCE_MODULES: Record<ReferenceRole, string> = {
  content: "reference_only",
  style: "reference_adain",
  character: "reference_adain+attn",
};

/**
 * Which reference starts the picture (img2img) and which go as ControlNet units: the first content reference
 * starts it; without ControlNet, the first reference of any role does, as before roles, and the rest stay out.
 */
export function planReferences(
  references: readonly ReferenceImage[],
  controlNet: boolean,
): { init: ReferenceImage | undefined; units: ReferenceImage[] } {
  const content = references.find((reference) => (reference.role ?? "content") === "content");
  if (!controlNet) return { init: content ?? references[0], units: [] };
  return {
    init: content,
    units: references.filter((reference) => reference !== content).slice(0, MAX_CONTROLNET_UNITS),
  };
}

/** Where the batch's own pictures start in `images`: A1111 puts a grid first when it made one. */
function firstPictureIndex(info: string | null | undefined): number {
  if (!info) return 0;
  try {
    const parsed = JSON.parse(info) as { index_of_first_image?: unknown };
    return typeof parsed.index_of_first_image === "number" ? parsed.index_of_first_image : 0;
  } catch {
    return 0;
  }
}

const fromBase64 = (value: string) => Buffer.from(value.replace(/^data:[^,]*,/, ""), "base64");

export function createA1111ImageProvider(settings: A1111Settings): ImageProvider {
  const ctx: VendorContext = {
    ...settings,
    vendor: "a1111",
    authorization: a1111Authorization(settings.apiKey),
  };
  // The checkpoint stays loaded after the call, so pictures in a row do not each load it again.
  const checkpoint = settings.model
    ? {
        override_settings: { sd_model_checkpoint: settings.model },
        override_settings_restore_afterwards: false,
      }
    : {};

  /** The common body of every painting call. */
  function paintBody(prompt: string, seed: number | undefined, size: Size, count: number) {
    return {
      prompt,
      negative_prompt: NEGATIVE_PROMPT,
      // -1 asks A1111 to pick one.
      seed: seed ?? -1,
      width: size.width,
      height: size.height,
      ...SAMPLING,
      batch_size: count,
      n_iter: 1,
      send_images: true,
      save_images: false,
      do_not_save_samples: true,
      do_not_save_grid: true,
      ...checkpoint,
    };
  }

  async function paint(
    path: "/sdapi/v1/txt2img" | "/sdapi/v1/img2img",
    body: object,
    count: number,
    signal: AbortSignal | undefined,
  ): Promise<MediaFile[]> {
    const answer = parseAnswer(
      picturesSchema,
      await requestJson(ctx, { method: "POST", path, body, signal }),
      ctx,
      "pictures",
    );
    const first = firstPictureIndex(answer.info);
    const pictures = answer.images.slice(first, first + count);
    if (pictures.length === 0) throw malformedError(ctx, `no picture after index ${first}`);
    return pictures.map((picture) => inlineImage(fromBase64(picture), ctx));
  }

  // Whether the server has ControlNet, asked once; a failed question is asked again next time.
  let controlNet: Promise<boolean> | undefined;
  function hasControlNet(signal: AbortSignal | undefined): Promise<boolean> {
    controlNet ??= requestJson(ctx, { method: "GET", path: "/sdapi/v1/scripts", signal }).then(
      (answer) => {
        const scripts = scriptsSchema.safeParse(answer);
        return (
          scripts.success && (scripts.data.txt2img ?? []).some((name) => name.toLowerCase() === "controlnet")
        );
      },
      () => {
        controlNet = undefined;
        return false;
      },
    );
    return controlNet;
  }

  async function editRegion(request: ImageEditRequest, job: PaintJob, strength: number): Promise<MediaFile> {
    const body = {
      ...paintBody(request.prompt, request.seed, job.size, 1),
      init_images: [job.image.toString("base64")],
      ...(job.mask
        ? {
            mask: job.mask.toString("base64"),
            // Paint over what is there (a mirrored edge, for an outpaint) rather than noise or a flat fill.
            inpainting_fill: 1,
            // The region is already cut out around the mask: paint all of it.
            inpaint_full_res: false,
            inpainting_mask_invert: 0,
            mask_blur: 4,
          }
        : {}),
      denoising_strength: strength,
      resize_mode: 0,
    };
    const [painted] = await paint("/sdapi/v1/img2img", body, 1, request.signal);
    return { data: await job.finish(painted!.data), mimeType: "image/png" };
  }

  return {
    name: "a1111",
    takesSeed: true,
    editKinds: ["inpaint", "outpaint", "vary", "upscale"],

    async generate(request: ImageRequest) {
      const size = request.aspectRatio ? gpuSizes[request.aspectRatio] : defaultGpuSize;
      const body = paintBody(request.prompt, request.seed, size, request.count);
      const { init, units } = planReferences(
        request.references,
        request.references.length > 1 && (await hasControlNet(request.signal)),
      );
      const controlnet = units.length
        ? {
            alwayson_scripts: {
              controlnet: {
                args: await Promise.all(
                  units.map(async (unit) => ({
                    enabled: true,
                    image: (await referenceAt(unit.data, size)).toString("base64"),
                    module: CONTROLNET_REFERENCE_MODULES[unit.role ?? "content"],
                    model: "None",
                    weight: 1,
                    resize_mode: "Crop and Resize",
                    control_mode: "Balanced",
                    pixel_perfect: true,
                  })),
                ),
              },
            },
          }
        : {};
      if (!init) return paint("/sdapi/v1/txt2img", { ...body, ...controlnet }, request.count, request.signal);
      const start = await referenceAt(init.data, size);
      return paint(
        "/sdapi/v1/img2img",
        {
          ...body,
          ...controlnet,
          init_images: [start.toString("base64")],
          denoising_strength: REFERENCE_STRENGTH,
          resize_mode: 0,
        },
        request.count,
        request.signal,
      );
    },

    async edit(request) {
      switch (request.kind) {
        case "inpaint":
          return editRegion(request, await inpaintJob(request), INPAINT_STRENGTH);
        case "outpaint":
          return editRegion(request, await outpaintJob(request), OUTPAINT_STRENGTH);
        case "vary":
          return editRegion(request, await varyJob(request), VARY_STRENGTH[request.strength ?? "subtle"]);
        case "upscale": {
          const answer = await requestJson(ctx, {
            method: "POST",
            path: "/sdapi/v1/extra-single-image",
            body: {
              image: request.image.data.toString("base64"),
              resize_mode: 0,
              upscaling_resize: 2,
              upscaler_1: settings.upscaler,
              show_extras_results: true,
            },
            signal: request.signal,
          });
          const upscaled = inlineImage(
            fromBase64(parseAnswer(upscaledSchema, answer, ctx, "upscaled picture").image),
            ctx,
          );
          return { data: await exactlyDouble(request.image.data, upscaled.data), mimeType: "image/png" };
        }
      }
    },
  };
}

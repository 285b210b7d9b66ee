// Pictures from the operator's own ComfyUI (decision 0156): each picture is one queued workflow (txt2img, or
// img2img from the first reference) with seed, seed + 1, ... so any picture of a batch repeats alone from its
// own seed; edits run the inpaint workflow (inpaint and outpaint, on the region gpu/canvas.ts prepares), the
// img2img one (vary) and the upscale one. Pictures going in are uploaded first; results are read from the
// prompt's history and fetched through /view. One request, all its prompts included, has PROVIDER_TIMEOUT_SECONDS.
// Every reference goes in (decision 0161): the first content reference is the starting picture and each other
// is loaded into the workflow beside it (LoadImage) and mixed into it with core ImageBlend nodes, by its role:
// a style reference's colour and light (soft light), a character or content reference laid over it.
import { randomInt } from "node:crypto";
import sharp from "sharp";
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
  VARY_STRENGTH,
  varyJob,
} from "../gpu/canvas";
import type { ImageEditRequest, ImageProvider, ImageRequest, MediaFile, ReferenceRole } from "../types";
import {
  type ComfyContext,
  type ComfySettings,
  comfyContext,
  dropFromQueue,
  fetchFile,
  queuePrompt,
  uploadImage,
  waitForFiles,
} from "./client";
import {
  type ComfyWorkflow,
  type ComfyWorkflows,
  fillWorkflow,
  type PlaceholderValues,
  placeholdersOf,
} from "./workflows";

export type ComfyImageSettings = ComfySettings & {
  /** The checkpoint file the shipped workflows load ({{checkpoint}}: IMAGE_MODEL). */
  model: string;
  /** The upscale model file ({{upscale_model}}: IMAGE_UPSCALER). */
  upscaler: string;
  workflows: ComfyWorkflows;
};

/** The file names ComfyUI's own model downloads use. */
export const defaultComfyCheckpoint = "sd_xl_base_1.0.safetensors";
export const defaultComfyUpscaler = "RealESRGAN_x4plus.pth";

type Call = { deadlineAt: number; signal?: AbortSignal | undefined };

/** How each role's picture is mixed into the starting picture (ComfyUI's ImageBlend). */
export const REFERENCE_BLENDS: Record<ReferenceRole, { blend_mode: string; blend_factor: number }> = {
  content: { blend_mode: "normal", blend_factor: 0.3 },
  style: { blend_mode: "soft_light", blend_factor: 0.6 },
  character: { blend_mode: "normal", blend_factor: 0.4 },
};

/**
 * The workflow with the other references mixed into its starting picture: a LoadImage and an ImageBlend per
 * reference, chained after the LoadImage that loads `image`, and whatever read that picture reads the mix. A
 * workflow of the operator's that loads no `image` is left as it is (its other references are not sent).
 */
export function blendReferences(
  workflow: ComfyWorkflow,
  image: string,
  others: { name: string; role: ReferenceRole }[],
): ComfyWorkflow {
  const start = Object.entries(workflow).find(
    ([, node]) => node.class_type === "LoadImage" && node.inputs.image === image,
  )?.[0];
  if (!start || others.length === 0) return workflow;
  const graph: ComfyWorkflow = structuredClone(workflow);
  let last = start;
  for (const [index, other] of others.entries()) {
    const load = `storyverse_reference_${index + 1}`;
    const blend = `storyverse_blend_${index + 1}`;
    graph[load] = { class_type: "LoadImage", inputs: { image: other.name } };
    graph[blend] = {
      class_type: "ImageBlend",
      inputs: { image1: [last, 0], image2: [load, 0], ...REFERENCE_BLENDS[other.role] },
    };
    last = blend;
  }
  for (const [id, node] of Object.entries(graph)) {
    if (id.startsWith("storyverse_blend_")) continue;
    for (const [name, value] of Object.entries(node.inputs)) {
      if (Array.isArray(value) && value[0] === start && value[1] === 0) node.inputs[name] = [last, 0];
    }
  }
  return graph;
}

export function createComfyUIImageProvider(settings: ComfyImageSettings): ImageProvider {
  const ctx: ComfyContext = comfyContext(settings);
  const { workflows } = settings;

  /** Queues one workflow, waits for it, and fetches its first picture. */
  async function run(workflow: ComfyWorkflow, values: PlaceholderValues, call: Call): Promise<MediaFile> {
    const promptId = await queuePrompt(ctx, fillWorkflow(workflow, values), call);
    const [file] = await waitForFiles(ctx, promptId, "image", call);
    return fetchFile(ctx, file!, "image", call);
  }

  const common = (prompt: string, seed: number) => ({
    prompt,
    negative_prompt: NEGATIVE_PROMPT,
    seed,
    checkpoint: settings.model,
  });

  async function editRegion(request: ImageEditRequest, job: PaintJob, strength: number): Promise<MediaFile> {
    const call = { deadlineAt: Date.now() + ctx.timeoutMs, signal: request.signal };
    const image = await uploadImage(ctx, job.image, call);
    const mask = job.mask ? await uploadImage(ctx, job.mask, call) : undefined;
    const painted = await run(
      mask ? workflows.inpaint : workflows.img2img,
      {
        ...common(request.prompt, request.seed),
        ...job.size,
        image,
        ...(mask ? { mask } : {}),
        denoise: strength,
      },
      call,
    );
    return { data: await job.finish(painted.data), mimeType: "image/png" };
  }

  return {
    name: "comfyui",
    // An operator's text-to-image workflow without {{seed}} cannot repeat a picture from its seed.
    takesSeed: placeholdersOf(workflows.txt2img).has("seed"),
    editKinds: ["inpaint", "outpaint", "vary", "upscale"],

    async generate(request: ImageRequest) {
      const call = { deadlineAt: Date.now() + ctx.timeoutMs, signal: request.signal };
      const size = request.aspectRatio ? gpuSizes[request.aspectRatio] : defaultGpuSize;
      const first = request.seed ?? randomInt(0, 2 ** 32);
      // The first content reference starts the picture (else the first of any role); the rest are mixed in.
      const content = request.references.find((reference) => (reference.role ?? "content") === "content");
      const reference = content ?? request.references[0];
      const image = reference
        ? await uploadImage(ctx, await referenceAt(reference.data, size), call)
        : undefined;
      const others: { name: string; role: ReferenceRole }[] = [];
      for (const other of request.references) {
        if (other === reference) continue;
        const name = await uploadImage(ctx, await referenceAt(other.data, size), call);
        others.push({ name, role: other.role ?? "content" });
      }
      const workflow = image ? workflows.img2img : workflows.txt2img;
      // Every picture is queued at once, so the GPU goes from one to the next without waiting for us.
      const queued: string[] = [];
      try {
        for (let index = 0; index < request.count; index++) {
          const values = {
            ...common(request.prompt, (first + index) >>> 0),
            ...size,
            ...(image ? { image, denoise: REFERENCE_STRENGTH } : {}),
          };
          const filled = fillWorkflow(workflow, values);
          queued.push(await queuePrompt(ctx, image ? blendReferences(filled, image, others) : filled, call));
        }
      } catch (error) {
        await Promise.all(queued.map((promptId) => dropFromQueue(ctx, promptId)));
        throw error;
      }
      const made: MediaFile[] = [];
      for (const [index, promptId] of queued.entries()) {
        try {
          const [file] = await waitForFiles(ctx, promptId, "image", call);
          made.push(await fetchFile(ctx, file!, "image", call));
        } catch (error) {
          await Promise.all(queued.slice(index + 1).map((rest) => dropFromQueue(ctx, rest)));
          // The pictures already made are delivered (and paid for); the rest are refunded by the caller.
          if (made.length > 0 && !request.signal?.aborted) return made;
          throw error;
        }
      }
      return made;
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
          const call = { deadlineAt: Date.now() + ctx.timeoutMs, signal: request.signal };
          const meta = await sharp(request.image.data).metadata();
          const image = await uploadImage(ctx, request.image.data, call);
          const upscaled = await run(
            workflows.upscale,
            {
              image,
              upscale_model: settings.upscaler,
              width: (meta.width ?? 0) * 2,
              height: (meta.height ?? 0) * 2,
              seed: request.seed,
              prompt: request.prompt,
            },
            call,
          );
          return { data: await exactlyDouble(request.image.data, upscaled.data), mimeType: "image/png" };
        }
      }
    },
  };
}

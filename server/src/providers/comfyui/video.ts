// Image-to-video on the operator's own ComfyUI (decision 0156): the first frame is uploaded, the img2video
// workflow (shipped: Wan 2.1 image-to-video at 480p, 81 frames at 16 fps, a five-second MP4) is queued, and its
// prompt id is the task id; polling reads the prompt's history and fetches the clip once it is there.
import { randomInt } from "node:crypto";
import sharp from "sharp";
import { withCameraWords } from "../camera";
import { NEGATIVE_PROMPT } from "../gpu/canvas";
import type { MediaFile, VideoProvider, VideoTaskState } from "../types";
import {
  type ComfyFile,
  type ComfySettings,
  comfyContext,
  fetchFile,
  queuePrompt,
  readOutcome,
  uploadImage,
} from "./client";
import { type ComfyWorkflows, fillWorkflow } from "./workflows";

export type ComfyVideoSettings = ComfySettings & {
  /** The video model file the shipped workflow loads ({{checkpoint}}: VIDEO_MODEL). */
  model: string;
  workflows: Pick<ComfyWorkflows, "img2video">;
};

/** The name of Comfy-Org's repackaged Wan 2.1 image-to-video (480p, 14B, fp8) weights. */
export const defaultComfyVideoModel = "wan2.1_i2v_480p_14B_fp8_e4m3fn.safetensors";

const FPS = 16;
/** About as many pixels as 832x480, Wan's 480p. */
const CLIP_AREA = 832 * 480;
const multipleOf16 = (value: number) => Math.max(16, Math.round(value / 16) * 16);

/** The clip's size: the first frame's proportions at 480p, in multiples of 16 (Wan's latent grid). */
export async function clipSize(image: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(image).metadata();
  const ratio = (meta.width ?? 4) / (meta.height ?? 3);
  return {
    width: multipleOf16(Math.sqrt(CLIP_AREA * ratio)),
    height: multipleOf16(Math.sqrt(CLIP_AREA / ratio)),
  };
}

/** A clip's file among the outputs: by its name first (a workflow may also save a still), else the first. */
function clipOf(files: ComfyFile[]): ComfyFile {
  return files.find((file) => /\.(mp4|webm|mov|mkv)$/i.test(file.filename)) ?? files[0]!;
}

export function createComfyUIVideoProvider(settings: ComfyVideoSettings): VideoProvider {
  const ctx = comfyContext(settings);
  return {
    name: "comfyui",
    // The shipped Wan 2.1 image-to-video workflow takes one start image: no last frame. A camera move is
    // said in the prompt, which Wan follows.
    clipFeatures: { lastFrame: false, camera: true },

    async start(request) {
      const call = { deadlineAt: Date.now() + ctx.timeoutMs, signal: request.signal };
      const image = await uploadImage(ctx, request.image.data, call);
      const workflow = fillWorkflow(settings.workflows.img2video, {
        prompt: withCameraWords(request.prompt, request.camera),
        negative_prompt: NEGATIVE_PROMPT,
        seed: randomInt(0, 2 ** 32),
        checkpoint: settings.model,
        image,
        ...(await clipSize(request.image.data)),
        // Wan makes 4n + 1 frames: 81 at 16 fps is five seconds.
        frames: request.durationSeconds * FPS + 1,
        fps: FPS,
      });
      // No waiting here: a clip takes minutes, the caller polls.
      return { taskId: await queuePrompt(ctx, workflow, call) };
    },

    async poll(taskId, signal): Promise<VideoTaskState> {
      const call = { deadlineAt: Date.now() + ctx.timeoutMs, signal };
      const outcome = await readOutcome(ctx, taskId, "video", call);
      if (!outcome) return { status: "pending" };
      if (outcome.status === "failed") return { status: "failed", error: outcome.error.message };
      const video: MediaFile = await fetchFile(ctx, clipOf(outcome.files), "video", call);
      return { status: "succeeded", video };
    },
  };
}

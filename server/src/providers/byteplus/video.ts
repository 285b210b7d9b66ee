// Seedance image-to-video on ModelArk: a task is created with the first frame inline (and, for a clip that ends
// on a chosen picture, the last frame: content items with role first_frame and last_frame), then polled until
// the vendor reports it done; the finished clip is downloaded at once (its link expires after 24 hours). A
// camera move is said in the prompt, and a still camera is also Seedance's own `--camerafixed true` flag.
import { z } from "zod";
import { withCameraWords } from "../camera";
import {
  downloadMedia,
  malformedError,
  parseAnswer,
  requestJson,
  sanitizeVendorMessage,
  toDataUrl,
  type VendorContext,
} from "../http";
import type { CameraMove, VideoProvider, VideoTaskState } from "../types";
import type { BytePlusSettings } from "./settings";

const createdSchema = z.object({ id: z.string().min(1) });

const taskSchema = z.object({
  id: z.string(),
  status: z.string(),
  content: z.object({ video_url: z.string().nullish() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/**
 * Seedance reads generation settings from `--flag value` pairs in the prompt text. A user's prompt must not be
 * able to set them (a longer clip costs more), so anything that looks like a flag is defused first.
 */
export function seedancePrompt(prompt: string, durationSeconds: number, camera?: CameraMove): string {
  const text = withCameraWords(prompt.replace(/(^|\s)-{2,}(?=\S)/g, "$1").trim(), camera);
  const fixed = camera ? ` --camerafixed ${camera === "still"}` : "";
  return `${text} --duration ${durationSeconds} --resolution 720p --ratio adaptive --watermark false${fixed}`;
}

function taskPath(taskId: string): string {
  return `/contents/generations/tasks/${encodeURIComponent(taskId)}`;
}

export function createBytePlusVideoProvider(settings: BytePlusSettings): VideoProvider {
  const ctx: VendorContext = { ...settings, vendor: "byteplus" };
  return {
    name: "byteplus",
    clipFeatures: { lastFrame: true, camera: true },

    async start(request) {
      const answer = await requestJson(ctx, {
        method: "POST",
        path: "/contents/generations/tasks",
        body: {
          model: settings.model,
          content: [
            { type: "text", text: seedancePrompt(request.prompt, request.durationSeconds, request.camera) },
            { type: "image_url", image_url: { url: toDataUrl(request.image) }, role: "first_frame" },
            ...(request.lastFrame
              ? [{ type: "image_url", image_url: { url: toDataUrl(request.lastFrame) }, role: "last_frame" }]
              : []),
          ],
        },
        signal: request.signal,
      });
      return { taskId: parseAnswer(createdSchema, answer, ctx, "video task").id };
    },

    async poll(taskId, signal): Promise<VideoTaskState> {
      const answer = await requestJson(ctx, { method: "GET", path: taskPath(taskId), signal });
      const task = parseAnswer(taskSchema, answer, ctx, "video task");
      switch (task.status) {
        case "queued":
        case "running":
          return { status: "pending" };
        case "succeeded": {
          const url = task.content?.video_url;
          if (!url) throw malformedError(ctx, "succeeded task without content.video_url");
          const video = await downloadMedia(ctx, url, { kind: "video", timeoutMs: ctx.timeoutMs, signal });
          return { status: "succeeded", video };
        }
        case "failed": {
          const reason = task.error?.message ? sanitizeVendorMessage(task.error.message, ctx) : "";
          return {
            status: "failed",
            error: reason
              ? `The AI provider could not make this video: ${reason}`
              : "The AI provider could not make this video. Please try again.",
          };
        }
        case "cancelled":
          return { status: "failed", error: "The AI provider cancelled this video. Please try again." };
        case "expired":
          return {
            status: "failed",
            error: "The AI provider did not finish this video in time. Please try again.",
          };
        default:
          throw malformedError(ctx, `unknown task status ${task.status.slice(0, 40)}`);
      }
    },
  };
}

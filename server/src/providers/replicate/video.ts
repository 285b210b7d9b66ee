// Image-to-video on Replicate (bytedance/seedance-1-pro by default): a prediction is the task, its id the task
// id; polling reads it back and downloads the clip once it is done.

import { withCameraWords } from "../camera";
import { downloadMedia, toDataUrl } from "../http";
import type { VideoProvider, VideoTaskState } from "../types";
import {
  createPrediction,
  failureMessage,
  getPrediction,
  outputUrls,
  type ReplicateSettings,
  replicateContext,
} from "./predictions";

export function createReplicateVideoProvider(settings: ReplicateSettings): VideoProvider {
  const ctx = replicateContext(settings);
  return {
    name: "replicate",
    // VIDEO_MODEL may be any image-to-video model, and their last-frame inputs differ (or are missing): no
    // last frame. Every one reads its prompt, so a camera move is said there.
    clipFeatures: { lastFrame: false, camera: true },

    async start(request) {
      // Seedance's input names; other image-to-video models on Replicate mostly share prompt, image, duration.
      const input = {
        prompt: withCameraWords(request.prompt, request.camera),
        image: toDataUrl(request.image),
        duration: request.durationSeconds,
        resolution: "720p",
      };
      // No `Prefer: wait`: a clip takes minutes, the caller polls.
      const prediction = await createPrediction(ctx, settings.model, input, {
        wait: false,
        signal: request.signal,
      });
      return { taskId: prediction.id };
    },

    async poll(taskId, signal): Promise<VideoTaskState> {
      const prediction = await getPrediction(ctx, taskId, signal);
      switch (prediction.status) {
        case "starting":
        case "processing":
          return { status: "pending" };
        case "succeeded": {
          const [url] = outputUrls(ctx, prediction);
          const video = await downloadMedia(ctx, url!, { kind: "video", timeoutMs: ctx.timeoutMs, signal });
          return { status: "succeeded", video };
        }
        default:
          return { status: "failed", error: failureMessage(ctx, prediction, "video") };
      }
    },
  };
}

// The media job: after the narrator has answered, draw the scene (image mode) or draw it and animate it
// for 5 seconds (video mode). Runs in the worker with retries; a try that finally fails marks the message
// failed and refunds everything above the text's price.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { z } from "zod";
import type { AppContext } from "../context";
import { refund, toTenths } from "../credits/service";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { prepareReference } from "../media/images";
import { type MediaOrigin, saveImage, saveVideo } from "../media/service";
import { type MediaFile, ProviderError } from "../providers/types";
import { failIfPending, findMessageById, type MessageRow, updateMessageMedia } from "./repo";

export const generateMediaJob: JobSpec<{ messageId: string; storyTitle: string | null }> = {
  name: "chat-generate-media",
  payload: z.object({ messageId: z.uuid(), storyTitle: z.string().nullable() }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  // Long enough for a slow vendor video; the handler gives up on its own before this.
  expireInSeconds: 30 * 60,
};

export const MEDIA_FAILED_MESSAGE = "Media generation failed. Please try again.";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type MediaJobContext = Pick<AppContext, "db" | "clock" | "providers" | "storage" | "config" | "log">;

async function loadReferences(ctx: MediaJobContext, keys: string[]): Promise<MediaFile[]> {
  return Promise.all(keys.map(async (key) => prepareReference(await ctx.storage.read(key))));
}

async function animate(ctx: MediaJobContext, prompt: string, image: MediaFile): Promise<MediaFile> {
  const deadline = Date.now() + ctx.config.providers.timeoutMs * 5;
  const { taskId } = await ctx.providers.video.start({ prompt, image, durationSeconds: 5 });
  let wait = 500;
  while (Date.now() < deadline) {
    await sleep(wait);
    wait = Math.min(wait * 2, 3000);
    const state = await ctx.providers.video.poll(taskId);
    if (state.status === "succeeded") return state.video;
    if (state.status === "failed") throw new ProviderError(state.error, false);
  }
  throw new ProviderError("The video took too long to make. Please try again.", true);
}

async function produce(ctx: MediaJobContext, message: MessageRow, storyTitle: string | null): Promise<void> {
  const origin: MediaOrigin = {
    userId: message.userId,
    source: message.storyId ? "story" : "main_chat",
    storyId: message.storyId,
    storyTitle,
    messageId: message.id,
    description: message.sceneDescription ?? message.content.slice(0, 500),
  };
  const prompt = message.sceneDescription ?? message.content;

  // A retried job resumes: a scene image made by an earlier try is reused, not paid for twice.
  let sceneKey = message.imageKey;
  // The scene's webp thumbnail is the video's poster in lists (never the 2K original).
  let posterKey = sceneKey ? sceneKey.replace(/\.[a-z0-9]+$/, ".thumb.webp") : null;
  let scene: MediaFile | undefined;
  if (!sceneKey) {
    const references = await loadReferences(ctx, message.referenceKeys);
    const [image] = await ctx.providers.image.generate({ prompt, count: 1, references });
    if (!image) throw new ProviderError("The image service returned no image.", true);
    const item = await saveImage(ctx, ctx.db, origin, image.data);
    sceneKey = item.storageKey;
    posterKey = item.thumbnailKey;
    if (message.mode === "video") scene = await prepareReference(image.data);
    await updateMessageMedia(ctx.db, message.id, { imageKey: sceneKey, updatedAt: ctx.clock.now() });
  }

  if (message.mode === "video" && !message.videoKey) {
    scene ??= await prepareReference(await ctx.storage.read(sceneKey));
    const video = await animate(ctx, prompt, scene);
    const item = await saveVideo(ctx, ctx.db, origin, video.data, posterKey);
    await updateMessageMedia(ctx.db, message.id, { videoKey: item.storageKey, updatedAt: ctx.clock.now() });
  }
  await updateMessageMedia(ctx.db, message.id, {
    mediaStatus: "completed",
    mediaError: null,
    updatedAt: ctx.clock.now(),
  });
}

export async function generateMedia(
  ctx: MediaJobContext,
  payload: { messageId: string; storyTitle: string | null },
  attempt: JobAttempt,
): Promise<void> {
  const message = await findMessageById(ctx.db, payload.messageId);
  if (message?.mediaStatus !== "pending") return;
  try {
    await produce(ctx, message, payload.storyTitle);
  } catch (error) {
    const retryable = error instanceof ProviderError ? error.retryable : true;
    ctx.log.warn(
      {
        err: error,
        messageId: message.id,
        attempt: attempt.retryCount,
        internal: (error as ProviderError).internal,
      },
      "media generation failed",
    );
    if (retryable && !attempt.isLastAttempt) throw error;
    await failMedia(ctx, message, error instanceof ProviderError ? error.message : MEDIA_FAILED_MESSAGE);
  }
}

/** Records the failure for good and gives back everything above the text's price. */
export async function failMedia(ctx: Pick<AppContext, "db" | "clock">, message: MessageRow, reason: string) {
  const now = ctx.clock.now();
  if (!(await failIfPending(ctx.db, message.id, reason, now))) return;
  const refundTenths = message.chargedTenths - toTenths(CREDIT_COSTS.chat);
  await refund(
    ctx.db,
    message.userId,
    refundTenths,
    `media-refund:${message.id}`,
    now,
    "Refund: media generation failed",
  );
}

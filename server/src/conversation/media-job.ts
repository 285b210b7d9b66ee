// The media job: after the narrator has answered, ask the text provider for the scene prompt of the finished
// answer (the player's turn ended with the prose, so nobody waits for this), then draw the scene (image mode)
// or draw it and animate it for 5 seconds (video mode). Runs in the worker with retries; a try that finally
// fails marks the message failed and refunds everything above the text's price. Each step's result is kept on
// the message (scene prompt, image key), so a try cut off by a crash resumes where the last one stopped.
//
// One outcome per turn: media reach a message only while it is still pending. If the message was failed
// meanwhile (the stale time-out refunded it) or deleted (its story was deleted, which refunds it), the
// files this try made are removed again instead of being kept beside the refund.

import { randomInt } from "node:crypto";
import { CAMERA_TEXT_MAX_LENGTH } from "@storyverse/contract/camera";
import {
  MAX_INPUT_IMAGES,
  MEDIA_DEADLINE_MS,
  MEDIA_FAILED_MESSAGE,
  MEDIA_TIMED_OUT_MESSAGE,
} from "@storyverse/contract/chat";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import {
  ART_STYLE_MAX_LENGTH,
  ASPECT_RATIOS,
  type AspectRatio,
} from "@storyverse/contract/generation-settings";
import { referenceRoleSchema } from "@storyverse/contract/stories";
import { z } from "zod";
import type { AppContext } from "../context";
import { refundPaid, toTenths } from "../credits";
import type { Queryable } from "../db/client";
import { recordEvent } from "../events";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import type { MediaItemRow } from "../media";
import {
  discardMedia,
  discardUploadedInputs,
  type MediaOrigin,
  prepareReference,
  saveImage,
  saveVideo,
} from "../media";
import { NotFound } from "../platform/errors";
import { type MediaFile, ProviderError, type ReferenceImage, type ReferenceRole } from "../providers/types";
import { parseScenePrompt, scenePromptRequest } from "./narration";
import { failIfPending, findMessageById, type MessageRow, updateMediaIfPending } from "./repo";

export type MediaJobPayload = {
  messageId: string;
  storyTitle: string | null;
  /** What the illustrator reads besides the answer: the story's context and the player's words. */
  storyContext?: string | null | undefined;
  prompt?: string | undefined;
  /** The story's scene settings (its generation settings): added to the picture's prompt, and its shape. */
  artStyle?: string | undefined;
  aspectRatio?: AspectRatio | undefined;
  /** What the scene keeps from earlier ones (the story's scene state, its characters' looks): decision 0112. */
  camera?: string | undefined;
  /** Each of the message's reference keys' role, in order (decision 0161); absent: all content. */
  roles?: ReferenceRole[] | undefined;
};

export const generateMediaJob: JobSpec<MediaJobPayload> = {
  name: "chat-generate-media",
  payload: z.object({
    messageId: z.uuid(),
    storyTitle: z.string().nullable(),
    // Optional: jobs queued before the scene was written in the job carry neither.
    storyContext: z.string().nullable().optional(),
    prompt: z.string().optional(),
    artStyle: z.string().max(ART_STYLE_MAX_LENGTH).optional(),
    aspectRatio: z.enum(ASPECT_RATIOS).optional(),
    camera: z.string().max(CAMERA_TEXT_MAX_LENGTH).optional(),
    roles: z.array(referenceRoleSchema).max(MAX_INPUT_IMAGES).optional(),
  }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  // A safety net only: every try already stops at the turn's media deadline.
  expireInSeconds: MEDIA_DEADLINE_MS / 1000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type MediaJobContext = Pick<AppContext, "db" | "clock" | "providers" | "storage" | "config" | "log" | "jobs">;

/** When the turn's media must be settled: the client stops asking soon after. */
export const mediaDeadline = (message: Pick<MessageRow, "createdAt">) =>
  message.createdAt.getTime() + MEDIA_DEADLINE_MS;

class PastDeadline extends Error {}
/** The message was failed, refunded or deleted while this try ran: stop, keep nothing. */
class NoLongerPending extends Error {}

/**
 * The scene's reference images. One whose file is gone since the turn (a Story Card deleted or given a new
 * portrait meanwhile) no longer steers the scene; any other failure to read is a failure of the try.
 */
async function loadReferences(
  ctx: MediaJobContext,
  keys: string[],
  roles: ReferenceRole[] | undefined,
): Promise<ReferenceImage[]> {
  const loaded = await Promise.all(
    keys.map(async (key, index): Promise<ReferenceImage | null> => {
      try {
        return {
          ...(await prepareReference(await ctx.storage.read(key))),
          role: roles?.[index] ?? "content",
        };
      } catch (error) {
        const missing = await ctx.storage.size(key).then(
          () => false,
          (sizeError: unknown) => sizeError instanceof NotFound,
        );
        if (!missing) throw error;
        ctx.log.warn({ key }, "a reference image is gone; the scene is painted without it");
        return null;
      }
    }),
  );
  return loaded.filter((file): file is ReferenceImage => file !== null);
}

async function animate(
  ctx: MediaJobContext,
  prompt: string,
  image: MediaFile,
  deadline: number,
): Promise<MediaFile> {
  const giveUpAt =
    Date.now() + Math.min(ctx.config.providers.timeoutMs * 5, deadline - ctx.clock.now().getTime());
  const { taskId } = await ctx.providers.video.start({ prompt, image, durationSeconds: 5 });
  let wait = 500;
  while (Date.now() < giveUpAt) {
    await sleep(wait);
    wait = Math.min(wait * 2, 3000);
    const state = await ctx.providers.video.poll(taskId);
    if (state.status === "succeeded") return state.video;
    if (state.status === "failed") throw new ProviderError(state.error, false);
  }
  if (ctx.clock.now().getTime() >= deadline) throw new PastDeadline();
  throw new ProviderError("The video took too long to make. Please try again.", true);
}

/** Attaches a saved item to the message if it still waits for it; otherwise removes the item again. */
async function attach(
  ctx: MediaJobContext,
  message: MessageRow,
  item: MediaItemRow,
  field: "imageKey" | "videoKey",
): Promise<void> {
  const attached = await updateMediaIfPending(ctx.db, message.id, {
    [field]: item.storageKey,
    updatedAt: ctx.clock.now(),
  });
  if (!attached) {
    await discardMedia(ctx, item);
    throw new NoLongerPending();
  }
}

/**
 * The scene prompt: the one the narrator wrote anyway or an earlier try kept, else the text provider's for
 * the finished answer, kept on the message (while it is still pending) so a later try paints the same scene.
 */
async function scenePrompt(ctx: MediaJobContext, message: MessageRow, payload: MediaJobPayload) {
  if (message.sceneDescription) return message.sceneDescription;
  const answer = await ctx.providers.text.complete({
    ...scenePromptRequest({
      title: payload.storyTitle,
      context: payload.storyContext ?? null,
      prompt: payload.prompt ?? "",
      storyText: message.content,
    }),
    maxTokens: 300,
    temperature: 0.7,
  });
  const scene = parseScenePrompt(answer, message.content);
  const kept = await updateMediaIfPending(ctx.db, message.id, {
    sceneDescription: scene,
    updatedAt: ctx.clock.now(),
  });
  if (!kept) throw new NoLongerPending();
  return scene;
}

/** The painter's prompt: the scene, then the story's art style when it has one. */
export const withArtStyle = (prompt: string, artStyle: string | undefined) =>
  artStyle?.trim() ? `${prompt}\n\nArt style: ${artStyle.trim()}` : prompt;

/** The scene, then what it keeps from earlier scenes (the story's camera) when there is any. */
export const withCamera = (prompt: string, camera: string | undefined) =>
  camera?.trim() ? `${prompt}\n\n${camera.trim()}` : prompt;

/** The whole prompt the painter gets for a scene: the scene, the camera, the art style. */
export const painterPrompt = (scene: string, camera: string | undefined, artStyle: string | undefined) =>
  withArtStyle(withCamera(scene, camera), artStyle);

async function produce(ctx: MediaJobContext, message: MessageRow, payload: MediaJobPayload): Promise<void> {
  const deadline = mediaDeadline(message);
  const prompt = await scenePrompt(ctx, message, payload);
  const origin: MediaOrigin = {
    userId: message.userId,
    source: message.storyId ? "story" : "main_chat",
    storyId: message.storyId,
    storyTitle: payload.storyTitle,
    messageId: message.id,
    description: prompt.slice(0, 500),
  };

  // A retried job resumes: a scene image made by an earlier try is reused, not paid for twice.
  let sceneKey = message.imageKey;
  // The scene's webp thumbnail is the video's poster in lists (never the 2K original).
  let posterKey = sceneKey ? sceneKey.replace(/\.[a-z0-9]+$/, ".thumb.webp") : null;
  let scene: MediaFile | undefined;
  if (!sceneKey) {
    const references = await loadReferences(ctx, message.referenceKeys, payload.roles);
    // Every scene keeps the seed it was painted with, where the painter takes one (decision 0149).
    const seed = ctx.providers.image.takesSeed ? randomInt(0, 2 ** 32) : undefined;
    const [image] = await ctx.providers.image.generate({
      prompt: painterPrompt(prompt, payload.camera, payload.artStyle),
      count: 1,
      references,
      ...(payload.aspectRatio ? { aspectRatio: payload.aspectRatio } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
    if (!image) throw new ProviderError("The image service returned no image.", true);
    const item = await saveImage(ctx, ctx.db, { ...origin, seed: seed ?? null }, image.data);
    await attach(ctx, message, item, "imageKey");
    sceneKey = item.storageKey;
    posterKey = item.thumbnailKey;
    if (message.mode === "video") scene = await prepareReference(image.data);
  }

  if (message.mode === "video" && !message.videoKey) {
    scene ??= await prepareReference(await ctx.storage.read(sceneKey));
    const video = await animate(ctx, withCamera(prompt, payload.camera), scene, deadline);
    // A turn's clip is always asked for 5 seconds; its length is kept so it can be extended (decision 0160).
    const item = await saveVideo(ctx, ctx.db, { ...origin, durationSeconds: 5 }, video.data, posterKey);
    await attach(ctx, message, item, "videoKey");
  }
  const completed = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    if (
      !(await updateMediaIfPending(tx, message.id, {
        mediaStatus: "completed",
        mediaError: null,
        updatedAt: now,
      }))
    ) {
      return false;
    }
    await announceMedia(tx, message, now);
    return true;
  });
  if (!completed) throw new NoLongerPending();
}

/** Tells the user's open tabs (on any process, at commit) that the turn's media ended, and its story's card. */
async function announceMedia(q: Queryable, message: MessageRow, at: Date): Promise<void> {
  await recordEvent(q, { userId: message.userId, kind: "media", subjectId: message.id, at });
  if (message.storyId)
    await recordEvent(q, { userId: message.userId, kind: "story", subjectId: message.storyId, at });
}

export async function generateMedia(
  ctx: MediaJobContext,
  payload: MediaJobPayload,
  attempt: JobAttempt,
): Promise<void> {
  const message = await findMessageById(ctx.db, payload.messageId);
  if (message?.mediaStatus !== "pending") return;
  if (ctx.clock.now().getTime() >= mediaDeadline(message)) {
    await failMedia(ctx, message, MEDIA_TIMED_OUT_MESSAGE);
    return;
  }
  try {
    await produce(ctx, message, payload);
  } catch (error) {
    if (error instanceof NoLongerPending) return;
    if (error instanceof PastDeadline) {
      await failMedia(ctx, message, MEDIA_TIMED_OUT_MESSAGE);
      return;
    }
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

/**
 * The part of a turn's charge that paid for its media: everything above the text's price; all of it for a new
 * scene of the same words (Retry "New scene" wrote no text). A charge alone (no row) is a turn's.
 */
export const mediaPartTenths = (message: Pick<MessageRow, "chargedTenths"> & { sceneOnly?: boolean }) =>
  message.sceneOnly
    ? message.chargedTenths
    : Math.max(0, message.chargedTenths - toTenths(CREDIT_COSTS.chat));

/**
 * Records the failure for good and gives back the media part, in one transaction (a crash between the two
 * cannot keep the money). Also cancels the job, so a try still queued never starts; a try already running
 * finds the message failed and keeps nothing. The refund is keyed by the message: at most once.
 */
export async function failMedia(
  ctx: Pick<AppContext, "db" | "clock" | "log" | "jobs" | "storage">,
  message: MessageRow,
  reason: string,
): Promise<boolean> {
  const now = ctx.clock.now();
  const failed = await ctx.db.transaction(async (tx) => {
    if (!(await failIfPending(tx, message.id, reason, now))) return false;
    await announceMedia(tx, message, now);
    await refundPaid(
      { ...ctx, db: tx },
      message,
      mediaPartTenths(message),
      message.id,
      reason === MEDIA_TIMED_OUT_MESSAGE
        ? "Refund: media generation timed out"
        : "Refund: media generation failed",
    );
    return true;
  });
  if (!failed) return false;
  await ctx.jobs.cancel(generateMediaJob, message.id).catch((error: Error) => {
    ctx.log.warn({ err: error, messageId: message.id }, "media job could not be cancelled");
  });
  await discardUploadedInputs(ctx, message.referenceKeys);
  return true;
}

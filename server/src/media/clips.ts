// Clips that go on (issue 45 item 4, decision 0160): make a clip from any of the player's pictures (with an
// optional last frame and camera move), or extend a clip by 5 seconds up to 20. Everything that can be the
// player's mistake (another player's item, a clip to animate, a picture to extend, a clip already too long, a
// foreign last frame, a feature the configured video service lacks) is refused before the charge. Then the
// `video` price is charged and the clip job queued in one transaction (payFor's settle: queued counts as
// delivered, as a Studio batch's does); the job (media/clip-job.ts) ends in the new clip or a full refund.
import { randomUUID } from "node:crypto";
import {
  type AnimateRequest,
  CLIP_MAX_SECONDS,
  CLIP_PRICE_KIND,
  CLIP_SECONDS,
  type ClipJob,
  type ClipStarted,
  type ExtendRequest,
} from "@storyverse/contract/media-clip";
import type { AppContext } from "../context";
import { assertCovers, payFor, withHeavySlot } from "../credits";
import { InvalidInput, NotFound } from "../platform/errors";
import { CLIP_DEADLINE_MS, CLIP_TIMED_OUT_DETAIL, clipJob, failClip } from "./clip-job";
import { type ClipJobRow, findClipJob, insertClipJob } from "./clip-repo";
import { clipSeconds } from "./clip-video";
import { assertStorageAvailable } from "./quota";
import { findOwnedById, type MediaItemRow } from "./repo";
import { toGalleryItem } from "./service";

type ClipsContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "storage" | "log" | "config" | "jobs" | "spendingCaps"
>;

export const CLIP_ITEM_NOT_FOUND = "This item is not in your Gallery.";
export const CLIP_JOB_NOT_FOUND = "There is no such clip job.";
const NOT_A_PICTURE = "Only a picture can be animated; to make a clip longer, extend it.";
const NOT_A_CLIP = "Only a clip can be extended; to make a clip from a picture, animate it.";
const UNREADABLE_CLIP = "This clip's file cannot be read, so it cannot be extended.";
const LAST_FRAME_NOT_YOURS = "last_frame_id must be the id of one of your pictures";
/** When a picture has no prompt of its own and none is given. */
const DEFAULT_PROMPT = "The scene comes to life with gentle, natural motion.";

const tooLong = (seconds: number) =>
  `This clip is ${Math.round(seconds)} seconds long; a clip can be extended up to ${CLIP_MAX_SECONDS} seconds.`;

/** A 400 naming what the configured video service cannot do, before anything is charged. */
function assertFeatures(ctx: ClipsContext, wants: { lastFrame: boolean; camera: boolean }): void {
  const provider = ctx.providers.video;
  const has = provider.clipFeatures ?? { lastFrame: false, camera: false };
  if (wants.lastFrame && !has.lastFrame)
    throw new InvalidInput(
      `The configured video service (${provider.name}) cannot end a clip on a chosen picture: leave the last frame empty.`,
    );
  if (wants.camera && !has.camera)
    throw new InvalidInput(
      `The configured video service (${provider.name}) cannot follow a camera move: leave the camera empty.`,
    );
}

export function animatePicture(ctx: ClipsContext, userId: string, id: string, input: AnimateRequest) {
  return withHeavySlot(userId, async () => {
    const parent = await findOwnedById(ctx.db, userId, id);
    if (!parent) throw new NotFound(CLIP_ITEM_NOT_FOUND);
    if (parent.kind !== "image") throw new InvalidInput(NOT_A_PICTURE);
    assertFeatures(ctx, { lastFrame: input.last_frame_id !== undefined, camera: input.camera !== undefined });
    if (input.last_frame_id !== undefined) {
      const last = await findOwnedById(ctx.db, userId, input.last_frame_id);
      if (last?.kind !== "image") throw new InvalidInput(LAST_FRAME_NOT_YOURS);
    }
    return queueClip(ctx, userId, parent, {
      kind: "animate",
      prompt: input.prompt || parent.description || DEFAULT_PROMPT,
      camera: input.camera ?? "still",
      lastFrameId: input.last_frame_id ?? null,
      durationSeconds: CLIP_SECONDS,
    });
  });
}

export function extendClip(ctx: ClipsContext, userId: string, id: string, input: ExtendRequest) {
  return withHeavySlot(userId, async () => {
    const parent = await findOwnedById(ctx.db, userId, id);
    if (!parent) throw new NotFound(CLIP_ITEM_NOT_FOUND);
    if (parent.kind !== "video") throw new InvalidInput(NOT_A_CLIP);
    assertFeatures(ctx, { lastFrame: false, camera: input.camera !== undefined });
    // A clip made before lengths were recorded is measured from its file.
    const seconds = parent.durationSeconds ?? (await measure(ctx, parent));
    // A quarter second of slack: a vendor's "5 s" clip may run a few frames long.
    if (seconds + CLIP_SECONDS > CLIP_MAX_SECONDS + 0.25) throw new InvalidInput(tooLong(seconds));
    return queueClip(ctx, userId, parent, {
      kind: "extend",
      prompt: input.prompt || parent.description || DEFAULT_PROMPT,
      camera: input.camera ?? "still",
      lastFrameId: null,
      durationSeconds: Math.round((seconds + CLIP_SECONDS) * 10) / 10,
    });
  });
}

/** An older clip's length from its file; a file that cannot be read as a clip is a 400, not a charge. */
async function measure(ctx: ClipsContext, clip: MediaItemRow): Promise<number> {
  try {
    return await clipSeconds(ctx.config.ffmpeg.path, await ctx.storage.read(clip.storageKey));
  } catch (error) {
    ctx.log.warn({ err: error, mediaId: clip.id }, "a clip's length could not be read");
    throw new InvalidInput(UNREADABLE_CLIP);
  }
}

type ClipPlan = Pick<ClipJobRow, "kind" | "prompt" | "camera" | "lastFrameId" | "durationSeconds">;

/** Charges the clip and queues its job with its pending row; answers at once (202). */
async function queueClip(
  ctx: ClipsContext,
  userId: string,
  parent: MediaItemRow,
  plan: ClipPlan,
): Promise<ClipStarted> {
  await assertCovers(ctx, userId, CLIP_PRICE_KIND, 1);
  // A full media storage is refused before the charge too (decision 0122).
  await assertStorageAvailable(ctx, userId, 0);
  await ctx.jobs.ready(clipJob);
  const jobId = randomUUID();
  const { paid } = await payFor(
    ctx,
    {
      userId,
      kind: CLIP_PRICE_KIND,
      quantity: 1,
      description: `${plan.kind === "extend" ? "Clip extended" : "Clip"}: ${plan.prompt.slice(0, 80)}`,
      paidFor: jobId,
      refundDescription:
        plan.kind === "extend"
          ? "Refund: the clip could not be extended"
          : "Refund: the clip could not be made",
    },
    async (charged, settle) => {
      // The charge, the pending job and its queue entry exist together or not at all. From here the job (or
      // its deadline) settles what is owed back, keyed by the job id.
      await ctx.db.transaction(async (tx) => {
        await settle(tx);
        await insertClipJob(tx, {
          id: jobId,
          userId,
          parentId: parent.id,
          ...plan,
          chargedTenths: charged.chargedTenths,
          createdAt: ctx.clock.now(),
        });
        await ctx.jobs.send(clipJob, { clipJobId: jobId }, { id: jobId, tx });
      });
      return { result: undefined };
    },
  );
  return {
    job_id: jobId,
    kind: plan.kind,
    status: "pending",
    parent_id: parent.id,
    item: null,
    detail: null,
    duration_seconds: plan.durationSeconds,
    quota_info: paid.quotaInfo,
  };
}

/** Where one of the player's clip jobs stands (null: not theirs, or none); past its deadline it is failed. */
export async function clipStatus(ctx: ClipsContext, userId: string, jobId: string): Promise<ClipJob | null> {
  let job = await findClipJob(ctx.db, jobId);
  if (!job || job.userId !== userId) return null;
  if (job.status === "pending" && ctx.clock.now().getTime() - job.createdAt.getTime() >= CLIP_DEADLINE_MS) {
    if (await failClip(ctx, job, CLIP_TIMED_OUT_DETAIL)) {
      await ctx.jobs.cancel(clipJob, job.id).catch(() => undefined);
    }
    job = (await findClipJob(ctx.db, jobId)) ?? job;
  }
  const item = job.itemId ? await findOwnedById(ctx.db, userId, job.itemId) : undefined;
  return {
    job_id: job.id,
    kind: job.kind,
    status: job.status,
    parent_id: job.parentId,
    item: item ? await toGalleryItem(ctx, item) : null,
    detail: job.detail,
    duration_seconds: job.durationSeconds,
  };
}

// The clip job (decision 0160): makes the clip a player asked for (POST /api/media/{id}/animate or /extend,
// media/clips.ts) in the worker. The request charged the `video` price and queued this job in the transaction
// that stored the pending row (media_clip_jobs), so the charge counts as delivered from there; from then on
// the job ends exactly once (endClipJobIfPending), inside the transaction that either stores the new clip or
// records the full refund (keyed by the job id, refund:<id>), whatever retries, crashes or the deadline do.
// A try cut off by a crash leaves the row pending, and the job is tried again by the next worker.
import { type CameraMove, CLIP_SECONDS } from "@storyverse/contract/media-clip";
import { z } from "zod";
import type { AppContext } from "../context";
import { refundPaid } from "../credits";
import type { Queryable } from "../db/client";
import { recordEvent } from "../events";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { type MediaFile, ProviderError } from "../providers/types";
import { type ClipJobRow, endClipJobIfPending, findClipJob } from "./clip-repo";
import { lastFrameOf, stitchClips } from "./clip-video";
import { prepareReference } from "./images";
import { findOwnedById, type MediaItemRow } from "./repo";
import { saveVideo } from "./service";

type ClipPayload = { clipJobId: string };

export const clipJob: JobSpec<ClipPayload> = {
  name: "media-make-clip",
  payload: z.object({ clipJobId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** A clip job still pending this long after it was queued is failed and refunded (by its job or when asked). */
export const CLIP_DEADLINE_MS = 20 * 60_000;

export const CLIP_FAILED_DETAIL = "The video service could not make this clip. Please try again.";
export const CLIP_TIMED_OUT_DETAIL = "The clip took too long to make. Please try again.";
const PARENT_GONE_DETAIL = "The picture or clip this was made from was deleted.";
const LAST_FRAME_GONE_DETAIL = "The picture chosen as the last frame was deleted.";
const NO_LAST_FRAME_DETAIL = "The video service can no longer end a clip on a chosen picture.";

/**
 * How a story turn's clip is swapped for its extension (chat's to do: the media module does not write
 * chat_messages). Wired by the worker (workers.ts); absent: no turn is changed.
 */
export type ClipTurns = {
  /** In the completing transaction: the turn `messageId` (and its branches' copies) showing `fromKey` show `toKey`. */
  replaceClip(
    q: Queryable,
    userId: string,
    messageId: string,
    fromKey: string,
    toKey: string,
  ): Promise<boolean>;
};

export type ClipContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "storage" | "log" | "config" | "jobs"
> & {
  clipTurns?: ClipTurns;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends the job as failed with its full refund, once; false when it had ended already. */
export async function failClip(
  ctx: Pick<AppContext, "db" | "clock" | "log">,
  job: ClipJobRow,
  detail: string,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const ended = await endClipJobIfPending(tx, job.id, {
      status: "failed",
      detail,
      endedAt: ctx.clock.now(),
    });
    if (!ended) return false;
    await refundPaid(
      { ...ctx, db: tx },
      job,
      job.chargedTenths,
      job.id,
      job.kind === "extend" ? "Refund: the clip could not be extended" : "Refund: the clip could not be made",
    );
    return true;
  });
}

/** Starts the vendor's task and polls it until the clip is there (or the try's time is up). */
async function animate(ctx: ClipContext, request: Parameters<AppContext["providers"]["video"]["start"]>[0]) {
  const giveUpAt = Date.now() + ctx.config.providers.timeoutMs * 5;
  const { taskId } = await ctx.providers.video.start(request);
  let wait = 500;
  while (Date.now() < giveUpAt) {
    await sleep(wait);
    wait = Math.min(wait * 2, 3000);
    const state = await ctx.providers.video.poll(taskId);
    if (state.status === "succeeded") return state.video;
    if (state.status === "failed") throw new ProviderError(state.error, false);
  }
  throw new ProviderError("The clip took too long to make. Please try again.", true);
}

async function readPicture(ctx: ClipContext, row: MediaItemRow): Promise<MediaFile> {
  return prepareReference(await ctx.storage.read(row.storageKey));
}

/** The finished clip's bytes: a new clip from the picture, or the clip with its next 5 seconds stitched on. */
async function makeFile(ctx: ClipContext, job: ClipJobRow, parent: MediaItemRow): Promise<Buffer> {
  const camera = job.camera as CameraMove;
  // A camera move goes to the vendor only when asked for one it can make ("still" is the default).
  const withCamera = ctx.providers.video.clipFeatures?.camera ? { camera } : {};
  if (job.kind === "animate") {
    let lastFrame: MediaFile | undefined;
    if (job.lastFrameId) {
      // The video service was changed since the clip was asked for, to one that would ignore the last frame.
      if (!ctx.providers.video.clipFeatures?.lastFrame) throw new ProviderError(NO_LAST_FRAME_DETAIL, false);
      const last = await findOwnedById(ctx.db, job.userId, job.lastFrameId);
      if (!last) throw new ProviderError(LAST_FRAME_GONE_DETAIL, false);
      lastFrame = await readPicture(ctx, last);
    }
    const video = await animate(ctx, {
      prompt: job.prompt,
      image: await readPicture(ctx, parent),
      durationSeconds: CLIP_SECONDS,
      ...(lastFrame ? { lastFrame } : {}),
      ...withCamera,
    });
    return video.data;
  }
  const clip = await ctx.storage.read(parent.storageKey);
  const frame = await lastFrameOf(ctx.config.ffmpeg.path, clip);
  const segment = await animate(ctx, {
    prompt: job.prompt,
    image: { data: frame, mimeType: "image/png" },
    durationSeconds: CLIP_SECONDS,
    ...withCamera,
  });
  return stitchClips(ctx.config.ffmpeg.path, clip, segment.data);
}

class EndedMeanwhile extends Error {}

/** The worker's part: make the clip, keep it and end the job; a retryable failure before the last try retries. */
export async function makeClip(ctx: ClipContext, payload: ClipPayload, attempt: JobAttempt): Promise<void> {
  const job = await findClipJob(ctx.db, payload.clipJobId);
  if (job?.status !== "pending") return;
  if (ctx.clock.now().getTime() - job.createdAt.getTime() >= CLIP_DEADLINE_MS) {
    await failClip(ctx, job, CLIP_TIMED_OUT_DETAIL);
    return;
  }
  const parent = await findOwnedById(ctx.db, job.userId, job.parentId);
  if (!parent) {
    await failClip(ctx, job, PARENT_GONE_DETAIL);
    return;
  }
  try {
    const data = await makeFile(ctx, job, parent);
    await keepClip(ctx, job, parent, data);
  } catch (error) {
    if (error instanceof EndedMeanwhile) return;
    const retryable = error instanceof ProviderError ? error.retryable : true;
    ctx.log.warn(
      {
        err: error,
        clipJobId: job.id,
        attempt: attempt.retryCount,
        internal: (error as ProviderError).internal,
      },
      "clip job failed",
    );
    if (retryable && !attempt.isLastAttempt) throw error;
    await failClip(ctx, job, error instanceof ProviderError ? error.message : CLIP_FAILED_DETAIL);
  }
}

/**
 * The new gallery item and the job's end commit together; if the job ended meanwhile (its deadline refunded
 * it), nothing is kept (a file already written is the orphaned media sweep's). An extension of a turn's clip
 * takes that clip's place in the story.
 */
async function keepClip(
  ctx: ClipContext,
  job: ClipJobRow,
  parent: MediaItemRow,
  data: Buffer,
): Promise<void> {
  const turn = job.kind === "extend" ? parent.messageId : null;
  await ctx.db.transaction(async (tx) => {
    const item = await saveVideo(
      ctx,
      tx,
      {
        userId: job.userId,
        source: parent.source,
        storyId: parent.storyId,
        storyTitle: parent.storyTitle,
        // An extension of a turn's clip belongs to that turn; a clip made from a picture is its own.
        messageId: turn,
        description: job.prompt,
        seed: parent.seed,
        parentId: parent.id,
        durationSeconds: job.durationSeconds,
      },
      data,
      // The poster: the picture's thumbnail (animate), or the extended clip's own poster (its first frame's).
      parent.thumbnailKey,
    );
    const ended = await endClipJobIfPending(tx, job.id, {
      status: "completed",
      itemId: item.id,
      endedAt: ctx.clock.now(),
    });
    if (!ended) throw new EndedMeanwhile();
    if (turn && ctx.clipTurns) {
      const replaced = await ctx.clipTurns.replaceClip(
        tx,
        job.userId,
        turn,
        parent.storageKey,
        item.storageKey,
      );
      if (replaced)
        await recordEvent(tx, { userId: job.userId, kind: "media", subjectId: turn, at: ctx.clock.now() });
    }
  });
}

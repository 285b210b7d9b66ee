// A Studio batch as a job (POST /api/studio/generate-image with `Prefer: respond-async`): the request checks
// the inputs, charges and queues; a worker makes the images; the result is pushed as a `studio` event and
// read with GET /api/studio/batches/{id}. The money rules are the synchronous call's: charged once up
// front, images not delivered refunded once, keyed by the batch id (refund:<id>), whatever retries, crashes
// or the deadline do. A batch ends exactly once (settleBatchIfPending), inside the transaction that records
// its refund and its event.
import { randomInt, randomUUID } from "node:crypto";
import { MAX_INPUT_IMAGES } from "@storyverse/contract/chat";
import { ASPECT_RATIOS, type AspectRatio } from "@storyverse/contract/generation-settings";
import { seedSchema } from "@storyverse/contract/media-edit";
import { inputImageRole, type ReferenceRole, referenceRoleSchema } from "@storyverse/contract/stories";
import type { StudioBatch, StudioBatchAccepted } from "@storyverse/contract/studio";
import { z } from "zod";
import type { AppContext } from "../context";
import { assertCovers, payFor, refundPaid, withHeavySlot } from "../credits";
import { recordEvent } from "../events";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import type { MediaItemRow } from "../media";
import {
  assertStorageAvailable,
  checkInputImages,
  discardMedia,
  discardMediaOfMessage,
  discardUploadedInputs,
  type MediaOrigin,
  ownedMediaByIds,
  prepareReference,
  saveImage,
  storeInputImages,
  toGalleryItem,
} from "../media";
import { InvalidInput } from "../platform/errors";
import { ProviderError, type ReferenceImage } from "../providers/types";
import { findStudioMessage, insertStudioMessages, type StudioMessageRow, settleBatchIfPending } from "./repo";

/** The queued batch; its shape and first seed travel with it (absent in jobs queued before decision 0149). */
type BatchPayload = {
  batchId: string;
  promptId: string;
  aspectRatio?: AspectRatio;
  seed?: number;
  /** Each input image's role, in order (decision 0161); absent (jobs queued before it): all content. */
  roles?: ReferenceRole[];
};

export const studioBatchJob: JobSpec<BatchPayload> = {
  name: "studio-generate-batch",
  payload: z.object({
    batchId: z.uuid(),
    promptId: z.uuid(),
    aspectRatio: z.enum(ASPECT_RATIOS).optional(),
    seed: seedSchema.optional(),
    roles: z.array(referenceRoleSchema).max(MAX_INPUT_IMAGES).optional(),
  }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};

/** A batch still pending this long after it was queued is failed and refunded when next asked about. */
export const BATCH_DEADLINE_MS = 20 * 60_000;

export const BATCH_FAILED_DETAIL = "The image service could not make these images. Please try again.";
const NO_IMAGES_DETAIL = "The image service returned no usable image. Please try again.";
const TIMED_OUT_DETAIL = "The images took too long to make. Please try again.";

type BatchContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "storage" | "log" | "config" | "jobs" | "spendingCaps"
>;

export function batchSummary(made: number, asked: number): string {
  if (made === asked) return made === 1 ? "Here is your image." : `Here are your ${made} images.`;
  const missing = asked - made;
  return `Here ${made === 1 ? "is 1 image" : `are ${made} images`} of the ${asked} you asked for; the ${missing} that could not be made ${missing === 1 ? "was" : "were"} refunded.`;
}

/** Asked for a seed, a painter that cannot take one is a 400 before the charge (decision 0149). */
export const noSeedsDetail = (provider: string) =>
  `The configured image service (${provider}) cannot repeat a seed: leave the seed empty.`;

/**
 * The batch's first seed: the one asked for, else a new one where the painter takes seeds (kept on every
 * picture), else none (the vendor picks and the pictures record no seed).
 */
export function batchSeed(ctx: Pick<AppContext, "providers">, asked: number | undefined): number | undefined {
  const provider = ctx.providers.image;
  if (!provider.takesSeed) {
    if (asked !== undefined) throw new InvalidInput(noSeedsDetail(provider.name));
    return undefined;
  }
  return asked ?? randomInt(0, 2 ** 32);
}

/** Picture `index` of a batch seeded `first` was made with first + index (unsigned 32-bit); null: none. */
export const pictureSeed = (first: number | undefined, index: number): number | null =>
  first === undefined ? null : (first + index) >>> 0;

export type QueueBatchInput = {
  userId: string;
  prompt: string;
  batchSize: number;
  inputImages: Parameters<typeof checkInputImages>[2];
  aspectRatio?: AspectRatio | undefined;
  seed?: number | undefined;
  heavySlotHeld?: boolean;
};

/** Checks, charges and queues the batch; answers at once with its id (the images come by event). */
export async function queueBatch(ctx: BatchContext, input: QueueBatchInput): Promise<StudioBatchAccepted> {
  return withHeavySlot(
    input.userId,
    async () => {
      // The same refusals as the synchronous call, before anything is charged.
      const seed = batchSeed(ctx, input.seed);
      await assertCovers(ctx, input.userId, "image", input.batchSize);
      // A full media storage is refused before the charge too (decision 0122).
      await assertStorageAvailable(ctx, input.userId, 0);
      const inputs = await checkInputImages(ctx, input.userId, input.inputImages);
      const batchId = randomUUID();
      const promptId = randomUUID();
      await ctx.jobs.ready(studioBatchJob);
      const { paid } = await payFor(
        ctx,
        {
          userId: input.userId,
          kind: "image",
          quantity: input.batchSize,
          description: `Studio: ${input.batchSize} image${input.batchSize === 1 ? "" : "s"}: ${input.prompt.slice(0, 80)}`,
          paidFor: batchId,
          refundDescription: "Refund: the Studio images could not be made",
        },
        async (charged, settle) => {
          const inputKeys = await storeInputImages(ctx, input.userId, inputs);
          try {
            // The prompt, the pending batch and its job exist together or not at all. Queued counts as
            // delivered for the charge (as a turn's media job does): from here the job, or the batch's
            // deadline, settles what is owed back, keyed by the batch.
            await ctx.db.transaction(async (tx) => {
              await settle(tx);
              const at = ctx.clock.now();
              const common = { userId: input.userId, isAdvisor: false, batchSize: input.batchSize };
              await insertStudioMessages(tx, [
                { ...common, id: promptId, role: "user", content: input.prompt, inputKeys, createdAt: at },
                {
                  ...common,
                  id: batchId,
                  role: "assistant",
                  content: "",
                  status: "pending",
                  chargedTenths: charged.chargedTenths,
                  createdAt: new Date(at.getTime() + 1),
                },
              ]);
              const payload: BatchPayload = {
                batchId,
                promptId,
                ...(input.aspectRatio ? { aspectRatio: input.aspectRatio } : {}),
                ...(seed !== undefined ? { seed } : {}),
                ...(input.inputImages.length ? { roles: input.inputImages.map(inputImageRole) } : {}),
              };
              await ctx.jobs.send(studioBatchJob, payload, { id: batchId, tx });
            });
          } catch (error) {
            await discardUploadedInputs(ctx, inputKeys);
            throw error;
          }
          return { result: undefined };
        },
      );
      return {
        success: true,
        message_id: batchId,
        prompt_message_id: promptId,
        status: "pending",
        quota_info: paid.quotaInfo,
      };
    },
    { slotHeld: input.heavySlotHeld },
  );
}

/**
 * Ends the batch once: its status and words, the refund of what was not delivered, and the `studio` event,
 * in one transaction. False when it had ended already.
 */
async function settle(
  ctx: Pick<AppContext, "db" | "clock" | "log">,
  batch: StudioMessageRow,
  outcome: { saved: MediaItemRow[] } | { error: string },
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const made = "saved" in outcome ? outcome.saved.length : 0;
    const ended =
      "saved" in outcome
        ? await settleBatchIfPending(tx, batch.id, {
            status: "completed",
            content: batchSummary(made, batch.batchSize),
            mediaIds: outcome.saved.map((item) => item.id),
            error: null,
          })
        : await settleBatchIfPending(tx, batch.id, {
            status: "failed",
            content: outcome.error,
            mediaIds: [],
            error: outcome.error,
          });
    if (!ended) return false;
    const missing = batch.batchSize - made;
    const undelivered = Math.round((batch.chargedTenths * missing) / batch.batchSize);
    await refundPaid(
      txCtx,
      batch,
      undelivered,
      batch.id,
      made === 0
        ? "Refund: the Studio images could not be made"
        : `Refund: ${missing} of ${batch.batchSize} Studio images could not be made`,
    );
    await recordEvent(tx, { userId: batch.userId, kind: "studio", subjectId: batch.id, at: ctx.clock.now() });
    return true;
  });
}

/** The worker's part: make the images, keep them, settle. A retryable failure before the last try retries. */
export async function makeBatch(
  ctx: BatchContext,
  payload: BatchPayload,
  attempt: JobAttempt,
): Promise<void> {
  const batch = await findStudioMessage(ctx.db, payload.batchId);
  if (batch?.status !== "pending") return;
  const prompt = await findStudioMessage(ctx.db, payload.promptId);
  if (!prompt || prompt.userId !== batch.userId) {
    await settle(ctx, batch, { error: BATCH_FAILED_DETAIL });
    return;
  }
  if (ctx.clock.now().getTime() - batch.createdAt.getTime() >= BATCH_DEADLINE_MS) {
    await settle(ctx, batch, { error: TIMED_OUT_DETAIL });
    return;
  }
  // A try that died after saving images left them in the gallery: this try makes the set anew.
  await discardMediaOfMessage(ctx, batch.userId, batch.id);
  const saved: MediaItemRow[] = [];
  try {
    const references: ReferenceImage[] = await Promise.all(
      prompt.inputKeys.map(async (key, index) => ({
        ...(await prepareReference(await ctx.storage.read(key))),
        role: payload.roles?.[index] ?? "content",
      })),
    );
    // Every try paints with the seed chosen at queueing, so a retry makes the same pictures.
    const images = await ctx.providers.image.generate({
      prompt: prompt.content,
      count: batch.batchSize,
      references,
      ...(payload.aspectRatio ? { aspectRatio: payload.aspectRatio } : {}),
      ...(payload.seed !== undefined && ctx.providers.image.takesSeed ? { seed: payload.seed } : {}),
    });
    const origin: MediaOrigin = {
      userId: batch.userId,
      source: "studio",
      storyId: null,
      storyTitle: null,
      messageId: batch.id,
      description: prompt.content,
    };
    const outcomes = await Promise.allSettled(
      images.slice(0, batch.batchSize).map((image, index) => {
        const seed = ctx.providers.image.takesSeed ? pictureSeed(payload.seed, index) : null;
        return saveImage(ctx, ctx.db, { ...origin, seed }, image.data);
      }),
    );
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") saved.push(outcome.value);
      else ctx.log.warn({ err: outcome.reason }, "a studio image could not be saved");
    }
    if (saved.length === 0) throw new ProviderError(NO_IMAGES_DETAIL, true, "no usable image in the batch");
    if (!(await settle(ctx, batch, { saved }))) {
      // Ended meanwhile (the deadline refunded it): keep nothing beside the refund.
      await Promise.all(saved.map((item) => discardMedia(ctx, item)));
    }
  } catch (error) {
    await Promise.all(saved.map((item) => discardMedia(ctx, item)));
    const retryable = error instanceof ProviderError ? error.retryable : true;
    ctx.log.warn(
      {
        err: error,
        batchId: batch.id,
        attempt: attempt.retryCount,
        internal: (error as ProviderError).internal,
      },
      "studio batch failed",
    );
    if (retryable && !attempt.isLastAttempt) throw error;
    await settle(ctx, batch, { error: error instanceof ProviderError ? error.message : BATCH_FAILED_DETAIL });
  }
}

/** The batch's images that still exist, in the order they were made. */
async function batchMedia(ctx: Pick<AppContext, "db">, batch: StudioMessageRow): Promise<MediaItemRow[]> {
  const byId = new Map(
    (await ownedMediaByIds(ctx, batch.userId, batch.mediaIds)).map((row) => [row.id, row]),
  );
  return batch.mediaIds.flatMap((id) => byId.get(id) ?? []);
}

/** Where one of the user's queued batches stands; past its deadline a pending batch is failed and refunded. */
export async function batchStatus(
  ctx: BatchContext,
  userId: string,
  batchId: string,
): Promise<StudioBatch | null> {
  let batch = await findStudioMessage(ctx.db, batchId);
  if (!batch || batch.userId !== userId || batch.role !== "assistant" || batch.isAdvisor) return null;
  if (
    batch.status === "pending" &&
    ctx.clock.now().getTime() - batch.createdAt.getTime() >= BATCH_DEADLINE_MS
  ) {
    if (await settle(ctx, batch, { error: TIMED_OUT_DETAIL })) {
      await ctx.jobs.cancel(studioBatchJob, batch.id).catch(() => undefined);
    }
    batch = (await findStudioMessage(ctx.db, batchId)) ?? batch;
  }
  const items = await Promise.all((await batchMedia(ctx, batch)).map((row) => toGalleryItem(ctx, row)));
  return {
    message_id: batch.id,
    status: batch.status,
    content: batch.content,
    images: items.map((item) => item.url),
    items,
    error: batch.error,
  };
}

/** The `studio` event of a batch that ended (null while it is pending or when it is gone). */
export async function studioEventOf(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  batchId: string,
) {
  const batch = await findStudioMessage(ctx.db, batchId);
  if (!batch || batch.userId !== userId || batch.status === "pending") return null;
  const items = await Promise.all((await batchMedia(ctx, batch)).map((row) => toGalleryItem(ctx, row)));
  return {
    message_id: batch.id,
    status: batch.status,
    images: items.map((item) => item.url),
    items,
    error: batch.error,
  };
}

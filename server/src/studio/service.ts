// The Studio's rules: a batch of images from a prompt and input images (synchronous: the client waits for
// the images in the response; queued as a job with `Prefer: respond-async`, see batch-job.ts), the prompt advisor, and the conversation that records both. Inputs are checked
// before anything is charged;
// a user pays only for the images they received (payFor settles every charge: delivered or refunded).
import { randomUUID } from "node:crypto";
import { STUDIO_IMAGE_USAGE } from "@storyverse/contract/billing";
import type { AspectRatio } from "@storyverse/contract/generation-settings";
import type { GalleryItem } from "@storyverse/contract/media";
import { type InputImage, inputImageRole } from "@storyverse/contract/stories";
import {
  ADVISOR_HISTORY_WINDOW,
  type AdvisorChatResponse,
  STUDIO_HISTORY_LIMIT,
  type StudioGenerateResponse,
  type StudioMessage,
} from "@storyverse/contract/studio";
import type { AppContext } from "../context";
import { assertCovers, type Charge, fromTenths, payFor, remainingCredits, withHeavySlot } from "../credits";
import type { Queryable } from "../db/client";
import type { MediaItemRow } from "../media";
import {
  assertStorageAvailable,
  checkInputImages,
  discardMedia,
  discardUploadedInputs,
  type MediaOrigin,
  ownedMediaByIds,
  prepareReference,
  StorageFull,
  saveImage,
  smallImageKeys,
  storeInputImages,
  toGalleryItem,
} from "../media";
import { DomainError, ProviderUnavailable } from "../platform/errors";
import { type MediaFile, ProviderError, type ReferenceImage } from "../providers/types";
import { buildAdvisorMessages } from "./advisor-prompt";
import { batchSeed, batchSummary, pictureSeed } from "./batch-job";
import { insertStudioMessages, recentStudioMessages, type StudioMessageRow } from "./repo";

export { batchStatus, queueBatch, studioEventOf } from "./batch-job";

type StudioContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "storage" | "log" | "config" | "spendingCaps"
>;

export const NO_IMAGES_DETAIL = "The image service returned no usable image. Please try again.";
const IMAGE_FAILED_DETAIL = "The image service could not make these images. Please try again.";
const ADVISOR_FAILED_DETAIL = "The advisor could not answer. Please try again.";

/** Columns only a queued batch uses (a batch made at once is completed, charged in the ledger alone). */
type QueuedOnly = "status" | "error" | "chargedTenths";

/** The user's message and the answer, stamped a millisecond apart so ordering never swaps them. */
async function recordExchange(
  ctx: Pick<AppContext, "db" | "clock">,
  user: Omit<StudioMessageRow, "id" | "role" | "createdAt" | QueuedOnly>,
  answer: Omit<StudioMessageRow, "role" | "createdAt" | QueuedOnly>,
  delivered: (tx: Queryable) => Promise<void>,
) {
  const at = ctx.clock.now();
  // The exchange and the charge's "delivered" commit together (see payFor's settle).
  await ctx.db.transaction(async (tx) => {
    await delivered(tx);
    await insertStudioMessages(tx, [
      { ...user, role: "user", createdAt: at },
      { ...answer, role: "assistant", createdAt: new Date(at.getTime() + 1) },
    ]);
  });
}

/** What the charge looks like after a refund: remaining read back, charged reduced. */
async function settledQuota(ctx: Pick<AppContext, "db">, paid: Charge, refundedTenths: number) {
  return {
    ...paid.quotaInfo,
    remaining: await remainingCredits(ctx.db, paid.userId),
    charged: fromTenths(paid.chargedTenths - refundedTenths),
  };
}

export type GenerateInput = {
  userId: string;
  prompt: string;
  batchSize: number;
  inputImages: InputImage[];
  /** The pictures' shape (decision 0149); absent: 4:3. */
  aspectRatio?: AspectRatio | undefined;
  /** The first picture's seed; absent: a new one where the painter takes seeds. */
  seed?: number | undefined;
  /** The upload gate already took the user's heavy slot for this request. */
  heavySlotHeld?: boolean;
};

export async function generateImages(
  ctx: StudioContext,
  input: GenerateInput,
): Promise<StudioGenerateResponse> {
  return withHeavySlot(input.userId, () => generateBatch(ctx, input), { slotHeld: input.heavySlotHeld });
}

async function generateBatch(ctx: StudioContext, input: GenerateInput): Promise<StudioGenerateResponse> {
  // A user who cannot pay is refused before any input is decoded. Everything that can be the user's
  // mistake (foreign or missing gallery items, non-images, oversized or damaged uploads) is found before
  // the charge: a 400 with nothing charged and nothing stored.
  const seed = batchSeed(ctx, input.seed);
  await assertCovers(ctx, input.userId, "image", input.batchSize);
  // A full media storage is refused before the charge too (decision 0122): the batch could keep nothing.
  await assertStorageAvailable(ctx, input.userId, 0);
  const inputs = await checkInputImages(ctx, input.userId, input.inputImages);

  // The assistant message's id is fixed up front: gallery items point at it and the refund is keyed by it.
  const messageId = randomUUID();
  const { result, paid, refundedTenths } = await payFor(
    ctx,
    {
      userId: input.userId,
      kind: "image",
      usage: STUDIO_IMAGE_USAGE,
      quantity: input.batchSize,
      description: `Studio: ${input.batchSize} image${input.batchSize === 1 ? "" : "s"}: ${input.prompt.slice(0, 80)}`,
      paidFor: messageId,
      refundDescription: "Refund: the Studio images could not be made",
    },
    async (charged, settle) => {
      const inputKeys = await storeInputImages(ctx, input.userId, inputs);
      const saved: MediaItemRow[] = [];
      let undeliveredTenths = 0;
      try {
        // Each reference goes with the role it was sent with (decision 0161).
        const references: ReferenceImage[] = await Promise.all(
          inputKeys.map(async (key, index) => ({
            ...(await prepareReference(await ctx.storage.read(key))),
            role: inputImageRole(input.inputImages[index]!),
          })),
        );
        let images: MediaFile[];
        try {
          images = await ctx.providers.image.generate({
            prompt: input.prompt,
            count: input.batchSize,
            references,
            ...(input.aspectRatio ? { aspectRatio: input.aspectRatio } : {}),
            ...(seed !== undefined ? { seed } : {}),
          });
        } catch (error) {
          ctx.log.warn(
            { err: error, internal: (error as ProviderError).internal },
            "studio image generation failed",
          );
          throw new ProviderUnavailable(error instanceof ProviderError ? error.message : IMAGE_FAILED_DETAIL);
        }

        const origin: MediaOrigin = {
          userId: input.userId,
          source: "studio",
          storyId: null,
          storyTitle: null,
          messageId,
          description: input.prompt,
        };
        // A vendor may send fewer images than asked, or bytes that are not an image; each is judged alone.
        const settled = await Promise.allSettled(
          images
            .slice(0, input.batchSize)
            .map((image, index) =>
              saveImage(ctx, ctx.db, { ...origin, seed: pictureSeed(seed, index) }, image.data),
            ),
        );
        let ownFailure: unknown;
        for (const outcome of settled) {
          if (outcome.status === "fulfilled") saved.push(outcome.value);
          else {
            ctx.log.warn({ err: outcome.reason }, "a studio image could not be saved");
            // inspectImage's 400 means the vendor sent junk; anything else is our own storage or database.
            // A full media storage is said as such (413, refunded): not the vendor's fault.
            if (!(outcome.reason instanceof DomainError) || outcome.reason instanceof StorageFull)
              ownFailure ??= outcome.reason;
          }
        }
        if (saved.length === 0) {
          if (ownFailure) throw ownFailure;
          throw new ProviderUnavailable(NO_IMAGES_DETAIL);
        }
        undeliveredTenths = Math.round(
          (charged.chargedTenths * (input.batchSize - saved.length)) / input.batchSize,
        );

        await recordExchange(
          ctx,
          {
            userId: input.userId,
            content: input.prompt,
            isAdvisor: false,
            mediaIds: [],
            inputKeys,
            batchSize: input.batchSize,
          },
          {
            id: messageId,
            userId: input.userId,
            content: batchSummary(saved.length, input.batchSize),
            isAdvisor: false,
            mediaIds: saved.map((row) => row.id),
            inputKeys: [],
            batchSize: input.batchSize,
          },
          (tx) => settle(tx, undeliveredTenths),
        );
      } catch (error) {
        // Refunded in full (payFor): nothing of this batch stays, neither its images nor its uploads.
        await Promise.all(saved.map((item) => discardMedia(ctx, item)));
        await discardUploadedInputs(ctx, inputKeys);
        throw error;
      }
      const missing = input.batchSize - saved.length;
      return {
        result: saved,
        undeliveredTenths,
        refundDescription: `Refund: ${missing} of ${input.batchSize} Studio images could not be made`,
      };
    },
  );
  const items = await Promise.all(result.map((row) => toGalleryItem(ctx, row)));
  return {
    success: true,
    images: items.map((item) => item.url),
    items,
    message_id: messageId,
    quota_info: await settledQuota(ctx, paid, refundedTenths),
  };
}

export async function askAdvisor(
  ctx: StudioContext,
  userId: string,
  prompt: string,
): Promise<AdvisorChatResponse> {
  const messageId = randomUUID();
  const { result: answer, paid } = await payFor(
    ctx,
    {
      userId,
      kind: "advisor",
      quantity: 1,
      description: `Studio advisor: ${prompt.slice(0, 80)}`,
      paidFor: messageId,
      refundDescription: "Refund: the advisor did not answer",
    },
    async (_paid, settle) => {
      const history = await recentStudioMessages(ctx.db, userId, ADVISOR_HISTORY_WINDOW, {
        advisorOnly: true,
      });
      let answer: string;
      try {
        answer = (
          await ctx.providers.text.complete({
            purpose: "advice",
            messages: buildAdvisorMessages(history, prompt),
            maxTokens: 600,
            temperature: 0.7,
          })
        ).trim();
        if (!answer) throw new ProviderError(ADVISOR_FAILED_DETAIL, true, "empty advisor answer");
      } catch (error) {
        ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "advisor failed");
        throw new ProviderUnavailable(error instanceof ProviderError ? error.message : ADVISOR_FAILED_DETAIL);
      }
      // Storing the exchange is part of the delivery: if it fails, payFor refunds the 0.5.
      const common = { userId, isAdvisor: true, mediaIds: [], inputKeys: [], batchSize: 1 };
      await recordExchange(
        ctx,
        { ...common, content: prompt },
        { ...common, id: messageId, content: answer },
        (tx) => settle(tx),
      );
      return { result: answer };
    },
  );
  return { success: true, response: answer, message_id: messageId, quota_info: paid.quotaInfo };
}

/** The Studio conversation, oldest first, with every message's images signed for this response. */
export async function studioHistory(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
): Promise<StudioMessage[]> {
  const rows = await recentStudioMessages(ctx.db, userId, STUDIO_HISTORY_LIMIT);
  const media = await ownedMediaByIds(
    ctx,
    userId,
    rows.flatMap((row) => row.mediaIds),
  );
  const items = new Map<string, GalleryItem>(
    await Promise.all(media.map(async (row) => [row.id, await toGalleryItem(ctx, row)] as const)),
  );
  // Inputs show in 48-px slots: a gallery picture's small thumbnail, never its 2K original.
  const small = await smallImageKeys(
    ctx,
    userId,
    rows.flatMap((row) => row.inputKeys),
  );
  return Promise.all(
    rows.map(async (row) => {
      // An item missing from the map no longer exists; the message keeps the rest.
      const imageItems = row.mediaIds.flatMap((id) => items.get(id) ?? []);
      return {
        id: row.id,
        role: row.role,
        content: row.content,
        images: imageItems.map((item) => item.url),
        image_items: imageItems,
        input_images: await Promise.all(
          row.inputKeys.map((key) => ctx.storage.signedUrl(small.get(key) ?? key)),
        ),
        isAdvisor: row.isAdvisor,
        batchSize: row.batchSize,
        timestamp: row.createdAt.toISOString(),
        ...(row.role === "assistant" && !row.isAdvisor ? { status: row.status } : {}),
      };
    }),
  );
}

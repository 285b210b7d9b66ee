// The Studio's rules: a batch of images from a prompt and input images (synchronous, as the spec's client
// waits for the images), the prompt advisor, and the conversation that records both. Inputs are checked
// before anything is charged; a user pays only for the images they received.
import { randomUUID } from "node:crypto";
import type { GalleryItem } from "@storyverse/contract/media";
import type { InputImage } from "@storyverse/contract/stories";
import {
  ADVISOR_HISTORY_WINDOW,
  type AdvisorChatResponse,
  STUDIO_HISTORY_LIMIT,
  type StudioGenerateResponse,
  type StudioMessage,
} from "@storyverse/contract/studio";
import { ProviderUnavailable } from "../chat/service";
import type { AppContext } from "../context";
import { type Charge, charge, fromTenths, refund, remainingCredits } from "../credits/service";
import { HttpError } from "../http/errors";
import { prepareReference } from "../media/images";
import { resolveInputImages } from "../media/inputs";
import type { MediaItemRow } from "../media/repo";
import { type MediaOrigin, saveImage, toGalleryItem } from "../media/service";
import { type MediaFile, ProviderError } from "../providers/types";
import { buildAdvisorMessages } from "./advisor-prompt";
import {
  findOwnedMediaByIds,
  insertStudioMessages,
  recentStudioMessages,
  type StudioMessageRow,
} from "./repo";

type StudioContext = Pick<AppContext, "db" | "clock" | "providers" | "storage" | "log">;

export const NO_IMAGES_DETAIL = "The image service returned no usable image. Please try again.";
const IMAGE_FAILED_DETAIL = "The image service could not make these images. Please try again.";
const ADVISOR_FAILED_DETAIL = "The advisor could not answer. Please try again.";

/** The user's message and the answer, stamped a millisecond apart so ordering never swaps them. */
async function recordExchange(
  ctx: Pick<AppContext, "db" | "clock">,
  user: Omit<StudioMessageRow, "id" | "role" | "createdAt">,
  answer: Omit<StudioMessageRow, "role" | "createdAt">,
) {
  const at = ctx.clock.now();
  await insertStudioMessages(ctx.db, [
    { ...user, role: "user", createdAt: at },
    { ...answer, role: "assistant", createdAt: new Date(at.getTime() + 1) },
  ]);
}

/** What the charge looks like after a refund: remaining read back, charged reduced. */
async function settledQuota(ctx: Pick<AppContext, "db">, paid: Charge, refundedTenths: number) {
  return {
    ...paid.quotaInfo,
    remaining: await remainingCredits(ctx.db, paid.userId),
    charged: fromTenths(paid.chargedTenths - refundedTenths),
  };
}

function batchSummary(made: number, asked: number): string {
  if (made === asked) return made === 1 ? "Here is your image." : `Here are your ${made} images.`;
  const missing = asked - made;
  return `Here ${made === 1 ? "is 1 image" : `are ${made} images`} of the ${asked} you asked for; the ${missing} that could not be made ${missing === 1 ? "was" : "were"} refunded.`;
}

export type GenerateInput = {
  userId: string;
  prompt: string;
  batchSize: number;
  inputImages: InputImage[];
};

export async function generateImages(
  ctx: StudioContext,
  input: GenerateInput,
): Promise<StudioGenerateResponse> {
  // Everything that can be the user's mistake is found before the charge: foreign or missing gallery items,
  // non-images, oversized or damaged uploads (400, nothing charged).
  const inputKeys = await resolveInputImages(ctx, input.userId, input.inputImages);
  const references: MediaFile[] = await Promise.all(
    inputKeys.map(async (key) => prepareReference(await ctx.storage.read(key))),
  );

  // The assistant message's id is fixed up front: gallery items point at it and refunds are keyed by it.
  const messageId = randomUUID();
  const refundReference = `studio-refund:${messageId}`;
  const paid = await charge(
    ctx.db,
    input.userId,
    "image",
    input.batchSize,
    ctx.clock.now(),
    `Studio: ${input.batchSize} image${input.batchSize === 1 ? "" : "s"}: ${input.prompt.slice(0, 80)}`,
  );

  let images: MediaFile[];
  try {
    images = await ctx.providers.image.generate({
      prompt: input.prompt,
      count: input.batchSize,
      references,
    });
  } catch (error) {
    await refund(
      ctx.db,
      input.userId,
      paid.chargedTenths,
      refundReference,
      ctx.clock.now(),
      "Refund: the Studio images could not be made",
    );
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
  // A vendor may send fewer images than asked, or bytes that are not an image; each is judged on its own.
  const settled = await Promise.allSettled(
    images.slice(0, input.batchSize).map((image) => saveImage(ctx, ctx.db, origin, image.data)),
  );
  const saved: MediaItemRow[] = [];
  let ownFailure: unknown;
  for (const result of settled) {
    if (result.status === "fulfilled") saved.push(result.value);
    else {
      ctx.log.warn({ err: result.reason }, "a studio image could not be saved");
      // inspectImage's 400 means the vendor sent junk; anything else is our own storage or database failing.
      if (!(result.reason instanceof HttpError)) ownFailure ??= result.reason;
    }
  }

  const missing = input.batchSize - saved.length;
  const refundedTenths = Math.round((paid.chargedTenths * missing) / input.batchSize);
  if (missing > 0) {
    await refund(
      ctx.db,
      input.userId,
      refundedTenths,
      refundReference,
      ctx.clock.now(),
      `Refund: ${missing} of ${input.batchSize} Studio images could not be made`,
    );
  }
  if (saved.length === 0) {
    if (ownFailure) throw ownFailure;
    throw new ProviderUnavailable(NO_IMAGES_DETAIL);
  }

  const mediaIds = saved.map((row) => row.id);
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
      mediaIds,
      inputKeys: [],
      batchSize: input.batchSize,
    },
  );
  const items = await Promise.all(saved.map((row) => toGalleryItem(ctx, row)));
  return {
    success: true,
    images: items.map((item) => item.url),
    items,
    message_id: messageId,
    quota_info: await settledQuota(ctx, paid, missing > 0 ? refundedTenths : 0),
  };
}

export async function askAdvisor(
  ctx: StudioContext,
  userId: string,
  prompt: string,
): Promise<AdvisorChatResponse> {
  const messageId = randomUUID();
  const paid = await charge(
    ctx.db,
    userId,
    "advisor",
    1,
    ctx.clock.now(),
    `Studio advisor: ${prompt.slice(0, 80)}`,
  );
  const history = await recentStudioMessages(ctx.db, userId, ADVISOR_HISTORY_WINDOW, { advisorOnly: true });

  let answer: string;
  try {
    answer = (
      await ctx.providers.text.complete({
        messages: buildAdvisorMessages(history, prompt),
        maxTokens: 600,
        temperature: 0.7,
      })
    ).trim();
    if (!answer) throw new ProviderError(ADVISOR_FAILED_DETAIL, true, "empty advisor answer");
  } catch (error) {
    await refund(
      ctx.db,
      userId,
      paid.chargedTenths,
      `advisor-refund:${messageId}`,
      ctx.clock.now(),
      "Refund: the advisor did not answer",
    );
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "advisor failed");
    throw new ProviderUnavailable(error instanceof ProviderError ? error.message : ADVISOR_FAILED_DETAIL);
  }

  const common = { userId, isAdvisor: true, mediaIds: [], inputKeys: [], batchSize: 1 };
  await recordExchange(ctx, { ...common, content: prompt }, { ...common, id: messageId, content: answer });
  return { success: true, response: answer, message_id: messageId, quota_info: paid.quotaInfo };
}

/** The Studio conversation, oldest first, with every message's images signed for this response. */
export async function studioHistory(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
): Promise<StudioMessage[]> {
  const rows = await recentStudioMessages(ctx.db, userId, STUDIO_HISTORY_LIMIT);
  const media = await findOwnedMediaByIds(
    ctx.db,
    userId,
    rows.flatMap((row) => row.mediaIds),
  );
  const items = new Map<string, GalleryItem>(
    await Promise.all(media.map(async (row) => [row.id, await toGalleryItem(ctx, row)] as const)),
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
        input_images: await Promise.all(row.inputKeys.map((key) => ctx.storage.signedUrl(key))),
        isAdvisor: row.isAdvisor,
        batchSize: row.batchSize,
        timestamp: row.createdAt.toISOString(),
      };
    }),
  );
}

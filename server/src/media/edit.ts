// Editing a picture (issue 45 item 1, decision 0145): inpaint a masked region, outpaint a side, vary subtly or
// strongly, upscale x2. Everything that can be the player's mistake (another player's item, a clip, a missing
// or wrong-sized mask, a kind the configured painter cannot make) is refused before the charge; the edit then
// runs through payFor like a Studio batch, so the charge has one outcome: the new picture (a gallery item that
// knows its parent and its seed, stored in the transaction that settles the charge) or a full refund.
import { randomInt, randomUUID } from "node:crypto";
import type { GalleryItem } from "@storyverse/contract/media";
import {
  EDIT_PRICE_KIND,
  type MediaEditRequest,
  type MediaEditResponse,
} from "@storyverse/contract/media-edit";
import type { AppContext } from "../context";
import { assertCovers, fromTenths, payFor, remainingCredits, withHeavySlot } from "../credits";
import { InvalidInput, NotFound, ProviderUnavailable } from "../platform/errors";
import { type MediaFile, ProviderError } from "../providers/types";
import { decodeDataUrl, inspectImage } from "./images";
import { assertStorageAvailable } from "./quota";
import { findOwnedById, findOwnedByKey, type MediaItemRow } from "./repo";
import { saveImage, toGalleryItem } from "./service";

type EditContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "storage" | "log" | "config" | "spendingCaps"
>;

export const EDIT_ITEM_NOT_FOUND = "This picture is not in your Gallery.";
export const EDIT_FAILED_DETAIL = "The image service could not edit this picture. Please try again.";
const NOT_A_PICTURE = "Only pictures can be edited.";
const MASK_NEEDED = "Brush over the part to repaint first: an inpaint needs a mask.";
const PROMPT_NEEDED = "Say what to paint: an inpaint or an extension needs a prompt.";

const LABEL: Record<MediaEditRequest["kind"], string> = {
  inpaint: "a repainted region",
  outpaint: "an extended canvas",
  vary: "a variation",
  upscale: "upscaled x2",
};

export async function editPicture(
  ctx: EditContext,
  userId: string,
  id: string,
  input: MediaEditRequest,
): Promise<MediaEditResponse> {
  return withHeavySlot(userId, () => runEdit(ctx, userId, id, input));
}

async function runEdit(
  ctx: EditContext,
  userId: string,
  id: string,
  input: MediaEditRequest,
): Promise<MediaEditResponse> {
  const priceKind = EDIT_PRICE_KIND[input.kind];
  const parent = await findOwnedById(ctx.db, userId, id);
  if (!parent) throw new NotFound(EDIT_ITEM_NOT_FOUND);
  if (parent.kind !== "image") throw new InvalidInput(NOT_A_PICTURE);
  const provider = ctx.providers.image;
  if (!provider.edit || !provider.editKinds?.includes(input.kind)) {
    throw new InvalidInput(
      `The configured image service (${provider.name}) cannot make ${LABEL[input.kind]}.`,
    );
  }
  await assertCovers(ctx, userId, priceKind, 1);
  await assertStorageAvailable(ctx, userId, 0);
  const prompt = input.prompt?.trim() || parent.description;
  if ((input.kind === "inpaint" || input.kind === "outpaint") && !prompt)
    throw new InvalidInput(PROMPT_NEEDED);
  const mask = input.kind === "inpaint" ? await checkMask(input.mask, parent) : undefined;
  const seed = input.seed ?? randomInt(0, 2 ** 32 - 1);
  const image: MediaFile = { data: await ctx.storage.read(parent.storageKey), mimeType: parent.mimeType };

  const editId = randomUUID();
  const { result, paid } = await payFor(
    ctx,
    {
      userId,
      kind: priceKind,
      quantity: 1,
      description: `Edit: ${LABEL[input.kind]}: ${prompt.slice(0, 80)}`,
      paidFor: editId,
      refundDescription: "Refund: the picture could not be edited",
    },
    async (_charged, settle) => {
      let edited: MediaFile;
      try {
        edited = await provider.edit!({
          kind: input.kind,
          image,
          prompt,
          ...(mask ? { mask } : {}),
          ...(input.kind === "outpaint" ? { direction: input.direction ?? "right" } : {}),
          ...(input.kind === "vary" ? { strength: input.strength ?? "subtle" } : {}),
          seed,
        });
      } catch (error) {
        ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "picture edit failed");
        throw new ProviderUnavailable(error instanceof ProviderError ? error.message : EDIT_FAILED_DETAIL);
      }
      // The new item and the charge's "delivered" commit together (payFor's settle); if that transaction
      // fails, the row is not kept and payFor refunds (files already written are the orphan sweep's).
      const saved = await ctx.db.transaction(async (tx) => {
        const row = await saveImage(
          ctx,
          tx,
          {
            userId,
            source: parent.source,
            storyId: parent.storyId,
            storyTitle: parent.storyTitle,
            messageId: null,
            description: prompt,
            seed,
            parentId: parent.id,
          },
          edited.data,
        );
        await settle(tx);
        return row;
      });
      return { result: saved };
    },
  );
  return {
    success: true,
    item: await toGalleryItem(ctx, result),
    quota_info: {
      ...paid.quotaInfo,
      remaining: await remainingCredits(ctx.db, userId),
      charged: fromTenths(paid.chargedTenths),
    },
  };
}

/** The mask as PNG bytes of the picture's size, or a 400 that says what is wrong. */
async function checkMask(value: string | undefined, parent: MediaItemRow): Promise<Buffer> {
  if (!value) throw new InvalidInput(MASK_NEEDED);
  const { data } = decodeDataUrl(value);
  const info = await inspectImage(data);
  if (info.mimeType !== "image/png") throw new InvalidInput("The mask must be a PNG.");
  if (info.width !== parent.width || info.height !== parent.height) {
    throw new InvalidInput(
      `The mask is ${info.width}x${info.height}; it must be the picture's size, ${parent.width}x${parent.height}.`,
    );
  }
  return data;
}

/** The player's gallery item behind a URL the storage signed (its original's or thumbnail's), or a 404. */
export async function galleryItemByUrl(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  url: string,
): Promise<GalleryItem> {
  const key = ctx.storage.keyFromUrl(url);
  const row = key ? await findOwnedByKey(ctx.db, userId, key) : undefined;
  if (!row) throw new NotFound(EDIT_ITEM_NOT_FOUND);
  return toGalleryItem(ctx, row);
}

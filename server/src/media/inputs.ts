// Input images for a generation (selected story images, Studio inputs): each must be one of the user's own
// media (by a URL we signed) or an uploaded data: URL, which is checked by content and stored. Returns
// storage keys the media job can read; anything else is a 400 and nothing is charged.
import { randomUUID } from "node:crypto";
import type { InputImage } from "@storyverse/contract/stories";
import type { AppContext } from "../context";
import { BadRequest } from "../http/errors";
import { decodeDataUrl, inspectImage } from "./images";
import { findOwnedById, findOwnedByKey } from "./repo";

const extension: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

export async function resolveInputImages(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  inputs: InputImage[],
): Promise<string[]> {
  const keys: string[] = [];
  for (const input of inputs) {
    const value = typeof input === "string" ? input : "url" in input ? input.url : input.data;
    if (value.startsWith("data:")) {
      const decoded = decodeDataUrl(value);
      const info = await inspectImage(decoded.data);
      const key = `u/${userId}/inputs/${randomUUID()}.${extension[info.mimeType] ?? "img"}`;
      await ctx.storage.put(key, decoded.data, info.mimeType);
      keys.push(key);
      continue;
    }
    const key = ctx.storage.keyFromUrl(value);
    const byKey = key ? await findOwnedByKey(ctx.db, userId, key) : undefined;
    // A gallery item may also be named by its id (the Studio's picker sends ids).
    const item =
      byKey ?? (/^[0-9a-f-]{36}$/i.test(value) ? await findOwnedById(ctx.db, userId, value) : undefined);
    if (item?.kind !== "image") {
      throw new BadRequest(
        "One of the selected images is not yours or no longer exists. Please select it again.",
      );
    }
    keys.push(item.storageKey);
  }
  return keys;
}

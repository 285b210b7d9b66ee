// Input images for a generation (selected story images, Studio inputs): each must be one of the user's own
// media (by a URL we signed) or an uploaded data: URL, which is checked by content. Checking happens in
// memory and before the charge (anything wrong is a 400 and nothing is charged or stored); uploads reach
// storage only once the request is paid for, and a request that then fails deletes them again.
import { randomUUID } from "node:crypto";
import { type InputImage, inputImageRole, type ReferenceRole } from "@storyverse/contract/stories";
import type { AppContext } from "../context";
import { InvalidInput } from "../platform/errors";
import { decodeDataUrl, inspectImage } from "./images";
import { assertStorageAvailable } from "./quota";
import { findOwnedById, findOwnedByKey } from "./repo";

const extension: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

/** A checked input: one of the user's stored images, or an upload not stored yet; with its role (decision 0161). */
export type CheckedInput = ({ key: string } | { upload: Buffer; mimeType: string }) & {
  role?: ReferenceRole;
};

const UPLOAD_PREFIX = "/inputs/";

export async function checkInputImages(
  ctx: Pick<AppContext, "db" | "storage" | "config">,
  userId: string,
  inputs: InputImage[],
): Promise<CheckedInput[]> {
  const checked: CheckedInput[] = [];
  for (const input of inputs) {
    const value = typeof input === "string" ? input : "url" in input ? input.url : input.data;
    if (value.startsWith("data:")) {
      const decoded = decodeDataUrl(value);
      const info = await inspectImage(decoded.data);
      checked.push({ upload: decoded.data, mimeType: info.mimeType, role: inputImageRole(input) });
      continue;
    }
    const key = ctx.storage.keyFromUrl(value);
    const byKey = key ? await findOwnedByKey(ctx.db, userId, key) : undefined;
    // A gallery item may also be named by its id (the Studio's picker sends ids).
    const item =
      byKey ?? (/^[0-9a-f-]{36}$/i.test(value) ? await findOwnedById(ctx.db, userId, value) : undefined);
    if (item?.kind !== "image") {
      throw new InvalidInput(
        "One of the selected images is not yours or no longer exists. Please select it again.",
      );
    }
    checked.push({ key: item.storageKey, role: inputImageRole(input) });
  }
  // Uploads that would pass the storage quota are refused here, before the charge (decision 0122).
  const uploadBytes = checked.reduce((sum, input) => sum + ("upload" in input ? input.upload.length : 0), 0);
  if (uploadBytes > 0) await assertStorageAvailable(ctx, userId, uploadBytes);
  return checked;
}

/** Stores the uploads among `inputs` (call only after the charge); the storage keys of every input, in order. */
export async function storeInputImages(
  ctx: Pick<AppContext, "storage">,
  userId: string,
  inputs: CheckedInput[],
): Promise<string[]> {
  const keys: string[] = [];
  try {
    for (const input of inputs) {
      if ("key" in input) {
        keys.push(input.key);
        continue;
      }
      const key = `u/${userId}${UPLOAD_PREFIX}${randomUUID()}.${extension[input.mimeType] ?? "img"}`;
      keys.push(key);
      await ctx.storage.put(key, input.upload, input.mimeType);
    }
  } catch (error) {
    await discardUploadedInputs(ctx, keys);
    throw error;
  }
  return keys;
}

/** Deletes the uploads among `keys` (never a gallery item), for a request that failed or was refunded. */
export async function discardUploadedInputs(ctx: Pick<AppContext, "storage">, keys: string[]): Promise<void> {
  await Promise.all(
    keys
      .filter((key) => key.includes(UPLOAD_PREFIX))
      .map((key) => ctx.storage.delete(key).catch(() => undefined)),
  );
}

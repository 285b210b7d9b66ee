// Media links are signed and their signatures change every expiry window, so browser tests compare what
// identifies the media, never the signed URL whole (see server/src/media/storage/media-identity.ts).
import type { Locator } from "@playwright/test";
import { expect } from "@playwright/test";
import { mediaIdentity } from "../../server/src/media/storage/media-identity";

export { mediaIdentity };

/** Waits until the element's `src` points at the same media as `url`, whatever window either was signed in. */
export async function expectSameMediaSrc(element: Locator, url: string): Promise<void> {
  await expect
    .poll(async () => mediaIdentity((await element.getAttribute("src")) ?? ""))
    .toBe(mediaIdentity(url));
}

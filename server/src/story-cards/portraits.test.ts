// What is kept of an uploaded portrait, whatever is sent: upright WebP, at most PORTRAIT_MAX_EDGE px and
// PORTRAIT_MAX_STORED_BYTES, never enlarged, even for pictures of pure noise that hardly compress.

import { randomBytes } from "node:crypto";
import { PORTRAIT_MAX_EDGE } from "@storyverse/contract/story-cards";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodePortrait, PORTRAIT_MAX_STORED_BYTES } from "./portraits";

const noise = (width: number, height: number, channels: 3 | 4) =>
  sharp(randomBytes(width * height * channels), { raw: { width, height, channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();

describe("encodePortrait", () => {
  it.each([
    ["noise", 1700, 1200, 3 as const],
    ["noise with transparency", 1500, 1500, 4 as const],
  ])("keeps %s within the size and byte bounds", async (_, width, height, channels) => {
    const kept = await encodePortrait(await noise(width, height, channels));
    const meta = await sharp(kept.data).metadata();
    expect(kept.mimeType).toBe("image/webp");
    expect(meta.format).toBe("webp");
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(PORTRAIT_MAX_EDGE);
    expect(kept.data.length).toBeLessThanOrEqual(PORTRAIT_MAX_STORED_BYTES);
    if (channels === 4) expect(meta.hasAlpha).toBe(true);
  });

  it("shrinks a large photo to 1024 px on its long side, upright, and never enlarges a small one", async () => {
    // A 4000 x 3000 picture stored on its side (EXIF orientation 6): kept 768 wide, 1024 tall.
    const sideways = await sharp({
      create: { width: 4000, height: 3000, channels: 3, background: "#884422" },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const big = await sharp((await encodePortrait(sideways)).data).metadata();
    expect([big.width, big.height]).toEqual([768, 1024]);
    const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#224488" } })
      .png()
      .toBuffer();
    const kept = await sharp((await encodePortrait(small)).data).metadata();
    expect([kept.width, kept.height]).toEqual([40, 30]);
  });
});

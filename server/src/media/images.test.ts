import { IMAGE_FILES_ONLY_MESSAGE } from "@storyverse/contract/studio";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { asHttpError } from "../http/errors";
import {
  DAMAGED_IMAGE_DETAIL,
  decodeDataUrl,
  IMAGE_TOO_BIG_DETAIL,
  inspectImage,
  MAX_IMAGE_BYTES,
  makeThumbnail,
  TOO_MANY_PIXELS_DETAIL,
} from "./images";

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
}

async function rejection(promise: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await promise;
  } catch (error) {
    if (asHttpError(error))
      return { status: asHttpError(error)!.statusCode, detail: asHttpError(error)!.detail };
    throw error;
  }
  throw new Error("expected a rejection");
}

function syncRejection(run: () => unknown): { status: number; detail: string } {
  try {
    run();
  } catch (error) {
    if (asHttpError(error))
      return { status: asHttpError(error)!.statusCode, detail: asHttpError(error)!.detail };
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("inspectImage", () => {
  it("accepts PNG, JPEG, WebP and GIF by content, with their dimensions", async () => {
    const cases = [
      [await solid(300, 200).png().toBuffer(), "image/png"],
      [await solid(300, 200).jpeg().toBuffer(), "image/jpeg"],
      [await solid(300, 200).webp().toBuffer(), "image/webp"],
      [await solid(300, 200).gif().toBuffer(), "image/gif"],
    ] as const;
    for (const [data, mimeType] of cases) {
      expect(await inspectImage(data)).toEqual({ mimeType, width: 300, height: 200 });
    }
  });

  it("reports the upright size of a rotated JPEG", async () => {
    const rotated = await solid(300, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await inspectImage(rotated)).toEqual({ mimeType: "image/jpeg", width: 200, height: 300 });
  });

  it("rejects a text file whatever its name, and empty or unsupported data", async () => {
    const textNamedPng = Buffer.from("hello, this is not a picture.png\n");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    const tiff = await solid(10, 10).tiff().toBuffer();
    for (const data of [textNamedPng, Buffer.alloc(0), svg, tiff]) {
      expect(await rejection(inspectImage(data))).toEqual({ status: 400, detail: IMAGE_FILES_ONLY_MESSAGE });
    }
    expect(IMAGE_FILES_ONLY_MESSAGE).toBe("Please select image files only.");
  });

  it("rejects a truncated image whose header looks fine", async () => {
    const full = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7) % 251)), {
      raw: { width: 300, height: 300, channels: 3 },
    })
      .png()
      .toBuffer();
    const truncated = full.subarray(0, Math.floor(full.length / 2));
    expect(await rejection(inspectImage(truncated))).toEqual({ status: 400, detail: DAMAGED_IMAGE_DETAIL });
  });

  it("rejects files over 10 MB", async () => {
    const big = Buffer.concat([await solid(10, 10).png().toBuffer(), Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(await rejection(inspectImage(big))).toEqual({ status: 400, detail: IMAGE_TOO_BIG_DETAIL });
    expect(IMAGE_TOO_BIG_DETAIL).toBe("Each image must be 10 MB or smaller.");
  });

  describe("decompression bomb", () => {
    let bomb: Buffer;
    beforeAll(async () => {
      // 144 million black pixels in a few hundred KB. Encoded from raw grey bytes because that is several
      // times faster than create() with three channels, and the file is the same kind of bomb.
      const side = 12_000;
      bomb = await sharp(Buffer.alloc(side * side), { raw: { width: side, height: side, channels: 1 } })
        .png({ compressionLevel: 6, adaptiveFiltering: false })
        .toBuffer();
    });

    it("is refused from its header, quickly", async () => {
      expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
      const started = performance.now();
      expect(await rejection(inspectImage(bomb))).toEqual({ status: 400, detail: TOO_MANY_PIXELS_DETAIL });
      expect(performance.now() - started).toBeLessThan(2000);
    });

    it("is never decoded into a thumbnail either", async () => {
      const started = performance.now();
      await expect(makeThumbnail(bomb)).rejects.toThrow(/pixel limit/);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});

describe("decodeDataUrl", () => {
  it("decodes base64 image data URLs, tolerating wrapped lines", async () => {
    const png = await solid(4, 4).png().toBuffer();
    const base64 = png.toString("base64");
    expect(decodeDataUrl(`data:image/png;base64,${base64}`)).toEqual({
      declaredType: "image/png",
      data: png,
    });
    // The declared type is a claim only; the bytes are what inspectImage judges.
    expect(decodeDataUrl(`data:image/jpeg;name=x.jpg;base64,${base64}`)).toEqual({
      declaredType: "image/jpeg",
      data: png,
    });
    const wrapped = base64.replace(/(.{20})/g, "$1\r\n");
    expect(decodeDataUrl(`DATA:IMAGE/PNG;BASE64,${wrapped}`).data.equals(png)).toBe(true);
  });

  it("rejects other schemes and types", () => {
    for (const value of [
      "https://example.com/a.png",
      "data:text/plain;base64,aGVsbG8=",
      "data:image/png,rawdata",
      "data:image/png;base64",
      "data:;base64,aGVsbG8=",
      "javascript:alert(1)",
      "",
    ]) {
      expect(
        syncRejection(() => decodeDataUrl(value)),
        value,
      ).toEqual({
        status: 400,
        detail: IMAGE_FILES_ONLY_MESSAGE,
      });
    }
  });

  it("rejects malformed base64", () => {
    for (const payload of ["", "a", "abc$", "ab=c", "abcd==="]) {
      expect(
        syncRejection(() => decodeDataUrl(`data:image/png;base64,${payload}`)),
        payload,
      ).toEqual({
        status: 400,
        detail: DAMAGED_IMAGE_DETAIL,
      });
    }
  });

  it("rejects data over 10 MB before decoding it", () => {
    const payload = "A".repeat(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 8);
    expect(syncRejection(() => decodeDataUrl(`data:image/png;base64,${payload}`))).toEqual({
      status: 400,
      detail: IMAGE_TOO_BIG_DETAIL,
    });
  });
});

describe("makeThumbnail", () => {
  it("fits a large image inside 512 x 512 as webp, keeping the aspect ratio", async () => {
    const thumbnail = await makeThumbnail(await solid(2048, 1024).png().toBuffer());
    const metadata = await sharp(thumbnail).metadata();
    expect(metadata.format).toBe("webp");
    expect([metadata.width, metadata.height]).toEqual([512, 256]);
  });

  it("fits a tall image by its height", async () => {
    const metadata = await sharp(await makeThumbnail(await solid(600, 2400).jpeg().toBuffer())).metadata();
    expect([metadata.width, metadata.height]).toEqual([128, 512]);
  });

  it("never enlarges a small image", async () => {
    const metadata = await sharp(await makeThumbnail(await solid(100, 60).png().toBuffer())).metadata();
    expect(metadata.format).toBe("webp");
    expect([metadata.width, metadata.height]).toEqual([100, 60]);
  });

  it("turns a rotated photo upright", async () => {
    const rotated = await solid(1000, 500).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const metadata = await sharp(await makeThumbnail(rotated)).metadata();
    expect([metadata.width, metadata.height]).toEqual([256, 512]);
  });
});

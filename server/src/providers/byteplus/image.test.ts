import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BytePlusFake, startBytePlusFake } from "../../../test/fakes/byteplus-fake";
import { sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { toDataUrl, userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createBytePlusImageProvider } from "./image";

let fake: BytePlusFake;
let images: ImageProvider;
let quick: ImageProvider;

function provider(options: { timeoutMs?: number; apiKey?: string; model?: string } = {}): ImageProvider {
  return createBytePlusImageProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model ?? "seedream-4-0-250828",
    timeoutMs: options.timeoutMs ?? 5000,
  });
}

beforeAll(async () => {
  fake = await startBytePlusFake();
  images = provider();
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider({ timeoutMs: 300 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.images.itemErrors = "none";
});

describe("BytePlus Seedream 4 images", () => {
  it("asks for one 2K picture without a watermark and downloads it", async () => {
    const result = await images.generate({ prompt: "a lighthouse at dusk", count: 1, references: [] });
    expect(result).toHaveLength(1);
    expect(result[0]?.mimeType).toBe("image/png");
    await expect(sharp(result[0]!.data).metadata()).resolves.toMatchObject({ format: "png", width: 96 });
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/v3/images/generations");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toEqual({
      model: "seedream-4-0-250828",
      prompt: "a lighthouse at dusk",
      size: "2K",
      sequential_image_generation: "disabled",
      response_format: "url",
      watermark: false,
    });
    // Result links are pre-signed: the key must not travel with the download.
    expect(fake.downloads).toHaveLength(1);
    expect(fake.downloads[0]?.headers.authorization).toBeUndefined();
  });

  it("asks for a story's scene shape as Seedream's recommended 2K size", async () => {
    await images.generate({ prompt: "a pier", count: 1, references: [], aspectRatio: "16:9" });
    await images.generate({ prompt: "a tower", count: 1, references: [], aspectRatio: "3:4" });
    expect(fake.requests.map((r) => (r.json as { size: string }).size)).toEqual(["2560x1440", "1728x2304"]);
  });

  it("asks for each of the six shapes at Seedream's 2K size and passes the seed on, folded to 31 bits", async () => {
    expect(images.takesSeed).toBe(true);
    for (const aspectRatio of ["1:1", "4:3", "3:4", "16:9", "9:16", "21:9"] as const) {
      await images.generate({ prompt: "a pier", count: 1, references: [], aspectRatio, seed: 4_294_967_295 });
    }
    expect(fake.requests.map((r) => (r.json as { size: string }).size)).toEqual([
      "2048x2048",
      "2304x1728",
      "1728x2304",
      "2560x1440",
      "1440x2560",
      "3024x1296",
    ]);
    // The fake refuses a seed outside ModelArk's -1..2147483647: every request above passed.
    expect(fake.requests.map((r) => (r.json as { seed: number }).seed)).toEqual(Array(6).fill(2_147_483_647));
    fake.reset();
    await images.generate({ prompt: "a pier", count: 1, references: [], seed: 42 });
    expect(fake.requests[0]?.json).toMatchObject({ seed: 42, size: "2K" });
  });

  it("sends references as data URLs and asks for a set of `count` pictures", async () => {
    const references = [await sampleReference("#ff0000"), await sampleReference("#0000ff")];
    const result = await images.generate({ prompt: "the knight again", count: 3, references });
    expect(result).toHaveLength(3);
    expect(fake.requests[0]?.json).toMatchObject({
      image: references.map(toDataUrl),
      sequential_image_generation: "auto",
      sequential_image_generation_options: { max_images: 3 },
      size: "2K",
      watermark: false,
    });
    expect(String((fake.requests[0]!.json as { image: string[] }).image[0])).toMatch(
      /^data:image\/png;base64,/,
    );
  });

  it("accepts ten references and refuses an eleventh before calling the vendor", async () => {
    const reference = await sampleReference();
    await expect(
      images.generate({ prompt: "x", count: 1, references: Array.from({ length: 10 }, () => reference) }),
    ).resolves.toHaveLength(1);
    fake.reset();
    const error = await catchProviderError(
      images.generate({ prompt: "x", count: 1, references: Array.from({ length: 11 }, () => reference) }),
    );
    expect(error.message).toMatch(/^The AI provider rejected the request: at most 10 reference images/);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });

  it("returns the pictures that were made when some items failed", async () => {
    fake.images.itemErrors = "some";
    const result = await images.generate({ prompt: "x", count: 3, references: [] });
    expect(result).toHaveLength(2);
  });

  it("explains a refusal of every item without retrying it", async () => {
    fake.images.itemErrors = "all";
    const error = await catchProviderError(images.generate({ prompt: "x", count: 2, references: [] }));
    expect(error.message).toMatch(
      /^The AI provider could not make this image: The request failed because the output image may contain sensitive information\./,
    );
    // The request id is internal detail.
    expect(error.message).not.toMatch(/0217180678/);
    expect(error.retryable).toBe(false);
    expect(error.internal).toContain("OutputImageSensitiveContentDetected");
  });

  it("passes ModelArk's reason for a 400 on", async () => {
    fake.failNext({
      status: 400,
      code: "InvalidParameter",
      message: "The parameter `size` specified is not valid.",
    });
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(
      "The AI provider rejected the request: The parameter `size` specified is not valid.",
    );
    expect(error.internal).toContain("InvalidParameter");
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : images;
    const error = await catchProviderError(subject.generate({ prompt: "x", count: 1, references: [] }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("says the provider is misconfigured for a wrong key or an unknown model", async () => {
    const wrongKey = "ark-wrong-0123456789abcdefghij";
    const keyError = await catchProviderError(
      provider({ apiKey: wrongKey }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(keyError.message).toBe(userMessages.misconfigured);
    expectNoSecrets(keyError, { apiKey: wrongKey, baseUrl: fake.baseUrl });
    const modelError = await catchProviderError(
      provider({ model: "missing-seedream" }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(modelError.message).toBe(userMessages.misconfigured);
    expect(modelError.internal).toContain("InvalidEndpointOrModel.NotFound");
  });

  it("says so when a result link cannot be downloaded", async () => {
    fake.failNext({ status: 404 }, "/files/");
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.download);
    expect(error.retryable).toBe(true);
  });

  it("times out a result download that never arrives", async () => {
    fake.failNext("hang", "/files/");
    const error = await catchProviderError(quick.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.timeout);
  });

  it("refuses a result that is not an image", async () => {
    fake.failNext("html", "/files/");
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.malformed);
  });
});

describe("Seedream 4 edits on ModelArk (decision 0162)", () => {
  const pixels = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sent = (index = 0) => fake.requests[index]!.json as Record<string, unknown>;
  const sentImage = (index = 0) =>
    Buffer.from(String((sent(index).image as string[])[0]).replace(/^data:image\/png;base64,/, ""), "base64");
  const picture = async () => ({
    data: await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0000ff" } })
      .png()
      .toBuffer(),
    mimeType: "image/png",
  });

  it("declares a variation and an extension only: Seedream takes no mask and does not upscale", () => {
    expect(images.editKinds).toEqual(["outpaint", "vary"]);
  });

  it("varies by sending the picture as `image` with the strength in the prompt, at 2K in its proportions", async () => {
    const image = await picture();
    const result = await images.edit!({
      kind: "vary",
      image,
      prompt: "a blue sea",
      strength: "subtle",
      seed: 7,
    });
    expect(fake.requests[0]?.path).toBe("/api/v3/images/generations");
    expect(sent()).toMatchObject({
      model: "seedream-4-0-250828",
      image: [`data:image/png;base64,${image.data.toString("base64")}`],
      size: "2368x1776",
      seed: 7,
      sequential_image_generation: "disabled",
      response_format: "url",
      watermark: false,
    });
    expect(String(sent().prompt)).toMatch(/^Make a close variation of this picture.*The scene: a blue sea$/);
    await images.edit!({ kind: "vary", image, prompt: "a blue sea", strength: "strong", seed: 2 ** 32 - 1 });
    expect(String(sent(1).prompt)).toMatch(/^Make a bold variation/);
    expect(sent(1).seed).toBe(0x7fffffff);
    // The answer comes back at the picture's own size.
    expect(await sharp(result.data).metadata()).toMatchObject({ format: "png", width: 64, height: 48 });
  });

  it("extends by padding the canvas with a grey strip to paint, and keeps the original's pixels exactly", async () => {
    const image = await picture();
    const result = await images.edit!({
      kind: "outpaint",
      image,
      prompt: "more sea",
      direction: "right",
      seed: 1,
    });
    expect(String(sent().prompt)).toMatch(/grey strip at its right edge.*more sea$/);
    expect(sent().size).toBe("2640x1584");
    const canvas = await pixels(sentImage());
    expect([canvas.info.width, canvas.info.height]).toEqual([80, 48]);
    expect([...canvas.data.subarray((10 * 80 + 5) * 3, (10 * 80 + 5) * 3 + 3)]).toEqual([0, 0, 255]);
    expect([...canvas.data.subarray((10 * 80 + 75) * 3, (10 * 80 + 75) * 3 + 3)]).toEqual([128, 128, 128]);

    const out = await pixels(result.data);
    expect([out.info.width, out.info.height]).toEqual([80, 48]);
    const original = await pixels(image.data);
    for (let y = 0; y < 48; y++) {
      expect(out.data.subarray(y * 80 * 3, (y * 80 + 64) * 3)).toEqual(
        original.data.subarray(y * 64 * 3, (y + 1) * 64 * 3),
      );
    }
    // The new strip is Seedream's (the fake paints #884422).
    expect([...out.data.subarray((10 * 80 + 75) * 3, (10 * 80 + 75) * 3 + 3)]).toEqual([0x88, 0x44, 0x22]);
  });

  it("extends upwards on a canvas grown at the top", async () => {
    const result = await images.edit!({
      kind: "outpaint",
      image: await picture(),
      prompt: "sky",
      direction: "up",
      seed: 1,
    });
    expect(String(sent().prompt)).toMatch(/at its top edge/);
    expect(await sharp(result.data).metadata()).toMatchObject({ width: 64, height: 60 });
    const out = await pixels(result.data);
    expect([...out.data.subarray((2 * 64 + 5) * 3, (2 * 64 + 5) * 3 + 3)]).toEqual([0x88, 0x44, 0x22]);
    expect([...out.data.subarray((40 * 64 + 5) * 3, (40 * 64 + 5) * 3 + 3)]).toEqual([0, 0, 255]);
  });

  it("explains a refused edit without retrying it, and refuses an inpaint before calling ModelArk", async () => {
    fake.images.itemErrors = "all";
    const error = await catchProviderError(
      images.edit!({ kind: "vary", image: await picture(), prompt: "x", strength: "subtle", seed: 1 }),
    );
    expect(error.message).toMatch(/^The AI provider could not make this image: The request failed because/);
    expect(error.retryable).toBe(false);
    fake.reset();
    const inpaint = await catchProviderError(
      images.edit!({ kind: "inpaint", image: await picture(), prompt: "x", seed: 1 }),
    );
    expect(inpaint.retryable).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });
});

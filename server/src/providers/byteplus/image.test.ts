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

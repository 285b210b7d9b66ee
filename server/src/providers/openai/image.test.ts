import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readMultipart } from "../../../test/fakes/fake-server";
import { sampleReference } from "../../../test/fakes/media";
import { type OpenAIFake, startOpenAIFake } from "../../../test/fakes/openai-fake";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createOpenAIImageProvider } from "./image";

let fake: OpenAIFake;
let quick: ImageProvider;
let images: ImageProvider;

function provider(timeoutMs: number, apiKey = fake.apiKey): ImageProvider {
  return createOpenAIImageProvider({
    vendor: "openai",
    apiKey,
    baseUrl: fake.baseUrl,
    model: "gpt-image-1",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startOpenAIFake();
  images = provider(5000);
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider(300);
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

describe("OpenAI images", () => {
  it("generates n pictures from a prompt and decodes them into real PNGs", async () => {
    const result = await images.generate({ prompt: "a lighthouse at dusk", count: 2, references: [] });
    expect(result).toHaveLength(2);
    for (const image of result) {
      expect(image.mimeType).toBe("image/png");
      expect(image.data.equals(fake.png)).toBe(true);
      await expect(sharp(image.data).metadata()).resolves.toMatchObject({ format: "png", width: 64 });
    }
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/images/generations");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toEqual({
      model: "gpt-image-1",
      prompt: "a lighthouse at dusk",
      n: 2,
      size: "1536x1024",
    });
  });

  it("asks for the portrait size for a story's 3:4 scenes, the landscape one for 16:9", async () => {
    await images.generate({ prompt: "a tower", count: 1, references: [], aspectRatio: "3:4" });
    await images.generate({ prompt: "a pier", count: 1, references: [], aspectRatio: "16:9" });
    expect(fake.requests.map((r) => (r.json as { size: string }).size)).toEqual(["1024x1536", "1536x1024"]);
  });

  it("asks for the nearest size for each of the six shapes, cuts the answer to the shape, sends no seed", async () => {
    expect(images.takesSeed).toBeFalsy();
    const shapes = ["1:1", "4:3", "3:4", "16:9", "9:16", "21:9"] as const;
    const ratios: number[] = [];
    for (const aspectRatio of shapes) {
      const [picture] = await images.generate({ prompt: "a pier", count: 1, references: [], aspectRatio });
      const meta = await sharp(picture!.data).metadata();
      ratios.push(Math.round((meta.width! / meta.height!) * 100) / 100);
    }
    expect(fake.requests.map((r) => (r.json as { size: string }).size)).toEqual([
      "1024x1024",
      "1536x1024",
      "1024x1536",
      "1536x1024",
      "1024x1536",
      "1536x1024",
    ]);
    expect(fake.requests.every((r) => !("seed" in (r.json as object)))).toBe(true);
    // Whatever shape the fake's picture has, each answer comes back in the shape asked for.
    // (The fake's picture is 64x48: a pixel of rounding is a few hundredths of the ratio.)
    const wanted = [1, 4 / 3, 3 / 4, 16 / 9, 9 / 16, 21 / 9];
    expect(ratios.map((r, i) => Math.abs(r - wanted[i]!) < 0.05)).toEqual(Array(6).fill(true));
  });

  it("sends references to images/edits as one image[] file each", async () => {
    const references = [await sampleReference("#ff0000"), await sampleReference("#00ff00")];
    const result = await images.generate({ prompt: "the same knight, now at sea", count: 1, references });
    expect(result).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/images/edits");
    expect(String(request?.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await readMultipart(request!);
    const files = form.getAll("image[]");
    expect(files).toHaveLength(2);
    for (const [index, file] of files.entries()) {
      if (typeof file === "string") throw new Error("image[] must be a file");
      expect(file.type).toBe("image/png");
      expect(file.name).toBe(`reference-${index + 1}.png`);
      expect(Buffer.from(await file.arrayBuffer()).equals(references[index]!.data)).toBe(true);
    }
    expect(form.get("prompt")).toBe("the same knight, now at sea");
    expect(form.get("model")).toBe("gpt-image-1");
    expect(form.get("n")).toBe("1");
    expect(form.get("size")).toBe("1536x1024");
  });

  it("shows a safety refusal to the user as the vendor words it, not retryable", async () => {
    const error = await catchProviderError(
      images.generate({ prompt: "forbidden scene", count: 1, references: [] }),
    );
    expect(error.message).toMatch(
      /^The AI provider rejected the request: Your request was rejected as a result of our safety system/,
    );
    expect(error.retryable).toBe(false);
    expect(error.internal).toContain("moderation_blocked");
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : images;
    const error = await catchProviderError(subject.generate({ prompt: "a cave", count: 1, references: [] }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("maps failures of the edits endpoint the same way", async () => {
    fake.failNext({ status: 429 }, "/images/edits");
    const references = [await sampleReference()];
    const error = await catchProviderError(images.generate({ prompt: "a cave", count: 1, references }));
    expect(error.message).toBe(userMessages.busy);
    expect(error.retryable).toBe(true);
  });

  it("refuses base64 that is not an image", async () => {
    fake.images.bytes = Buffer.from("<html>not an image</html>");
    try {
      const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
      expect(error.message).toBe(userMessages.malformed);
      expect(error.retryable).toBe(true);
    } finally {
      fake.images.bytes = fake.png;
    }
  });

  it("never shows the key when it is wrong", async () => {
    const wrongKey = "sk-live-wrong-0123456789abcdef";
    const wrong = provider(5000, wrongKey);
    const error = await catchProviderError(wrong.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });
});

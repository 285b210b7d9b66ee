import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readMultipart } from "../../../test/fakes/fake-server";
import { sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import {
  fakeRealEsrganVersion,
  type ReplicateFake,
  startReplicateFake,
} from "../../../test/fakes/replicate-fake";
import { toDataUrl, userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createReplicateImageProvider } from "./image";

let fake: ReplicateFake;
let images: ImageProvider;
let quick: ImageProvider;

function provider(
  options: { timeoutMs?: number; apiKey?: string; model?: string; upscaleModel?: string } = {},
): ImageProvider {
  return createReplicateImageProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model ?? "bytedance/seedream-4",
    ...(options.upscaleModel ? { upscaleModel: options.upscaleModel } : {}),
    timeoutMs: options.timeoutMs ?? 5000,
    pollIntervalMs: 20,
  });
}

beforeAll(async () => {
  fake = await startReplicateFake();
  images = provider();
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider({ timeoutMs: 300 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  Object.assign(fake.predictions, { finishWhileWaiting: true, outcome: "succeeded", pollsBeforeDone: 2 });
});

describe("Replicate seedream-4 images", () => {
  it("creates a waited-for prediction at 2K in 4:3 and downloads the output", async () => {
    const result = await images.generate({ prompt: "a lighthouse at dusk", count: 1, references: [] });
    expect(result).toHaveLength(1);
    await expect(sharp(result[0]!.data).metadata()).resolves.toMatchObject({ format: "png", width: 80 });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/models/bytedance/seedream-4/predictions");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.headers.prefer).toMatch(/^wait=\d+$/);
    expect(request?.json).toEqual({
      input: { prompt: "a lighthouse at dusk", size: "2K", aspect_ratio: "4:3" },
    });
    expect(fake.downloads[0]?.headers.authorization).toBeUndefined();
  });

  it("asks for a story's scene shape, with references too", async () => {
    const references = [await sampleReference("#ff0000")];
    await images.generate({ prompt: "a tower", count: 1, references, aspectRatio: "3:4" });
    expect(fake.requests[0]?.json).toMatchObject({ input: { aspect_ratio: "3:4" } });
  });

  it("names each of the six shapes as seedream-4's aspect_ratio, and sends no seed (its input has none)", async () => {
    expect(images.takesSeed).toBeFalsy();
    for (const aspectRatio of ["1:1", "4:3", "3:4", "16:9", "9:16", "21:9"] as const) {
      await images.generate({ prompt: "a pier", count: 1, references: [], aspectRatio });
    }
    // The fake answers 422 to an aspect_ratio seedream-4 does not list: all six passed.
    expect(
      fake.requests.map((r) => (r.json as { input: { aspect_ratio: string } }).input.aspect_ratio),
    ).toEqual(["1:1", "4:3", "3:4", "16:9", "9:16", "21:9"]);
    expect(fake.requests.every((r) => !("seed" in (r.json as { input: object }).input))).toBe(true);
  });

  it("sends references as data URIs, keeps their shape, and asks for `count` pictures", async () => {
    const references = [await sampleReference("#ff0000"), await sampleReference("#00ff00")];
    const result = await images.generate({ prompt: "the knight again", count: 3, references });
    expect(result).toHaveLength(3);
    expect(fake.requests[0]?.json).toEqual({
      input: {
        prompt: "the knight again",
        image_input: references.map(toDataUrl),
        size: "2K",
        aspect_ratio: "match_input_image",
        sequential_image_generation: "auto",
        max_images: 3,
      },
    });
  });

  it("polls a prediction that is not finished when the wait runs out", async () => {
    fake.predictions.finishWhileWaiting = false;
    const result = await images.generate({ prompt: "x", count: 2, references: [] });
    expect(result).toHaveLength(2);
    const polls = fake.requests.filter((request) => request.method === "GET");
    expect(polls.length).toBe(2);
    expect(polls[0]?.path).toMatch(/^\/v1\/predictions\/fakepred\d+x$/);
    expect(polls[0]?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it("gives up on a prediction that outlasts the time-out, and cancels it", async () => {
    Object.assign(fake.predictions, { finishWhileWaiting: false, pollsBeforeDone: 10_000 });
    const error = await catchProviderError(quick.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.timeout);
    expect(error.retryable).toBe(true);
    await vi.waitFor(() => expect(fake.cancelled).toHaveLength(1));
  });

  it("explains a failed prediction without retrying a safety refusal", async () => {
    fake.predictions.outcome = "failed";
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(
      "The AI provider could not make this image: The input or output was flagged as sensitive. Please try again with different inputs. (E005)",
    );
    expect(error.retryable).toBe(false);
  });

  it("reports a canceled prediction as failed", async () => {
    fake.predictions.outcome = "canceled";
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toMatch(/^The AI provider cancelled this image/);
  });

  it("runs a pinned version through /predictions", async () => {
    await provider({ model: "bytedance/seedream-4:0123abcd" }).generate({
      prompt: "x",
      count: 1,
      references: [],
    });
    expect(fake.requests[0]?.path).toBe("/v1/predictions");
    expect(fake.requests[0]?.json).toMatchObject({ version: "0123abcd", input: { prompt: "x" } });
  });

  it("refuses an eleventh reference before calling the vendor", async () => {
    const reference = await sampleReference();
    const error = await catchProviderError(
      images.generate({ prompt: "x", count: 1, references: Array.from({ length: 11 }, () => reference) }),
    );
    expect(error.message).toMatch(/^The AI provider rejected the request: at most 10/);
    expect(fake.requests).toHaveLength(0);
  });

  it("passes Replicate's validation detail (422) on", async () => {
    fake.failNext({ status: 422, message: "- input.size: size must be one of 1K, 2K, 4K" });
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(
      "The AI provider rejected the request: - input.size: size must be one of 1K, 2K, 4K",
    );
    expect(error.retryable).toBe(false);
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : images;
    const error = await catchProviderError(subject.generate({ prompt: "x", count: 1, references: [] }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it("maps a failure while polling", async () => {
    fake.predictions.finishWhileWaiting = false;
    fake.failNext({ status: 500 }, "/v1/predictions/");
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.failed);
  });

  it("says the provider is misconfigured for a wrong token, an unknown model, or no credit", async () => {
    const wrongKey = "r8_wrongToken0123456789abcdefgh";
    const keyError = await catchProviderError(
      provider({ apiKey: wrongKey }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(keyError.message).toBe(userMessages.misconfigured);
    expectNoSecrets(keyError, { apiKey: wrongKey, baseUrl: fake.baseUrl });
    const modelError = await catchProviderError(
      provider({ model: "someone/missing-model" }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(modelError.message).toBe(userMessages.misconfigured);
    fake.failNext({ status: 402 });
    const creditError = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(creditError.message).toBe(userMessages.misconfigured);
    expect(creditError.retryable).toBe(false);
  });
});

describe("Replicate edits (decision 0162)", () => {
  const rgb = async (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const input = (index = 0) => (fake.requests[index]!.json as { input: Record<string, unknown> }).input;
  const fromDataUri = (value: unknown) =>
    Buffer.from(String(value).replace(/^data:image\/png;base64,/, ""), "base64");
  const picture = async (width = 96, height = 64) => ({
    data: await sharp({ create: { width, height, channels: 3, background: "#0000ff" } })
      .png()
      .toBuffer(),
    mimeType: "image/png",
  });
  /** Opaque (repaint) over x 8..31, y 8..23 of a 96x64 picture. */
  const mask = () =>
    sharp({ create: { width: 96, height: 64, channels: 4, background: "#00000000" } })
      .composite([
        {
          input: { create: { width: 24, height: 16, channels: 4, background: "#ffffffff" } },
          left: 8,
          top: 8,
        },
      ])
      .png()
      .toBuffer();
  const at = (pixels: { data: Buffer; info: { width: number } }, x: number, y: number) => [
    ...pixels.data.subarray((y * pixels.info.width + x) * 3, (y * pixels.info.width + x) * 3 + 3),
  ];

  it("declares every edit: inpaint and extend, vary, upscale", () => {
    expect(images.editKinds).toEqual(["inpaint", "outpaint", "vary", "upscale"]);
  });

  it("inpaints through FLUX.1 Fill [pro]: image, a white-where-it-paints mask, prompt, seed; the rest kept", async () => {
    const image = await picture();
    const result = await images.edit!({
      kind: "inpaint",
      image,
      mask: await mask(),
      prompt: "a red door",
      seed: 2 ** 32 - 2,
    });
    expect(fake.requests[0]?.path).toBe("/v1/models/black-forest-labs/flux-fill-pro/predictions");
    expect(fake.requests[0]?.headers.prefer).toMatch(/^wait=\d+$/);
    expect(Object.keys(input()).sort()).toEqual(["image", "mask", "prompt", "seed"]);
    expect(input()).toMatchObject({ prompt: "a red door", seed: 0x7ffffffe });
    expect(String(input().image)).toMatch(/^data:image\/png;base64,/);
    // The region around the brushed pixels goes out, with a black-and-white mask of its size.
    const sentImage = await sharp(fromDataUri(input().image)).metadata();
    const sentMask = await rgb(fromDataUri(input().mask));
    expect([sentMask.info.width, sentMask.info.height]).toEqual([sentImage.width, sentImage.height]);
    expect(new Set(sentMask.data)).toEqual(new Set([0, 255]));

    const out = await rgb(result.data);
    expect(result.mimeType).toBe("image/png");
    expect([out.info.width, out.info.height]).toEqual([96, 64]);
    const inside = at(out, 20, 16);
    expect(inside[0]).toBeGreaterThan(240);
    expect(inside[2]).toBeLessThan(16);
    const original = await rgb(image.data);
    for (let i = 0; i < 96 * 64; i++) {
      const x = i % 96;
      const y = Math.floor(i / 96);
      if (x >= 8 && x < 32 && y >= 8 && y < 24) continue;
      expect(at(out, x, y)).toEqual(at(original, x, y));
    }
  });

  it("extends through the same model, the new strip as its mask", async () => {
    const image = await picture();
    const result = await images.edit!({
      kind: "outpaint",
      image,
      prompt: "more sea",
      direction: "left",
      seed: 3,
    });
    expect(fake.requests[0]?.path).toBe("/v1/models/black-forest-labs/flux-fill-pro/predictions");
    expect(input().prompt).toBe("more sea");
    const out = await rgb(result.data);
    expect([out.info.width, out.info.height]).toEqual([120, 64]);
    expect(at(out, 4, 30)[0]).toBeGreaterThan(240);
    expect(at(out, 60, 30)).toEqual([0, 0, 255]);
  });

  it("upscales through the pinned Real-ESRGAN with scale 2: both sides doubled", async () => {
    const image = await picture(48, 32);
    const result = await images.edit!({ kind: "upscale", image, prompt: "", seed: 1 });
    expect(fake.requests[0]?.path).toBe("/v1/predictions");
    const body = fake.requests[0]!.json as { version: string; input: Record<string, unknown> };
    expect(body.version).toBe(fakeRealEsrganVersion);
    expect(body.input).toEqual({ image: `data:image/png;base64,${image.data.toString("base64")}`, scale: 2 });
    expect(await sharp(result.data).metadata()).toMatchObject({ format: "png", width: 96, height: 64 });
  });

  it("takes another upscaler by name (REPLICATE_UPSCALE_MODEL), from its model's endpoint", async () => {
    const named = provider({ upscaleModel: "nightmareai/real-esrgan" });
    const result = await named.edit!({ kind: "upscale", image: await picture(40, 30), prompt: "", seed: 1 });
    expect(fake.requests[0]?.path).toBe("/v1/models/nightmareai/real-esrgan/predictions");
    expect(await sharp(result.data).metadata()).toMatchObject({ width: 80, height: 60 });
  });

  it("uploads a picture over 1 MB through the files API and names it by its link (data URIs only below)", async () => {
    const noise = randomBytes(640 * 640 * 3);
    const data = await sharp(noise, { raw: { width: 640, height: 640, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(data.length).toBeGreaterThan(1024 * 1024);
    const result = await images.edit!({
      kind: "upscale",
      image: { data, mimeType: "image/png" },
      prompt: "",
      seed: 1,
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/files",
      "POST /v1/predictions",
    ]);
    expect(fake.requests[0]?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const uploaded = (await readMultipart(fake.requests[0]!)).get("content") as File;
    expect(uploaded.type).toBe("image/png");
    const sent = await sharp(Buffer.from(await uploaded.arrayBuffer()))
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(sent.equals(noise)).toBe(true);
    expect((fake.requests[1]!.json as { input: { image: string } }).input.image).toMatch(
      new RegExp(`^${fake.origin}/v1/files/fakefile\\d+x$`),
    );
    expect(await sharp(result.data).metadata()).toMatchObject({ width: 1280, height: 1280 });
  });

  it("varies through seedream-4 with the picture as image_input, the strength in the prompt", async () => {
    const image = await picture();
    const result = await images.edit!({ kind: "vary", image, prompt: "a boat", strength: "strong", seed: 1 });
    expect(fake.requests[0]?.path).toBe("/v1/models/bytedance/seedream-4/predictions");
    expect(input()).toMatchObject({
      image_input: [`data:image/png;base64,${image.data.toString("base64")}`],
      aspect_ratio: "match_input_image",
      size: "2K",
    });
    expect(String(input().prompt)).toMatch(/^Make a bold variation of this picture.*a boat$/);
    expect(await sharp(result.data).metadata()).toMatchObject({ format: "png", width: 96, height: 64 });
  });

  it("explains a flagged edit without retrying it, after polling", async () => {
    Object.assign(fake.predictions, { finishWhileWaiting: false, outcome: "failed", pollsBeforeDone: 1 });
    const error = await catchProviderError(
      images.edit!({ kind: "inpaint", image: await picture(), mask: await mask(), prompt: "x", seed: 1 }),
    );
    expect(error.message).toMatch(
      /^The AI provider could not make this image: The input or output was flagged/,
    );
    expect(error.retryable).toBe(false);
    expect(fake.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });
});

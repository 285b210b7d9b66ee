import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { type ReplicateFake, startReplicateFake } from "../../../test/fakes/replicate-fake";
import { toDataUrl, userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createReplicateImageProvider } from "./image";

let fake: ReplicateFake;
let images: ImageProvider;
let quick: ImageProvider;

function provider(options: { timeoutMs?: number; apiKey?: string; model?: string } = {}): ImageProvider {
  return createReplicateImageProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model ?? "bytedance/seedream-4",
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

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sampleMp4, sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { type ReplicateFake, startReplicateFake } from "../../../test/fakes/replicate-fake";
import { toDataUrl, userMessages } from "../http";
import type { MediaFile, VideoProvider } from "../types";
import { createReplicateVideoProvider } from "./video";

let fake: ReplicateFake;
let video: VideoProvider;
let quick: VideoProvider;
let frame: MediaFile;

function provider(timeoutMs = 5000, apiKey = fake.apiKey): VideoProvider {
  return createReplicateVideoProvider({
    apiKey,
    baseUrl: fake.baseUrl,
    model: "bytedance/seedance-1-pro",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startReplicateFake();
  video = provider();
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider(300);
  frame = await sampleReference();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  Object.assign(fake.predictions, { finishWhileWaiting: true, outcome: "succeeded", pollsBeforeDone: 2 });
});

describe("Replicate image-to-video", () => {
  it("starts a prediction with the frame as a data URI and no wait", async () => {
    const { taskId } = await video.start({ prompt: "the ship sails on", image: frame, durationSeconds: 5 });
    expect(taskId).toMatch(/^fakepred\d+x$/);
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/models/bytedance/seedance-1-pro/predictions");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.headers.prefer).toBeUndefined();
    expect(request?.json).toEqual({
      input: { prompt: "the ship sails on", image: toDataUrl(frame), duration: 5, resolution: "720p" },
    });
  });

  it("declares no last frame, and says a camera move in the prompt (decision 0160)", async () => {
    expect(video.clipFeatures).toEqual({ lastFrame: false, camera: true });
    await video.start({ prompt: "the ship sails on", image: frame, camera: "pan_left", durationSeconds: 5 });
    expect((fake.requests[0]?.json as { input: { prompt: string } }).input.prompt).toBe(
      "the ship sails on\n\nCamera: slow pan to the left.",
    );
  });

  it("reports starting and processing as pending, then downloads the clip", async () => {
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await expect(video.poll(taskId)).resolves.toEqual({ status: "pending" });
    const done = await video.poll(taskId);
    expect(done.status).toBe("succeeded");
    if (done.status !== "succeeded") return;
    expect(done.video.mimeType).toBe("video/mp4");
    expect(done.video.data.equals(sampleMp4())).toBe(true);
    expect(fake.requests.at(-1)?.path).toBe(`/v1/predictions/${taskId}`);
  });

  it.each([
    ["failed", /^The AI provider could not make this video: The input or output was flagged as sensitive/],
    ["canceled", /^The AI provider cancelled this video/],
  ] as const)("reports a %s prediction as failed with a safe message", async (outcome, message) => {
    fake.predictions.outcome = outcome;
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await video.poll(taskId);
    const state = await video.poll(taskId);
    expect(state.status).toBe("failed");
    if (state.status === "failed") expect(state.error).toMatch(message);
  });

  it.each(standardFailures)("maps $name when starting", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : video;
    const error = await catchProviderError(subject.start({ prompt: "x", image: frame, durationSeconds: 5 }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it.each(
    standardFailures.filter(({ name }) => ["429", "500", "no answer in time", "invalid JSON"].includes(name)),
  )("maps $name when polling", async (expected) => {
    const { taskId } = await video.start({ prompt: "x", image: frame, durationSeconds: 5 });
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : video;
    const error = await catchProviderError(subject.poll(taskId));
    expectFailure(error, expected);
  });

  it("says the provider is misconfigured when the token is wrong", async () => {
    const wrongKey = "r8_wrongToken0123456789abcdefgh";
    const error = await catchProviderError(
      provider(5000, wrongKey).start({ prompt: "x", image: frame, durationSeconds: 5 }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });
});

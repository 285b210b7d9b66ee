import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BytePlusFake, startBytePlusFake } from "../../../test/fakes/byteplus-fake";
import { sampleMp4, sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { toDataUrl, userMessages } from "../http";
import type { MediaFile, VideoProvider } from "../types";
import { createBytePlusVideoProvider, seedancePrompt } from "./video";

let fake: BytePlusFake;
let video: VideoProvider;
let quick: VideoProvider;
let frame: MediaFile;

function provider(timeoutMs = 5000, apiKey = fake.apiKey): VideoProvider {
  return createBytePlusVideoProvider({
    apiKey,
    baseUrl: fake.baseUrl,
    model: "seedance-1-0-pro-250528",
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startBytePlusFake();
  video = provider();
  // For the time-out cases: a short limit keeps the suite fast; other tests get room for a cold start.
  quick = provider(300);
  frame = await sampleReference();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.video.outcome = "succeeded";
  fake.video.pollsBeforeDone = 2;
});

describe("BytePlus Seedance video tasks", () => {
  it("starts a 5-second task from the first frame", async () => {
    const { taskId } = await video.start({ prompt: "the ship sails on", image: frame, durationSeconds: 5 });
    expect(taskId).toMatch(/^cgt-/);
    const [request] = fake.requests;
    expect(request?.path).toBe("/api/v3/contents/generations/tasks");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.json).toEqual({
      model: "seedance-1-0-pro-250528",
      content: [
        {
          type: "text",
          text: "the ship sails on --duration 5 --resolution 720p --ratio adaptive --watermark false",
        },
        { type: "image_url", image_url: { url: toDataUrl(frame) }, role: "first_frame" },
      ],
    });
  });

  it("sends a last frame as Seedance's last_frame content item after the first frame (decision 0160)", async () => {
    expect(video.clipFeatures).toEqual({ lastFrame: true, camera: true });
    const last = { data: Buffer.concat([frame.data, Buffer.from([0])]), mimeType: frame.mimeType };
    const { taskId } = await video.start({
      prompt: "the ship reaches the harbour",
      image: frame,
      lastFrame: last,
      camera: "push_in",
      durationSeconds: 5,
    });
    expect(taskId).toMatch(/^cgt-/);
    expect(fake.requests[0]?.json).toEqual({
      model: "seedance-1-0-pro-250528",
      content: [
        {
          type: "text",
          text: "the ship reaches the harbour\n\nCamera: slow push in toward the subject. --duration 5 --resolution 720p --ratio adaptive --watermark false --camerafixed false",
        },
        { type: "image_url", image_url: { url: toDataUrl(frame) }, role: "first_frame" },
        { type: "image_url", image_url: { url: toDataUrl(last) }, role: "last_frame" },
      ],
    });
  });

  it("asks for a fixed camera with --camerafixed true when the move is still", async () => {
    await video.start({ prompt: "rain on the deck", image: frame, camera: "still", durationSeconds: 5 });
    const text = (fake.requests[0]?.json as { content: { text?: string }[] }).content[0]?.text;
    expect(text).toMatch(/ --camerafixed true$/);
    expect(text).toContain("Camera: static shot");
  });

  it("reports queued and running as pending, then downloads the finished clip", async () => {
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await expect(video.poll(taskId)).resolves.toEqual({ status: "pending" });
    await expect(video.poll(taskId)).resolves.toEqual({ status: "pending" });
    const done = await video.poll(taskId);
    expect(done.status).toBe("succeeded");
    if (done.status !== "succeeded") return;
    expect(done.video.mimeType).toBe("video/mp4");
    expect(done.video.data.equals(sampleMp4())).toBe(true);
    expect(fake.requests.at(-1)?.path).toBe(`/api/v3/contents/generations/tasks/${taskId}`);
    expect(fake.downloads[0]?.headers.authorization).toBeUndefined();
  });

  it.each([
    ["failed", /^The AI provider could not make this video: The request failed because the output video may/],
    ["cancelled", /^The AI provider cancelled this video/],
    ["expired", /^The AI provider did not finish this video in time/],
  ] as const)("reports a %s task as failed with a safe message", async (outcome, message) => {
    fake.video.outcome = outcome;
    fake.video.pollsBeforeDone = 1;
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await video.poll(taskId);
    const state = await video.poll(taskId);
    expect(state.status).toBe("failed");
    if (state.status === "failed") expect(state.error).toMatch(message);
  });

  it("keeps a user's prompt from setting generation flags", async () => {
    expect(seedancePrompt("a storm --duration 12 --resolution 1080p", 5)).toBe(
      "a storm duration 12 resolution 1080p --duration 5 --resolution 720p --ratio adaptive --watermark false",
    );
    await video.start({ prompt: "a storm --duration 12", image: frame, durationSeconds: 5 });
    const text = (fake.requests[0]!.json as { content: { text?: string }[] }).content[0]?.text ?? "";
    expect(text).not.toContain("--duration 12");
  });

  it.each(standardFailures)("maps $name when starting", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : video;
    const error = await catchProviderError(subject.start({ prompt: "x", image: frame, durationSeconds: 5 }));
    expectFailure(error, expected);
    expectNoSecrets(error, fake);
  });

  it.each(
    standardFailures.filter(({ name }) => ["429", "500", "no answer in time", "an HTML page"].includes(name)),
  )("maps $name when polling", async (expected) => {
    const { taskId } = await video.start({ prompt: "x", image: frame, durationSeconds: 5 });
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : video;
    const error = await catchProviderError(subject.poll(taskId));
    expectFailure(error, expected);
  });

  it("treats an unknown task as misconfiguration and a wrong key the same", async () => {
    const unknown = await catchProviderError(video.poll("cgt-does-not-exist"));
    expect(unknown.message).toBe(userMessages.misconfigured);
    const wrongKey = "ark-wrong-0123456789abcdefghij";
    const error = await catchProviderError(
      provider(5000, wrongKey).start({ prompt: "x", image: frame, durationSeconds: 5 }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: wrongKey, baseUrl: fake.baseUrl });
  });

  it("refuses a finished clip that is not a video", async () => {
    fake.video.pollsBeforeDone = 0;
    const { taskId } = await video.start({ prompt: "x", image: frame, durationSeconds: 5 });
    fake.failNext("html", "/files/");
    const error = await catchProviderError(video.poll(taskId));
    expect(error.message).toBe(userMessages.malformed);
  });
});

import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ComfyUIFake, startComfyUIFake } from "../../../test/fakes/comfyui-fake";
import { sampleMp4 } from "../../../test/fakes/media";
import { catchProviderError, expectFailure, standardFailures } from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { MediaFile, VideoProvider } from "../types";
import { createComfyUIVideoProvider, defaultComfyVideoModel } from "./video";
import { shippedWorkflows } from "./workflows";

let fake: ComfyUIFake;
let video: VideoProvider;
let quick: VideoProvider;
let frame: MediaFile;

function provider(timeoutMs = 5000, model = defaultComfyVideoModel): VideoProvider {
  return createComfyUIVideoProvider({
    apiKey: undefined,
    baseUrl: fake.baseUrl,
    model,
    workflows: shippedWorkflows,
    timeoutMs,
  });
}

beforeAll(async () => {
  fake = await startComfyUIFake();
  video = provider();
  quick = provider(300);
  frame = {
    data: await sharp({ create: { width: 800, height: 600, channels: 3, background: "#336699" } })
      .png()
      .toBuffer(),
    mimeType: "image/png",
  };
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  Object.assign(fake.behaviour, { outcome: "success", nextOutcomes: [], pollsBeforeDone: 1 });
});

const workflowNode = (classType: string) =>
  Object.values(fake.prompts[0]!.workflow).find((node) => node.class_type === classType)!.inputs;

describe("ComfyUI image-to-video", () => {
  it("queues the first frame, uploaded, in a five-second clip of its shape", async () => {
    const { taskId } = await video.start({ prompt: "the ship sails on", image: frame, durationSeconds: 5 });
    expect(taskId).toBe(fake.prompts[0]!.id);
    const loaded = fake.uploads.get(String(workflowNode("LoadImage").image));
    expect(loaded?.equals(frame.data)).toBe(true);
    // 81 frames at 16 fps, at 480p in the frame's 4:3 shape.
    expect(workflowNode("WanImageToVideo")).toMatchObject({ length: 81, width: 736, height: 544 });
    expect(workflowNode("CreateVideo")).toMatchObject({ fps: 16 });
    expect(workflowNode("UNETLoader")).toMatchObject({ unet_name: defaultComfyVideoModel });
    expect(workflowNode("CLIPTextEncode")).toMatchObject({ text: "the ship sails on" });
  });

  it("declares no last frame (the workflow takes one image), and says a camera move in the prompt", async () => {
    expect(video.clipFeatures).toEqual({ lastFrame: false, camera: true });
    await video.start({ prompt: "the ship sails on", image: frame, camera: "orbit", durationSeconds: 5 });
    expect(workflowNode("CLIPTextEncode")).toMatchObject({
      text: "the ship sails on\n\nCamera: slow orbit around the subject.",
    });
  });

  it("reports a queued or running prompt as pending, then fetches the clip", async () => {
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await expect(video.poll(taskId)).resolves.toEqual({ status: "pending" });
    const done = await video.poll(taskId);
    expect(done.status).toBe("succeeded");
    if (done.status !== "succeeded") return;
    expect(done.video.mimeType).toBe("video/mp4");
    expect(done.video.data.equals(sampleMp4())).toBe(true);
  });

  it("reports a failed run with its reason", async () => {
    fake.behaviour.outcome = "error";
    const { taskId } = await video.start({ prompt: "waves", image: frame, durationSeconds: 5 });
    await video.poll(taskId);
    await expect(video.poll(taskId)).resolves.toEqual({
      status: "failed",
      error:
        "The AI provider could not make this video: Allocation on device 0 would exceed allowed memory. (out of memory)",
    });
  });

  it("says the server is misconfigured when it lacks the video model", async () => {
    const error = await catchProviderError(
      provider(5000, "wan2.2_missing.safetensors").start({ prompt: "x", image: frame, durationSeconds: 5 }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
  });

  it.each(standardFailures)("maps $name while starting to a safe message", async (expected) => {
    // The first call is the upload: a 400 there is the request's, not the workflow's.
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : video;
    const error = await catchProviderError(subject.start({ prompt: "x", image: frame, durationSeconds: 5 }));
    expectFailure(error, expected);
  });

  it("maps a failure while polling", async () => {
    const { taskId } = await video.start({ prompt: "x", image: frame, durationSeconds: 5 });
    fake.failNext({ status: 500 }, "/history/");
    const error = await catchProviderError(video.poll(taskId));
    expect(error.message).toBe(userMessages.failed);
  });
});

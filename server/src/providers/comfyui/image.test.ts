import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedColour } from "../../../test/fakes/a1111-fake";
import { type ComfyUIFake, startComfyUIFake } from "../../../test/fakes/comfyui-fake";
import { sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createComfyUIImageProvider, defaultComfyCheckpoint, defaultComfyUpscaler } from "./image";
import { type ComfyWorkflows, shippedWorkflows } from "./workflows";

let fake: ComfyUIFake;
let images: ImageProvider;
let quick: ImageProvider;

function provider(
  options: { timeoutMs?: number; apiKey?: string; model?: string; workflows?: Partial<ComfyWorkflows> } = {},
): ImageProvider {
  return createComfyUIImageProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model ?? defaultComfyCheckpoint,
    upscaler: defaultComfyUpscaler,
    workflows: { ...shippedWorkflows, ...options.workflows },
    timeoutMs: options.timeoutMs ?? 5000,
    pollIntervalMs: 10,
  });
}

beforeAll(async () => {
  fake = await startComfyUIFake({ apiKey: "proxy-token-for-the-gpu-box" });
  images = provider();
  quick = provider({ timeoutMs: 400 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  Object.assign(fake.behaviour, { outcome: "success", nextOutcomes: [], pollsBeforeDone: 1 });
});

type Inputs = Record<string, unknown>;
/** The inputs of the queued workflow's first node of a type. */
const nodeOf = (prompt: number, classType: string): Inputs =>
  Object.values(fake.prompts[prompt]!.workflow).find((node) => node.class_type === classType)!.inputs;
const pixel = async (png: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]! };
};
const size = async (png: Buffer) => {
  const meta = await sharp(png).metadata();
  return { width: meta.width, height: meta.height };
};
const flat = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
const historyReads = () => fake.requests.filter((r) => r.path.startsWith("/history/")).length;

describe("ComfyUI pictures", () => {
  it("queues the text-to-image workflow at the shape asked for and gives back the picture of that seed", async () => {
    const [picture] = await images.generate({
      prompt: "a lighthouse at dusk",
      count: 1,
      references: [],
      aspectRatio: "9:16",
      seed: 3_000_000_000,
    });
    expect(await size(picture!.data)).toEqual({ width: 720, height: 1280 });
    expect(await pixel(picture!.data, 5, 5)).toEqual(seedColour(3_000_000_000));
    expect(fake.requests.find((r) => r.path === "/prompt")?.json).toMatchObject({
      client_id: expect.any(String),
    });
    expect(nodeOf(0, "KSampler")).toMatchObject({ seed: 3_000_000_000, denoise: 1 });
    expect(nodeOf(0, "EmptyLatentImage")).toMatchObject({ width: 720, height: 1280 });
    expect(nodeOf(0, "CLIPTextEncode")).toMatchObject({ text: "a lighthouse at dusk" });
    expect(nodeOf(0, "CheckpointLoaderSimple")).toEqual({ ckpt_name: "sd_xl_base_1.0.safetensors" });
    // Every call carries the proxy's token; the picture comes from /view with the history's name for it.
    expect(fake.requests.every((r) => r.headers.authorization === "Bearer proxy-token-for-the-gpu-box")).toBe(
      true,
    );
    const view = fake.requests.find((r) => r.path === "/view");
    expect(view?.query.get("type")).toBe("output");
    expect(view?.query.get("subfolder")).toBe("storyverse");
    expect(images.takesSeed).toBe(true);
  });

  it("makes a batch as one prompt per picture, picture i with seed + i", async () => {
    const pictures = await images.generate({ prompt: "three knights", count: 3, references: [], seed: 41 });
    expect(pictures).toHaveLength(3);
    expect(fake.prompts.map((_, index) => nodeOf(index, "KSampler").seed)).toEqual([41, 42, 43]);
    for (const [index, picture] of pictures.entries()) {
      expect(await pixel(picture.data, 1, 1)).toEqual(seedColour(41 + index));
    }
  });

  it("delivers the pictures made when a later one fails, and takes the rest off the queue", async () => {
    fake.behaviour.nextOutcomes = ["success", "error", "success"];
    const pictures = await images.generate({ prompt: "three knights", count: 3, references: [], seed: 1 });
    expect(pictures).toHaveLength(1);
    expect(fake.deleted).toEqual([fake.prompts[2]!.id]);
  });

  it("starts from the first content reference and loads every other one into the workflow by its role (decision 0161)", async () => {
    fake.uploads.clear();
    const references = [
      { ...(await sampleReference("#0000ff")), role: "style" as const },
      await sampleReference("#ff0000"),
      { ...(await sampleReference("#00ff00")), role: "character" as const },
      { ...(await sampleReference("#ffffff")), role: "character" as const },
    ];
    await images.generate({ prompt: "the knight again", count: 1, references, seed: 2 });
    // All four pictures went up, each cut to the shape.
    expect(fake.uploads.size).toBe(4);
    const uploaded = [...fake.uploads.entries()];
    for (const [, png] of uploaded) expect(await size(png)).toEqual({ width: 1152, height: 864 });
    const colourOf = async (name: unknown) => pixel(fake.uploads.get(name as string)!, 600, 400);
    const workflow = fake.prompts[0]!.workflow;
    const loads = Object.values(workflow).filter((node) => node.class_type === "LoadImage");
    // The red (content) reference is the starting picture; the style and both characters are loaded beside it.
    expect(await Promise.all(loads.map((node) => colourOf(node.inputs.image)))).toEqual([
      { r: 255, g: 0, b: 0 },
      { r: 0, g: 0, b: 255 },
      { r: 0, g: 255, b: 0 },
      { r: 255, g: 255, b: 255 },
    ]);
    const blends = Object.values(workflow).filter((node) => node.class_type === "ImageBlend");
    expect(blends.map((node) => [node.inputs.blend_mode, node.inputs.blend_factor])).toEqual([
      ["soft_light", 0.6],
      ["normal", 0.4],
      ["normal", 0.4],
    ]);
    expect(nodeOf(0, "KSampler")).toMatchObject({ denoise: 0.7, seed: 2 });
    // What the sampler started from is the mix: no longer the plain red of the first picture.
    expect(fake.encoded).toHaveLength(1);
    const started = await pixel(fake.encoded[0]!, 600, 400);
    expect(started).not.toEqual({ r: 255, g: 0, b: 0 });
    expect(started.g).toBeGreaterThan(60);
  });

  it("starts from the one reference alone when there is only one", async () => {
    fake.uploads.clear();
    await images.generate({
      prompt: "the knight",
      count: 1,
      references: [await sampleReference("#ff0000")],
      seed: 2,
    });
    const [name] = [...fake.uploads.keys()];
    expect(nodeOf(0, "LoadImage")).toEqual({ image: name });
    expect(Object.values(fake.prompts[0]!.workflow).some((node) => node.class_type === "ImageBlend")).toBe(
      false,
    );
    expect(await pixel(fake.encoded[0]!, 600, 400)).toEqual({ r: 255, g: 0, b: 0 });
  });

  it("inpaints with the mask uploaded and wired in, and keeps every pixel outside it", async () => {
    const picture = await flat(800, 600, "#204080");
    const mask = await sharp({
      create: { width: 800, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 120, height: 80, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } },
          })
            .png()
            .toBuffer(),
          left: 500,
          top: 300,
        },
      ])
      .png()
      .toBuffer();
    const edited = await images.edit!({
      kind: "inpaint",
      image: { data: picture, mimeType: "image/png" },
      prompt: "a lantern",
      mask,
      seed: 17,
    });
    const maskNode = nodeOf(0, "LoadImageMask");
    expect(maskNode.channel).toBe("red");
    const sentMask = fake.uploads.get(String(maskNode.image))!;
    const sentImage = fake.uploads.get(String(nodeOf(0, "LoadImage").image))!;
    const maskSize = await size(sentMask);
    expect(await size(sentImage)).toEqual(maskSize);
    expect(await pixel(sentMask, Math.floor(maskSize.width! / 2), Math.floor(maskSize.height! / 2))).toEqual({
      r: 255,
      g: 255,
      b: 255,
    });
    expect(await pixel(sentMask, 0, 0)).toEqual({ r: 0, g: 0, b: 0 });
    expect(nodeOf(0, "KSampler")).toMatchObject({ seed: 17, denoise: 0.8 });
    expect(await size(edited.data)).toEqual({ width: 800, height: 600 });
    expect(await pixel(edited.data, 560, 340)).toEqual(seedColour(17));
    expect(await pixel(edited.data, 480, 340)).toEqual({ r: 0x20, g: 0x40, b: 0x80 });
  });

  it("outpaints downwards: a taller canvas whose top is the picture", async () => {
    const edited = await images.edit!({
      kind: "outpaint",
      image: { data: await flat(400, 300, "#204080"), mimeType: "image/png" },
      prompt: "the cliffs below",
      direction: "down",
      seed: 8,
    });
    expect(await size(edited.data)).toEqual({ width: 400, height: 375 });
    expect(await pixel(edited.data, 200, 370)).toEqual(seedColour(8));
    expect(await pixel(edited.data, 200, 290)).toEqual({ r: 0x20, g: 0x40, b: 0x80 });
    expect(nodeOf(0, "KSampler")).toMatchObject({ denoise: 0.95 });
  });

  it("varies through the image-to-image workflow and keeps the picture's size", async () => {
    const picture = { data: await flat(640, 480, "#204080"), mimeType: "image/png" };
    const varied = await images.edit!({
      kind: "vary",
      image: picture,
      prompt: "a harbour",
      seed: 4,
      strength: "strong",
    });
    expect(await size(varied.data)).toEqual({ width: 640, height: 480 });
    expect(nodeOf(0, "KSampler")).toMatchObject({ denoise: 0.65, seed: 4 });
    expect(Object.values(fake.prompts[0]!.workflow).some((node) => node.class_type === "LoadImageMask")).toBe(
      false,
    );
  });

  it("upscales x2 with the configured upscale model", async () => {
    const picture = { data: await flat(300, 200, "#204080"), mimeType: "image/png" };
    const upscaled = await images.edit!({ kind: "upscale", image: picture, prompt: "", seed: 0 });
    expect(await size(upscaled.data)).toEqual({ width: 600, height: 400 });
    expect(nodeOf(0, "UpscaleModelLoader")).toEqual({ model_name: "RealESRGAN_x4plus.pth" });
    expect(nodeOf(0, "ImageScale")).toMatchObject({ width: 600, height: 400 });
    expect(images.editKinds).toEqual(["inpaint", "outpaint", "vary", "upscale"]);
  });

  it("stops polling the history at the time limit, takes the prompt off the queue and says it took too long", async () => {
    fake.behaviour.outcome = "never";
    const started = Date.now();
    const error = await catchProviderError(quick.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(userMessages.timeout);
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.deleted).toEqual([fake.prompts[0]!.id]);
    const reads = historyReads();
    expect(reads).toBeGreaterThan(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(historyReads()).toBe(reads);
  });

  it("passes the reason of a failed run on, to be tried again", async () => {
    fake.behaviour.outcome = "error";
    const error = await catchProviderError(images.generate({ prompt: "x", count: 1, references: [] }));
    expect(error.message).toBe(
      "The AI provider could not make this image: Allocation on device 0 would exceed allowed memory. (out of memory)",
    );
    expect(error.retryable).toBe(true);
  });

  it("says the server is misconfigured when ComfyUI refuses the workflow (a model file it does not have)", async () => {
    const error = await catchProviderError(
      provider({ model: "missing-model.safetensors" }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.retryable).toBe(false);
    expect(error.internal).toContain("Prompt outputs failed validation");
    expect(fake.prompts).toHaveLength(0);
  });

  it("runs the operator's own workflow, filling placeholders inside text, and takes no seed when it has none", async () => {
    const own = structuredClone(shippedWorkflows.txt2img);
    own["2"]!.inputs.text = "a watercolour of {{prompt}}, soft light";
    own["5"]!.inputs.seed = 1234;
    const custom = provider({ workflows: { txt2img: own } });
    expect(custom.takesSeed).toBe(false);
    await custom.generate({ prompt: "a fox", count: 1, references: [] });
    expect(nodeOf(0, "CLIPTextEncode")).toMatchObject({ text: "a watercolour of a fox, soft light" });
    expect(nodeOf(0, "KSampler")).toMatchObject({ seed: 1234 });
  });

  it("says the server is misconfigured for a wrong token", async () => {
    const error = await catchProviderError(
      provider({ apiKey: "wrong-token-for-the-gpu-box" }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expectNoSecrets(error, { apiKey: "wrong-token-for-the-gpu-box", baseUrl: fake.baseUrl });
  });

  it.each(
    standardFailures.filter((failure) => failure.name !== "400"),
  )("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : images;
    const error = await catchProviderError(subject.generate({ prompt: "x", count: 1, references: [] }));
    expectFailure(error, expected);
    expectNoSecrets(error, { apiKey: fake.apiKey!, baseUrl: fake.baseUrl });
  });

  it.each([
    ["reading the history", "/history/"],
    ["fetching the picture", "/view"],
    ["uploading a reference", "/upload/image"],
  ])("maps a failure while %s", async (_what, path) => {
    fake.failNext({ status: 503 }, path);
    const error = await catchProviderError(
      images.generate({ prompt: "x", count: 1, references: [await sampleReference()] }),
    );
    expect(error.message).toBe(userMessages.failed);
    expect(error.retryable).toBe(true);
  });
});

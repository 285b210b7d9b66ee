import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type A1111Fake, seedColour, startA1111Fake } from "../../../test/fakes/a1111-fake";
import { sampleReference } from "../../../test/fakes/media";
import {
  catchProviderError,
  expectFailure,
  expectNoSecrets,
  standardFailures,
} from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import type { ImageProvider } from "../types";
import { createA1111ImageProvider, defaultA1111Upscaler } from "./image";

let fake: A1111Fake;
let images: ImageProvider;
let quick: ImageProvider;

function provider(
  options: { timeoutMs?: number; apiKey?: string; model?: string; upscaler?: string } = {},
): ImageProvider {
  return createA1111ImageProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.baseUrl,
    model: options.model,
    upscaler: options.upscaler ?? defaultA1111Upscaler,
    timeoutMs: options.timeoutMs ?? 5000,
  });
}

beforeAll(async () => {
  fake = await startA1111Fake({ apiKey: "storyteller:s3cret-gpu-box" });
  images = provider();
  quick = provider({ timeoutMs: 300 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.behaviour.gridFirst = false;
  fake.behaviour.scripts = [];
});

type Body = Record<string, unknown>;
const body = (index = 0) => fake.requests[index]?.json as Body;
const pixel = async (png: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]! };
};
const size = async (png: Buffer) => {
  const meta = await sharp(png).metadata();
  return { width: meta.width, height: meta.height };
};
/** A picture of two halves, so a test can see which pixels an edit changed. */
const twoTone = async (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#204080" } })
    .composite([
      {
        input: await sharp({
          create: { width: width / 2, height, channels: 3, background: "#e0c040" },
        })
          .png()
          .toBuffer(),
        left: width / 2,
        top: 0,
      },
    ])
    .png()
    .toBuffer();

describe("AUTOMATIC1111 pictures", () => {
  it("paints a picture of the shape asked for with the seed given, sent with --api-auth credentials", async () => {
    const [picture] = await images.generate({
      prompt: "a lighthouse at dusk",
      count: 1,
      references: [],
      aspectRatio: "16:9",
      seed: 4_000_000_000,
    });
    expect(await size(picture!.data)).toEqual({ width: 1280, height: 720 });
    expect(picture!.mimeType).toBe("image/png");
    // The fake paints each seed its own colour: this picture is seed 4,000,000,000's.
    expect(await pixel(picture!.data, 10, 10)).toEqual(seedColour(4_000_000_000));
    expect(fake.requests[0]?.path).toBe("/sdapi/v1/txt2img");
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("storyteller:s3cret-gpu-box").toString("base64")}`,
    );
    expect(body()).toMatchObject({
      prompt: "a lighthouse at dusk",
      seed: 4_000_000_000,
      width: 1280,
      height: 720,
      batch_size: 1,
      sampler_name: "Euler a",
    });
    expect(images.takesSeed).toBe(true);
  });

  it("makes a batch from one seed, picture i with seed + i, and skips the grid A1111 puts first", async () => {
    fake.behaviour.gridFirst = true;
    const pictures = await provider().generate({
      prompt: "three knights",
      count: 3,
      references: [],
      seed: 70,
    });
    expect(pictures).toHaveLength(3);
    for (const [index, picture] of pictures.entries()) {
      expect(await pixel(picture.data, 1, 1)).toEqual(seedColour(70 + index));
      expect(await size(picture.data)).toEqual({ width: 1152, height: 864 });
    }
    expect(body()).toMatchObject({ batch_size: 3, seed: 70 });
  });

  it("repeats a picture from its seed, and lets A1111 pick one when none is given", async () => {
    const first = await images.generate({ prompt: "a fox", count: 1, references: [], seed: 12 });
    const again = await images.generate({ prompt: "a fox", count: 1, references: [], seed: 12 });
    expect(again[0]!.data.equals(first[0]!.data)).toBe(true);
    await images.generate({ prompt: "a fox", count: 1, references: [] });
    expect(body(2).seed).toBe(-1);
  });

  it("switches to the configured checkpoint and keeps it loaded", async () => {
    await provider({ model: "sd_xl_base_1.0.safetensors" }).generate({
      prompt: "x",
      count: 1,
      references: [],
    });
    expect(body()).toMatchObject({
      override_settings: { sd_model_checkpoint: "sd_xl_base_1.0.safetensors" },
      override_settings_restore_afterwards: false,
    });
  });

  it("starts from the first reference, cut to the shape, through img2img", async () => {
    const references = [await sampleReference("#ff0000"), await sampleReference("#00ff00")];
    const pictures = await images.generate({ prompt: "the knight again", count: 2, references, seed: 3 });
    expect(pictures).toHaveLength(2);
    // A stock install (no ControlNet): the second reference cannot be sent.
    const painted = fake.requests.filter((request) => request.method === "POST");
    expect(painted.map((request) => request.path)).toEqual(["/sdapi/v1/img2img"]);
    const sent = painted[0]!.json as Body;
    expect(sent.init_images).toHaveLength(1);
    expect(sent.alwayson_scripts).toBeUndefined();
    const init = Buffer.from((sent.init_images as string[])[0]!, "base64");
    expect(await size(init)).toEqual({ width: 1152, height: 864 });
    expect(await pixel(init, 500, 400)).toEqual({ r: 255, g: 0, b: 0 });
    expect(sent).toMatchObject({ denoising_strength: 0.7, batch_size: 2, seed: 3 });
  });

  it("sends every other reference as a ControlNet unit of its role when the server has ControlNet (decision 0161)", async () => {
    fake.behaviour.scripts = ["controlnet"];
    const withControlNet = provider();
    const references = [
      { ...(await sampleReference("#ff0000")), role: "style" as const },
      await sampleReference("#00ff00"),
      { ...(await sampleReference("#0000ff")), role: "character" as const },
      { ...(await sampleReference("#ffff00")), role: "character" as const },
    ];
    const pictures = await withControlNet.generate({ prompt: "the knight", count: 1, references, seed: 5 });
    expect(pictures).toHaveLength(1);
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /sdapi/v1/scripts",
      "POST /sdapi/v1/img2img",
    ]);
    const sent = body(1);
    // The content reference (green) starts the picture; the style and both characters steer it.
    const init = Buffer.from((sent.init_images as string[])[0]!, "base64");
    expect(await pixel(init, 10, 10)).toEqual({ r: 0, g: 255, b: 0 });
    const units = (sent.alwayson_scripts as { controlnet: { args: Body[] } }).controlnet.args;
    expect(units.map((unit) => unit.module)).toEqual([
      "reference_adain",
      "reference_adain+attn",
      "reference_adain+attn",
    ]);
    const colours = await Promise.all(
      units.map((unit) => pixel(Buffer.from(unit.image as string, "base64"), 10, 10)),
    );
    expect(colours).toEqual([
      { r: 255, g: 0, b: 0 },
      { r: 0, g: 0, b: 255 },
      { r: 255, g: 255, b: 0 },
    ]);
    // Asked once: the next picture goes straight to painting.
    await withControlNet.generate({ prompt: "again", count: 1, references, seed: 6 });
    expect(fake.requests.filter((request) => request.method === "GET")).toHaveLength(1);
  });

  it("paints from style and character references alone with txt2img and ControlNet, no starting picture", async () => {
    fake.behaviour.scripts = ["controlnet"];
    const references = [
      { ...(await sampleReference("#ff0000")), role: "style" as const },
      { ...(await sampleReference("#0000ff")), role: "character" as const },
    ];
    await provider().generate({ prompt: "the knight", count: 1, references, seed: 5 });
    const painting = fake.requests.find((request) => request.method === "POST")!;
    expect(painting.path).toBe("/sdapi/v1/txt2img");
    const units = ((painting.json as Body).alwayson_scripts as { controlnet: { args: Body[] } }).controlnet
      .args;
    expect(units.map((unit) => unit.module)).toEqual(["reference_adain", "reference_adain+attn"]);
  });

  it("inpaints only the brushed region: it sends the mask, and every other pixel stays as it was", async () => {
    const picture = await twoTone(800, 600);
    // The player brushed a square in the left (blue) half.
    const mask = await sharp({
      create: { width: 800, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({
            create: {
              width: 100,
              height: 100,
              channels: 4,
              background: { r: 255, g: 255, b: 255, alpha: 1 },
            },
          })
            .png()
            .toBuffer(),
          left: 100,
          top: 200,
        },
      ])
      .png()
      .toBuffer();
    const edited = await images.edit!({
      kind: "inpaint",
      image: { data: picture, mimeType: "image/png" },
      prompt: "a red door",
      mask,
      seed: 99,
    });
    expect(fake.requests[0]?.path).toBe("/sdapi/v1/img2img");
    const sent = body();
    expect(sent).toMatchObject({
      seed: 99,
      prompt: "a red door",
      inpainting_fill: 1,
      inpainting_mask_invert: 0,
    });
    // The mask A1111 gets is white where it paints, black elsewhere, over the region it gets.
    const sentMask = Buffer.from(sent.mask as string, "base64");
    const sentSize = await size(sentMask);
    expect(sentSize).toEqual({ width: sent.width, height: sent.height });
    expect(await size(Buffer.from((sent.init_images as string[])[0]!, "base64"))).toEqual(sentSize);
    const centre = await pixel(sentMask, Math.floor(sentSize.width! / 2), Math.floor(sentSize.height! / 2));
    expect(centre).toEqual({ r: 255, g: 255, b: 255 });
    expect(await pixel(sentMask, 0, 0)).toEqual({ r: 0, g: 0, b: 0 });

    expect(await size(edited.data)).toEqual({ width: 800, height: 600 });
    expect(await pixel(edited.data, 150, 250)).toEqual(seedColour(99));
    expect(await pixel(edited.data, 90, 250)).toEqual({ r: 0x20, g: 0x40, b: 0x80 });
    expect(await pixel(edited.data, 600, 300)).toEqual({ r: 0xe0, g: 0xc0, b: 0x40 });
  });

  it("outpaints a new strip on the side asked for and keeps the picture beside it", async () => {
    const picture = await twoTone(800, 600);
    const edited = await images.edit!({
      kind: "outpaint",
      image: { data: picture, mimeType: "image/png" },
      prompt: "the sea goes on",
      direction: "left",
      seed: 5,
    });
    expect(await size(edited.data)).toEqual({ width: 1000, height: 600 });
    expect(await pixel(edited.data, 50, 300)).toEqual(seedColour(5));
    expect(await pixel(edited.data, 210, 300)).toEqual({ r: 0x20, g: 0x40, b: 0x80 });
    expect(await pixel(edited.data, 999, 300)).toEqual({ r: 0xe0, g: 0xc0, b: 0x40 });
    expect(body()).toMatchObject({ denoising_strength: 0.95, inpainting_fill: 1 });
    expect(body().mask).toBeTypeOf("string");
  });

  it("varies the whole picture, subtly or strongly, and keeps its size", async () => {
    const picture = { data: await twoTone(640, 480), mimeType: "image/png" };
    const subtle = await images.edit!({ kind: "vary", image: picture, prompt: "a harbour", seed: 1 });
    await images.edit!({ kind: "vary", image: picture, prompt: "a harbour", seed: 1, strength: "strong" });
    expect(await size(subtle.data)).toEqual({ width: 640, height: 480 });
    expect(body(0)).toMatchObject({ denoising_strength: 0.35 });
    expect(body(0)).not.toHaveProperty("mask");
    expect(body(1)).toMatchObject({ denoising_strength: 0.65 });
  });

  it("upscales x2 with the configured upscaler", async () => {
    const picture = { data: await twoTone(320, 240), mimeType: "image/png" };
    const upscaled = await images.edit!({ kind: "upscale", image: picture, prompt: "", seed: 0 });
    expect(await size(upscaled.data)).toEqual({ width: 640, height: 480 });
    expect(fake.requests[0]?.path).toBe("/sdapi/v1/extra-single-image");
    expect(body()).toMatchObject({ upscaling_resize: 2, upscaler_1: "R-ESRGAN 4x+", resize_mode: 0 });
    expect(images.editKinds).toEqual(["inpaint", "outpaint", "vary", "upscale"]);
  });

  it("says the server is misconfigured for an upscaler it does not have, and retries nothing", async () => {
    const picture = { data: await twoTone(64, 48), mimeType: "image/png" };
    const error = await catchProviderError(
      provider({ upscaler: "4x-UltraSharp" }).edit!({ kind: "upscale", image: picture, prompt: "", seed: 0 }),
    );
    // A1111 answers an unknown upscaler with a 500 from its exception middleware.
    expect(error.message).toBe(userMessages.failed);
    expect(error.internal).toContain("could not find upscaler named 4x-UltraSharp");
  });

  it("says the server is misconfigured for wrong --api-auth credentials", async () => {
    const wrong = "storyteller:wrong-password";
    const error = await catchProviderError(
      provider({ apiKey: wrong }).generate({ prompt: "x", count: 1, references: [] }),
    );
    expect(error.message).toBe(userMessages.misconfigured);
    expect(error.retryable).toBe(false);
    expectNoSecrets(error, { apiKey: wrong, baseUrl: fake.baseUrl });
  });

  it.each(standardFailures)("maps $name to a safe message", async (expected) => {
    fake.failNext(expected.failure);
    const subject = expected.failure === "hang" ? quick : images;
    const error = await catchProviderError(subject.generate({ prompt: "x", count: 1, references: [] }));
    expectFailure(error, expected);
    expectNoSecrets(error, { apiKey: fake.apiKey!, baseUrl: fake.baseUrl });
  });

  it("maps a failed edit like a failed picture", async () => {
    fake.failNext({ status: 503 }, "/img2img");
    const picture = { data: await twoTone(64, 48), mimeType: "image/png" };
    const error = await catchProviderError(
      images.edit!({ kind: "vary", image: picture, prompt: "x", seed: 1 }),
    );
    expect(error.message).toBe(userMessages.failed);
    expect(error.retryable).toBe(true);
  });
});

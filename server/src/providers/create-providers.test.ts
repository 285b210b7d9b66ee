import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type A1111Fake, startA1111Fake } from "../../test/fakes/a1111-fake";
import { type BytePlusFake, startBytePlusFake } from "../../test/fakes/byteplus-fake";
import { type ComfyUIFake, startComfyUIFake } from "../../test/fakes/comfyui-fake";
import { type ElevenLabsFake, startElevenLabsFake } from "../../test/fakes/elevenlabs-fake";
import { sampleReference } from "../../test/fakes/media";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import {
  fakeRealEsrganVersion,
  type ReplicateFake,
  startReplicateFake,
} from "../../test/fakes/replicate-fake";
import type { ProvidersConfig } from "../config";
import { shippedWorkflows } from "./comfyui/workflows";
import { createProviders, defaultModels } from "./create-providers";

const offline: ProvidersConfig = {
  text: { kind: "offline", apiKey: undefined, baseUrl: undefined, model: undefined },
  image: { kind: "offline", apiKey: undefined, baseUrl: undefined, model: undefined },
  video: { kind: "offline", apiKey: undefined, baseUrl: undefined, model: undefined },
  speech: { kind: "none", apiKey: undefined, baseUrl: undefined, model: undefined },
  voice: { kind: "offline", apiKey: undefined, baseUrl: undefined, model: undefined },
  timeoutMs: 5000,
};

let openai: OpenAIFake;
let byteplus: BytePlusFake;
let replicate: ReplicateFake;
let elevenlabs: ElevenLabsFake;
let a1111: A1111Fake;
let comfyui: ComfyUIFake;

beforeAll(async () => {
  [openai, byteplus, replicate, elevenlabs, a1111, comfyui] = await Promise.all([
    startOpenAIFake(),
    startBytePlusFake(),
    startReplicateFake(),
    startElevenLabsFake(),
    startA1111Fake(),
    startComfyUIFake(),
  ]);
});
afterAll(() =>
  Promise.all([openai, byteplus, replicate, elevenlabs, a1111, comfyui].map((fake) => fake.close())),
);
beforeEach(() => {
  for (const fake of [openai, byteplus, replicate, elevenlabs, a1111, comfyui]) fake.reset();
  Object.assign(replicate.predictions, {
    finishWhileWaiting: true,
    outcome: "succeeded",
    pollsBeforeDone: 1,
  });
});

describe("createProviders", () => {
  it("runs offline with no transcription when nothing is configured", () => {
    const providers = createProviders(offline);
    expect([providers.text.name, providers.image.name, providers.video.name]).toEqual([
      "offline",
      "offline",
      "offline",
    ]);
    expect(providers.speech).toBeUndefined();
    expect(providers.voice?.name).toBe("offline");
  });

  it("has no voice when TTS_PROVIDER is none", () => {
    const providers = createProviders({ ...offline, voice: { ...offline.voice, kind: "none" } });
    expect(providers.voice).toBeUndefined();
  });

  it("wires OpenAI and ElevenLabs speech with their default models", async () => {
    const viaOpenAI = createProviders({
      ...offline,
      voice: { kind: "openai", apiKey: openai.apiKey, baseUrl: openai.baseUrl, model: undefined },
    });
    await viaOpenAI.voice?.speak({ text: "Hello", voice: "alloy" });
    expect(openai.requests[0]?.path).toBe("/v1/audio/speech");
    expect(openai.requests[0]?.json).toMatchObject({ model: defaultModels.voice.openai });

    const viaElevenLabs = createProviders({
      ...offline,
      voice: { kind: "elevenlabs", apiKey: elevenlabs.apiKey, baseUrl: elevenlabs.baseUrl, model: undefined },
    });
    expect(viaElevenLabs.voice?.name).toBe("elevenlabs");
    await viaElevenLabs.voice?.speak({ text: "Hello", voice: viaElevenLabs.voice.defaultVoice });
    expect(elevenlabs.requests[0]?.json).toMatchObject({ model_id: defaultModels.voice.elevenlabs });
  });

  it("wires OpenAI for text, images and speech with the default models", async () => {
    const settings = {
      kind: "openai" as const,
      apiKey: openai.apiKey,
      baseUrl: `${openai.baseUrl}/`,
      model: undefined,
    };
    const providers = createProviders({ ...offline, text: settings, image: settings, speech: settings });
    expect([providers.text.name, providers.image.name, providers.speech?.name]).toEqual([
      "openai",
      "openai",
      "openai",
    ]);
    expect(providers.video.name).toBe("offline");
    await providers.text.complete({ purpose: "advice", messages: [{ role: "user", content: "hi" }] });
    await providers.image.generate({ prompt: "x", count: 1, references: [] });
    await providers.speech?.transcribe({
      audio: Buffer.from("a"),
      mimeType: "audio/webm",
      filename: "a.webm",
    });
    const models = openai.requests.map((request) =>
      request.json ? (request.json as { model: string }).model : "multipart",
    );
    expect(models.slice(0, 2)).toEqual([defaultModels.text.openai, defaultModels.image.openai]);
    expect(openai.requests[2]?.path).toBe("/v1/audio/transcriptions");
  });

  it("wires BytePlus for text, images and video", async () => {
    const settings = {
      kind: "byteplus" as const,
      apiKey: byteplus.apiKey,
      baseUrl: byteplus.baseUrl,
      model: undefined,
    };
    const providers = createProviders({ ...offline, text: settings, image: settings, video: settings });
    expect([providers.text.name, providers.image.name, providers.video.name]).toEqual([
      "byteplus",
      "byteplus",
      "byteplus",
    ]);
    await providers.text.complete({ purpose: "advice", messages: [{ role: "user", content: "hi" }] });
    await providers.image.generate({ prompt: "x", count: 1, references: [] });
    await providers.video.start({ prompt: "x", image: await sampleReference(), durationSeconds: 5 });
    expect(byteplus.requests.map((request) => (request.json as { model: string }).model)).toEqual([
      defaultModels.text.byteplus,
      defaultModels.image.byteplus,
      defaultModels.video.byteplus,
    ]);
  });

  it("wires Replicate for images and video, and honours a model override", async () => {
    const settings = { kind: "replicate" as const, apiKey: replicate.apiKey, baseUrl: replicate.baseUrl };
    const providers = createProviders({
      ...offline,
      image: { ...settings, model: undefined },
      video: { ...settings, model: "bytedance/seedance-1-pro" },
    });
    expect([providers.image.name, providers.video.name]).toEqual(["replicate", "replicate"]);
    await providers.image.generate({ prompt: "x", count: 1, references: [] });
    await providers.video.start({ prompt: "x", image: await sampleReference(), durationSeconds: 5 });
    expect(replicate.requests.map((request) => request.path)).toEqual([
      `/v1/models/${defaultModels.image.replicate}/predictions`,
      "/v1/models/bytedance/seedance-1-pro/predictions",
    ]);
  });

  it("wires Replicate's edit models: the defaults, or REPLICATE_INPAINT_MODEL and REPLICATE_UPSCALE_MODEL", async () => {
    const image = {
      kind: "replicate" as const,
      apiKey: replicate.apiKey,
      baseUrl: replicate.baseUrl,
      model: undefined,
    };
    const picture = await sampleReference();
    const byDefault = createProviders({ ...offline, image });
    await byDefault.image.edit?.({ kind: "upscale", image: picture, prompt: "", seed: 0 });
    await byDefault.image.edit?.({
      kind: "outpaint",
      image: picture,
      prompt: "x",
      direction: "left",
      seed: 0,
    });
    expect(replicate.requests.map((request) => request.path)).toEqual([
      "/v1/predictions",
      "/v1/models/black-forest-labs/flux-fill-pro/predictions",
    ]);
    expect(replicate.requests[0]?.json).toMatchObject({ version: fakeRealEsrganVersion });
    replicate.reset();
    const configured = createProviders({
      ...offline,
      image,
      replicateInpaintModel: `black-forest-labs/flux-fill-pro:${"b".repeat(64)}`,
      replicateUpscaleModel: "nightmareai/real-esrgan",
    });
    await configured.image.edit?.({ kind: "upscale", image: picture, prompt: "", seed: 0 });
    await configured.image.edit?.({
      kind: "outpaint",
      image: picture,
      prompt: "x",
      direction: "left",
      seed: 0,
    });
    expect(replicate.requests.map((request) => request.path)).toEqual([
      "/v1/models/nightmareai/real-esrgan/predictions",
      "/v1/predictions",
    ]);
    expect(replicate.requests[1]?.json).toMatchObject({ version: "b".repeat(64) });
  });

  it("uses the configured model instead of the default", async () => {
    const providers = createProviders({
      ...offline,
      text: { kind: "openai", apiKey: openai.apiKey, baseUrl: openai.baseUrl, model: "llama3.1:8b" },
    });
    await providers.text.complete({ purpose: "advice", messages: [{ role: "user", content: "hi" }] });
    expect(openai.requests[0]?.json).toMatchObject({ model: "llama3.1:8b" });
  });

  it("wires the operator's own GPU: AUTOMATIC1111 with its loaded checkpoint and the default upscaler", async () => {
    const providers = createProviders({
      ...offline,
      image: { kind: "a1111", apiKey: undefined, baseUrl: `${a1111.baseUrl}/`, model: undefined },
    });
    expect(providers.image.name).toBe("a1111");
    expect(providers.image.takesSeed).toBe(true);
    await providers.image.generate({ prompt: "x", count: 1, references: [] });
    const picture = await sampleReference();
    await providers.image.edit?.({ kind: "upscale", image: picture, prompt: "", seed: 0 });
    expect(a1111.requests.map((request) => request.path)).toEqual([
      "/sdapi/v1/txt2img",
      "/sdapi/v1/extra-single-image",
    ]);
    expect(a1111.requests[0]?.json).not.toHaveProperty("override_settings");
    expect(a1111.requests[1]?.json).toMatchObject({ upscaler_1: "R-ESRGAN 4x+" });
  });

  it("wires ComfyUI for images and video with the default model files, IMAGE_UPSCALER and the operator's workflows", async () => {
    const own = structuredClone(shippedWorkflows.txt2img);
    own["7"]!.inputs.filename_prefix = "operator/picture";
    const settings = {
      kind: "comfyui" as const,
      apiKey: undefined,
      baseUrl: comfyui.baseUrl,
      model: undefined,
    };
    const providers = createProviders({
      ...offline,
      image: settings,
      video: settings,
      imageUpscaler: "4x-UltraSharp.pth",
      comfyuiWorkflows: { txt2img: own },
    });
    expect([providers.image.name, providers.video.name]).toEqual(["comfyui", "comfyui"]);
    await providers.image.generate({ prompt: "x", count: 1, references: [] });
    await providers.image.edit?.({ kind: "upscale", image: await sampleReference(), prompt: "", seed: 0 });
    await providers.video.start({ prompt: "x", image: await sampleReference(), durationSeconds: 5 });
    const [picture, upscale, clip] = comfyui.prompts.map((prompt) => Object.values(prompt.workflow));
    expect(picture?.find((node) => node.class_type === "SaveImage")?.inputs.filename_prefix).toBe(
      "operator/picture",
    );
    expect(picture?.find((node) => node.class_type === "CheckpointLoaderSimple")?.inputs).toEqual({
      ckpt_name: defaultModels.image.comfyui,
    });
    expect(upscale?.find((node) => node.class_type === "UpscaleModelLoader")?.inputs).toEqual({
      model_name: "4x-UltraSharp.pth",
    });
    expect(clip?.find((node) => node.class_type === "UNETLoader")?.inputs).toMatchObject({
      unet_name: defaultModels.video.comfyui,
    });
  });
});

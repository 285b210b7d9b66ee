// Picks one adapter per capability from configuration, filling in each vendor's default base URL and model.
// The defaults live here and nowhere else; every one is overridable by *_BASE_URL and *_MODEL.
import type { ProvidersConfig } from "../config";
import { createA1111ImageProvider, defaultA1111Upscaler } from "./a1111/image";
import { createBytePlusImageProvider } from "./byteplus/image";
import { createBytePlusTextProvider } from "./byteplus/text";
import { createBytePlusVideoProvider } from "./byteplus/video";
import { createComfyUIImageProvider, defaultComfyCheckpoint, defaultComfyUpscaler } from "./comfyui/image";
import { createComfyUIVideoProvider, defaultComfyVideoModel } from "./comfyui/video";
import { type ComfyWorkflows, shippedWorkflows } from "./comfyui/workflows";
import { createElevenLabsVoiceProvider } from "./elevenlabs/voice";
import { normalizeBaseUrl } from "./http";
import { instrumentProviders } from "./instrument";
import { createOfflineImageProvider } from "./offline/image";
import { createOfflineTextProvider } from "./offline/text";
import { createOfflineVideoProvider } from "./offline/video";
import { createOfflineVoiceProvider } from "./offline/voice";
import { createOpenAIEmbeddingsProvider } from "./openai/embeddings";
import { createOpenAIImageProvider } from "./openai/image";
import { createOpenAISpeechProvider } from "./openai/speech";
import { createOpenAITextProvider } from "./openai/text";
import { createOpenAIVoiceProvider } from "./openai/voice";
import {
  createReplicateImageProvider,
  defaultReplicateInpaintModel,
  defaultReplicateUpscaleModel,
} from "./replicate/image";
import { createReplicateVideoProvider } from "./replicate/video";
import type {
  EmbeddingsProvider,
  ImageProvider,
  Providers,
  SpeechProvider,
  TextProvider,
  VideoProvider,
  VoiceProvider,
} from "./types";

export const defaultBaseUrls = {
  openai: "https://api.openai.com/v1",
  // The Volcengine (mainland China) region of the same API: https://ark.cn-beijing.volces.com/api/v3
  byteplus: "https://ark.ap-southeast.bytepluses.com/api/v3",
  replicate: "https://api.replicate.com/v1",
  elevenlabs: "https://api.elevenlabs.io/v1",
  // The operator's own GPU (decision 0156): each server's own default address on the same machine.
  a1111: "http://127.0.0.1:7860",
  comfyui: "http://127.0.0.1:8188",
} as const;

export const defaultModels = {
  text: { openai: "gpt-4o-mini", byteplus: "seed-1-6-250615" },
  image: {
    openai: "gpt-image-1",
    byteplus: "seedream-4-0-250828",
    replicate: "bytedance/seedream-4",
    comfyui: defaultComfyCheckpoint,
  },
  video: {
    byteplus: "seedance-1-0-pro-250528",
    replicate: "bytedance/seedance-1-pro",
    comfyui: defaultComfyVideoModel,
  },
  speech: { openai: "whisper-1" },
  voice: { openai: "gpt-4o-mini-tts", elevenlabs: "eleven_multilingual_v2" },
  embeddings: { openai: "text-embedding-3-small" },
} as const;

type Settings = { apiKey: string | undefined; baseUrl: string | undefined; model: string | undefined };

/** What every adapter shares: the time limit and where result files may be downloaded from. */
type Shared = Pick<
  ProvidersConfig,
  | "timeoutMs"
  | "downloadHosts"
  | "offlineWordsPerSecond"
  | "offlineMediaScale"
  | "imageUpscaler"
  | "replicateInpaintModel"
  | "replicateUpscaleModel"
> & { comfyuiWorkflows: ComfyWorkflows };

function resolve(settings: Settings, vendor: keyof typeof defaultBaseUrls, model: string, shared: Shared) {
  return {
    apiKey: settings.apiKey,
    baseUrl: normalizeBaseUrl(settings.baseUrl ?? defaultBaseUrls[vendor]),
    model: settings.model ?? model,
    timeoutMs: shared.timeoutMs,
    downloadHosts: shared.downloadHosts,
  };
}

export function createProviders(config: ProvidersConfig): Providers {
  const shared: Shared = {
    timeoutMs: config.timeoutMs,
    downloadHosts: config.downloadHosts,
    offlineWordsPerSecond: config.offlineWordsPerSecond,
    offlineMediaScale: config.offlineMediaScale,
    imageUpscaler: config.imageUpscaler,
    replicateInpaintModel: config.replicateInpaintModel,
    replicateUpscaleModel: config.replicateUpscaleModel,
    // The operator's workflows replace the shipped ones of the same kind.
    comfyuiWorkflows: { ...shippedWorkflows, ...config.comfyuiWorkflows },
  };
  // Every vendor call is counted for the metrics (instrument.ts).
  return instrumentProviders({
    text: createText(config.text, shared),
    image: createImage(config.image, shared),
    video: createVideo(config.video, shared),
    speech: createSpeech(config.speech, shared),
    voice: createVoice(config.voice, shared),
    embeddings: createEmbeddings(config.embeddings, shared),
  });
}

function createText(settings: ProvidersConfig["text"], shared: Shared): TextProvider {
  switch (settings.kind) {
    case "openai":
      return createOpenAITextProvider({
        ...resolve(settings, "openai", defaultModels.text.openai, shared),
        vendor: "openai",
      });
    case "byteplus":
      return createBytePlusTextProvider(resolve(settings, "byteplus", defaultModels.text.byteplus, shared));
    case "offline":
      return createOfflineTextProvider({ wordsPerSecond: shared.offlineWordsPerSecond });
  }
}

function createImage(settings: ProvidersConfig["image"], shared: Shared): ImageProvider {
  switch (settings.kind) {
    case "openai":
      return createOpenAIImageProvider({
        ...resolve(settings, "openai", defaultModels.image.openai, shared),
        vendor: "openai",
      });
    case "byteplus":
      return createBytePlusImageProvider(resolve(settings, "byteplus", defaultModels.image.byteplus, shared));
    case "replicate":
      return createReplicateImageProvider({
        ...resolve(settings, "replicate", defaultModels.image.replicate, shared),
        inpaintModel: shared.replicateInpaintModel ?? defaultReplicateInpaintModel,
        upscaleModel: shared.replicateUpscaleModel ?? defaultReplicateUpscaleModel,
      });
    case "a1111":
      return createA1111ImageProvider({
        ...resolve(settings, "a1111", "", shared),
        // Absent: whatever checkpoint the server has loaded.
        model: settings.model,
        upscaler: shared.imageUpscaler ?? defaultA1111Upscaler,
      });
    case "comfyui":
      return createComfyUIImageProvider({
        ...resolve(settings, "comfyui", defaultModels.image.comfyui, shared),
        upscaler: shared.imageUpscaler ?? defaultComfyUpscaler,
        workflows: shared.comfyuiWorkflows,
      });
    case "offline":
      return createOfflineImageProvider({ scale: shared.offlineMediaScale });
  }
}

function createVideo(settings: ProvidersConfig["video"], shared: Shared): VideoProvider {
  switch (settings.kind) {
    case "byteplus":
      return createBytePlusVideoProvider(resolve(settings, "byteplus", defaultModels.video.byteplus, shared));
    case "replicate":
      return createReplicateVideoProvider(
        resolve(settings, "replicate", defaultModels.video.replicate, shared),
      );
    case "comfyui":
      return createComfyUIVideoProvider({
        ...resolve(settings, "comfyui", defaultModels.video.comfyui, shared),
        workflows: shared.comfyuiWorkflows,
      });
    case "offline":
      return createOfflineVideoProvider({ scale: shared.offlineMediaScale });
  }
}

function createSpeech(settings: ProvidersConfig["speech"], shared: Shared): SpeechProvider | undefined {
  switch (settings.kind) {
    case "openai":
      return createOpenAISpeechProvider({
        ...resolve(settings, "openai", defaultModels.speech.openai, shared),
        vendor: "openai",
      });
    case "none":
      return undefined;
  }
}

function createVoice(settings: ProvidersConfig["voice"], shared: Shared): VoiceProvider | undefined {
  switch (settings.kind) {
    case "openai":
      return createOpenAIVoiceProvider({
        ...resolve(settings, "openai", defaultModels.voice.openai, shared),
        vendor: "openai",
      });
    case "elevenlabs":
      return createElevenLabsVoiceProvider({
        ...resolve(settings, "elevenlabs", defaultModels.voice.elevenlabs, shared),
        vendor: "elevenlabs",
      });
    case "offline":
      return createOfflineVoiceProvider();
    case "none":
      return undefined;
  }
}

function createEmbeddings(
  settings: ProvidersConfig["embeddings"],
  shared: Shared,
): EmbeddingsProvider | undefined {
  switch (settings?.kind ?? "none") {
    case "openai":
      return createOpenAIEmbeddingsProvider({
        ...resolve(settings!, "openai", defaultModels.embeddings.openai, shared),
        vendor: "openai",
      });
    case "none":
      return undefined;
  }
}

// A fake OpenAI API (/v1): the model list, chat completions (whole and streamed), gpt-image-1 generations and edits, audio
// transcriptions and speech (raw PCM, a tone per voice), embeddings (a hashed bag of words, or a vector a test sets), with OpenAI's request checks and its `{error: {message, type, param, code}}` error bodies.
import sharp from "sharp";
import { type ChatState, chatReply } from "./chat";
import {
  bearerToken,
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  readMultipart,
  startFakeServer,
} from "./fake-server";
import { samplePng } from "./media";

export type OpenAIFake = FakeServer & {
  /** Base URL to configure, ending in /v1. */
  baseUrl: string;
  apiKey: string;
  chat: ChatState;
  /** What transcriptions answer. */
  transcript: { text: string };
  /** The PNG every generated image is by default. */
  png: Buffer;
  /** What the next image answers carry as b64_json (tests put non-images here). */
  images: { bytes: Buffer };
  /** The model ids GET /v1/models lists. */
  models: { ids: string[] };
  /**
   * What /v1/embeddings answers: a vector a test set for an exact text (any length, normalised here), else
   * fakeEmbedding(text). `delayMs` holds every answer back that long (a slow vendor).
   */
  embeddings: { vectors: Map<string, number[]>; delayMs: number };
};

/** The fake's vectors' length. */
export const FAKE_EMBEDDING_DIMENSIONS = 64;

const normalised = (vector: number[]) => {
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
};

/**
 * A deterministic stand-in for a model's embedding: the text's lower-cased words hashed into 64 dimensions,
 * normalised. Texts sharing words are near; texts sharing none are (nearly) orthogonal.
 */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
    vector[hash % FAKE_EMBEDDING_DIMENSIONS]! += 1;
  }
  return normalised(vector);
}

/** `/v1/embeddings` with OpenAI's checks: `{model, input: string | string[], encoding_format?}`. */
function embeddingsReply(json: unknown, vectors: Map<string, number[]>): FakeReply {
  const body = (json ?? {}) as { model?: unknown; input?: unknown; encoding_format?: unknown };
  if (typeof body.model !== "string" || !body.model) {
    return openAIError(400, "missing_required_parameter", "Missing required parameter: 'model'.");
  }
  const input = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || input.some((text) => typeof text !== "string")) {
    return openAIError(
      400,
      "invalid_type",
      "Invalid type for 'input': expected a string or an array of strings.",
    );
  }
  if (input.length > 2048) {
    return openAIError(
      400,
      "array_above_max_length",
      `Invalid 'input': array too long. Got ${input.length}.`,
    );
  }
  if (input.some((text) => !text)) {
    return openAIError(400, "invalid_value", "'$.input' is invalid: an input is empty.");
  }
  if (body.encoding_format !== undefined && body.encoding_format !== "float") {
    return openAIError(400, "unsupported_value", "The fake answers only encoding_format 'float'.");
  }
  if (body.model.startsWith("missing")) {
    return openAIError(404, "model_not_found", `The model '${body.model}' does not exist.`);
  }
  return {
    kind: "json",
    status: 200,
    body: {
      object: "list",
      data: (input as string[]).map((text, index) => ({
        object: "embedding",
        index,
        embedding: normalised(vectors.get(text) ?? fakeEmbedding(text)),
      })),
      model: body.model,
      usage: { prompt_tokens: input.length * 8, total_tokens: input.length * 8 },
    },
  };
}

/**
 * A chat request a story's turn made: not the living-lore job's (decision 0112), which reads each turn's
 * narration in the background and so may come before or after the next turn's requests.
 */
export const isTurnChat = (request: RecordedRequest): boolean =>
  request.path === "/v1/chat/completions" &&
  !(request.json as { messages?: { content?: unknown }[] } | null)?.messages?.[0]?.content
    ?.toString()
    .startsWith("Role: lore keeper.");

const defaults: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: {
    type: "requests",
    code: "rate_limit_exceeded",
    message:
      "Rate limit reached for gpt-image-1 in organization org-fake on requests per min (RPM): Limit 5, Used 5, Requested 1. Please try again in 12s.",
  },
  500: {
    type: "server_error",
    code: null,
    message: "The server had an error while processing your request. Sorry about that!",
  },
  503: {
    type: "server_error",
    code: null,
    message: "The engine is currently overloaded, please try again later",
  },
};

export const openAIError: ErrorShape = (status, code, message) => {
  const fallback = defaults[status] ?? defaults[500]!;
  return {
    kind: "json",
    status,
    body: {
      error: {
        message: message ?? fallback.message,
        type: fallback.type,
        param: null,
        code: code === undefined ? fallback.code : code,
      },
    },
  };
};

/** The voices `audio/speech` accepts, as OpenAI documents them. */
export const openAISpeechVoices = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
  "marin",
  "cedar",
];

/** How long the fakes speak per character of input. */
export const fakeSecondsPerCharacter = 0.06;

/**
 * The audio a fake speech API answers: s16le mono at `sampleRate`, a sine whose pitch depends only on the
 * voice (100..900 Hz) and whose length is proportional to the text. Tests can tell voices and texts apart.
 */
export function fakeSpeechPcm(voice: string, text: string, sampleRate: number): Buffer {
  const frequency = fakeToneFrequency(voice);
  const samples = Math.round(text.length * fakeSecondsPerCharacter * sampleRate);
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * frequency * index) / sampleRate)), index * 2);
  }
  return pcm;
}

/** The fake tone's pitch for a voice, in Hz. */
export function fakeToneFrequency(voice: string): number {
  let hash = 0;
  for (const char of voice) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return 100 + (hash % 81) * 10;
}

const imageSizes = new Set(["1024x1024", "1536x1024", "1024x1536", "auto"]);
const audioExtensions = new Set(["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"]);

type ImageParams = { model: unknown; prompt: unknown; n: unknown; size: unknown };

function imageProblem(params: ImageParams): FakeReply | undefined {
  if (typeof params.prompt !== "string" || !params.prompt) {
    return openAIError(400, "missing_required_parameter", "Missing required parameter: 'prompt'.");
  }
  if (params.prompt.includes("forbidden")) {
    return openAIError(
      400,
      "moderation_blocked",
      "Your request was rejected as a result of our safety system. Your request may contain content that is not allowed by our safety system.",
    );
  }
  const n = Number(params.n ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 10) {
    return openAIError(400, "integer_above_max_value", `Invalid 'n': integer above maximum value. Got ${n}.`);
  }
  if (params.size !== undefined && !imageSizes.has(String(params.size))) {
    return openAIError(
      400,
      "invalid_value",
      `Invalid value: '${String(params.size)}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`,
    );
  }
  if (String(params.model).startsWith("missing")) {
    return openAIError(404, "model_not_found", `The model '${String(params.model)}' does not exist.`);
  }
  return undefined;
}

/** OpenAI's mask rules: a PNG with an alpha channel, the first image's size (transparent = may be edited). */
async function maskProblem(mask: File | string | null, image: File): Promise<FakeReply | undefined> {
  if (mask === null) return undefined;
  if (typeof mask === "string")
    return openAIError(400, "invalid_image", "Invalid 'mask': expected an image file.");
  const [maskMeta, imageMeta] = await Promise.all([
    sharp(Buffer.from(await mask.arrayBuffer())).metadata(),
    sharp(Buffer.from(await image.arrayBuffer())).metadata(),
  ]);
  if (maskMeta.format !== "png" || !maskMeta.hasAlpha) {
    return openAIError(400, "invalid_image_format", "Invalid 'mask': must be a PNG with an alpha channel.");
  }
  if (maskMeta.width !== imageMeta.width || maskMeta.height !== imageMeta.height) {
    return openAIError(400, "invalid_image", "Invalid 'mask': the mask and the image must be the same size.");
  }
  return undefined;
}

function imagesReply(bytes: Buffer, n: number): FakeReply {
  return {
    kind: "json",
    status: 200,
    body: {
      created: 1_700_000_000,
      data: Array.from({ length: n }, () => ({ b64_json: bytes.toString("base64") })),
      usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50 },
    },
  };
}

/** The pitch of a fake tone, measured from its upward zero crossings (what a test hears). */
export function measuredToneFrequency(pcm: Buffer, sampleRate: number): number {
  let crossings = 0;
  for (let offset = 2; offset + 1 < pcm.length; offset += 2) {
    if (pcm.readInt16LE(offset - 2) < 0 && pcm.readInt16LE(offset) >= 0) crossings += 1;
  }
  return crossings / (pcm.length / 2 / sampleRate);
}

const speechFormats = ["mp3", "opus", "aac", "flac", "wav", "pcm"];

/** `audio/speech` with OpenAI's checks; only `pcm` is answered with real (fake) audio. */
function speechReply(json: unknown): FakeReply {
  const body = (json ?? {}) as {
    model?: unknown;
    input?: unknown;
    voice?: unknown;
    response_format?: unknown;
  };
  for (const field of ["model", "input", "voice"] as const) {
    if (typeof body[field] !== "string" || !body[field]) {
      return openAIError(400, "missing_required_parameter", `Missing required parameter: '${field}'.`);
    }
  }
  const input = String(body.input);
  const voice = String(body.voice);
  if (input.length > 4096) {
    return openAIError(
      400,
      "string_above_max_length",
      `Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length ${input.length} instead.`,
    );
  }
  if (!openAISpeechVoices.includes(voice)) {
    return openAIError(
      400,
      "invalid_value",
      `Invalid value: '${voice}'. Supported values are: ${openAISpeechVoices.map((id) => `'${id}'`).join(", ")}.`,
    );
  }
  if (String(body.model).startsWith("missing")) {
    return openAIError(404, "model_not_found", `The model '${String(body.model)}' does not exist.`);
  }
  const format = body.response_format ?? "mp3";
  if (!speechFormats.includes(String(format))) {
    return openAIError(400, "invalid_value", `Invalid value: '${String(format)}'.`);
  }
  if (format !== "pcm") {
    return openAIError(400, "unsupported_value", "The fake speaks only response_format 'pcm'.");
  }
  return { kind: "raw", status: 200, body: fakeSpeechPcm(voice, input, 24_000), contentType: "audio/pcm" };
}

export async function startOpenAIFake(options: { apiKey?: string } = {}): Promise<OpenAIFake> {
  const apiKey = options.apiKey ?? "sk-test-openai-0123456789abcdef";
  const chat: ChatState = { pieces: ["Once", " upon", " a time."], midStream: "none" };
  const transcript = { text: " Hello from the microphone. " };
  const png = await samplePng();
  const images = { bytes: png };
  const models = { ids: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"] };
  const embeddings = { vectors: new Map<string, number[]>(), delayMs: 0 };

  async function handle(request: RecordedRequest): Promise<FakeReply> {
    const token = bearerToken(request);
    if (token !== apiKey) {
      const shown = token ? `${token.slice(0, 3)}*****${token.slice(-4)}` : "";
      return openAIError(
        401,
        "invalid_api_key",
        `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      );
    }
    const route = `${request.method} ${request.path}`;
    switch (route) {
      case "GET /v1/models":
        return {
          kind: "json",
          status: 200,
          body: {
            object: "list",
            data: models.ids.map((id) => ({
              id,
              object: "model",
              created: 1_700_000_000,
              owned_by: "system",
            })),
          },
        };
      case "POST /v1/chat/completions":
        return chatReply(request, chat, openAIError);
      case "POST /v1/images/generations": {
        const body = (request.json ?? {}) as ImageParams;
        return imageProblem(body) ?? imagesReply(images.bytes, Number(body.n ?? 1));
      }
      case "POST /v1/images/edits": {
        const form = await readMultipart(request);
        const files = [...form.getAll("image[]"), ...form.getAll("image")];
        if (files.length === 0 || files.length > 16 || files.some((file) => typeof file === "string")) {
          return openAIError(400, "invalid_image", "Invalid 'image': expected 1 to 16 image files.");
        }
        const params = {
          model: form.get("model"),
          prompt: form.get("prompt"),
          n: form.get("n") ?? undefined,
          size: form.get("size") ?? undefined,
        };
        return (
          imageProblem(params) ??
          (await maskProblem(form.get("mask"), files[0] as File)) ??
          imagesReply(images.bytes, Number(params.n ?? 1))
        );
      }
      case "POST /v1/audio/transcriptions": {
        const form = await readMultipart(request);
        const file = form.get("file");
        if (!file || typeof file === "string") {
          return openAIError(400, "missing_required_parameter", "Missing required parameter: 'file'.");
        }
        if (!form.get("model")) {
          return openAIError(400, "missing_required_parameter", "Missing required parameter: 'model'.");
        }
        const extension = file.name.split(".").pop() ?? "";
        if (!audioExtensions.has(extension)) {
          return openAIError(
            400,
            "invalid_value",
            "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
          );
        }
        return { kind: "json", status: 200, body: { text: transcript.text } };
      }
      case "POST /v1/audio/speech":
        return speechReply(request.json);
      case "POST /v1/embeddings":
        if (embeddings.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, embeddings.delayMs));
        return embeddingsReply(request.json, embeddings.vectors);
      default:
        return openAIError(404, null, `Invalid URL (${route})`);
    }
  }

  const server = await startFakeServer(handle, openAIError);
  return Object.assign(server, {
    baseUrl: `${server.origin}/v1`,
    apiKey,
    chat,
    transcript,
    png,
    images,
    models,
    embeddings,
  });
}

// A fake OpenAI API (/v1): the model list, chat completions (whole and streamed), gpt-image-1 generations and edits, and audio
// transcriptions, with OpenAI's request checks and its `{error: {message, type, param, code}}` error bodies.
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
};

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

export async function startOpenAIFake(options: { apiKey?: string } = {}): Promise<OpenAIFake> {
  const apiKey = options.apiKey ?? "sk-test-openai-0123456789abcdef";
  const chat: ChatState = { pieces: ["Once", " upon", " a time."], midStream: "none" };
  const transcript = { text: " Hello from the microphone. " };
  const png = await samplePng();
  const images = { bytes: png };
  const models = { ids: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"] };

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
        return imageProblem(params) ?? imagesReply(images.bytes, Number(params.n ?? 1));
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
  });
}

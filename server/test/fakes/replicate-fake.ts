// A fake Replicate API (/v1): predictions for bytedance/seedream-4 and bytedance/seedance-1-pro, and for the
// edit models (decision 0162): black-forest-labs/flux-fill-pro (image, mask, prompt; it paints the mask's white
// pixels) and a pinned nightmareai/real-esrgan (image, scale; it really enlarges by `scale`), reading inputs
// from data URIs or from files uploaded to its files API (POST /v1/files), answered at once
// under `Prefer: wait` or going starting -> processing -> done across polls, with Replicate's input validation
// (422) and its problem-details error bodies `{title, detail, status}`.
import sharp from "sharp";
import {
  bearerToken,
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  readMultipart,
  startFakeServer,
} from "./fake-server";
import { sampleMp4, samplePng } from "./media";

/** The pinned Real-ESRGAN version the fake knows (a community model runs by version). */
export const fakeRealEsrganVersion = "f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa";

export type PredictionOutcome = "succeeded" | "failed" | "canceled";

export type ReplicateFake = FakeServer & {
  /** Base URL to configure, ending in /v1. */
  baseUrl: string;
  apiKey: string;
  predictions: {
    /** Under `Prefer: wait`, answer finished (true) or still "starting" (false, as when the wait runs out). */
    finishWhileWaiting: boolean;
    outcome: PredictionOutcome;
    /** Polls a prediction answers before its outcome: the first says "processing". */
    pollsBeforeDone: number;
  };
  /** Ids of predictions that were cancelled through the API. */
  cancelled: string[];
};

const titles: Record<number, [string, string]> = {
  400: ["Bad request", "The request could not be understood."],
  401: ["Unauthenticated", "You did not pass a valid authentication token"],
  402: ["Insufficient credit", "You have insufficient credit to run this model."],
  403: ["Permission denied", "You do not have permission to perform this action."],
  404: ["Not found", "The requested resource could not be found."],
  422: ["Input validation failed", "The input is not valid."],
  429: ["Request was throttled", "Request was throttled. Your rate limit resets in ~5s."],
  500: ["Internal server error", "An unexpected error occurred."],
  503: ["Service unavailable", "The service is temporarily unavailable."],
};

export const replicateError: ErrorShape = (status, _code, message) => {
  const [title, detail] = titles[status] ?? titles[500]!;
  return {
    kind: "raw",
    status,
    contentType: "application/problem+json",
    body: JSON.stringify({ title, detail: message ?? detail, status }),
  };
};

function invalidInput(field: string, description: string): FakeReply {
  return {
    kind: "raw",
    status: 422,
    contentType: "application/problem+json",
    body: JSON.stringify({
      title: "Input validation failed",
      detail: `- input.${field}: ${description}\n`,
      status: 422,
      invalid_fields: [{ type: "invalid", field: `input.${field}`, description }],
    }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isUri(value: unknown): boolean {
  return (
    typeof value === "string" && (/^https?:\/\//.test(value) || /^data:[a-z]+\/[\w.+-]+;base64,/.test(value))
  );
}

const aspectRatios = ["match_input_image", "1:1", "4:3", "3:4", "16:9", "9:16", "3:2", "2:3", "21:9"];

/** Seedream 4's input schema; returns the number of images it will make, or the 422 to answer. */
function checkSeedream(input: Record<string, unknown>): number | FakeReply {
  if (typeof input.prompt !== "string" || !input.prompt) return invalidInput("prompt", "prompt is required");
  if (input.image_input !== undefined) {
    if (!Array.isArray(input.image_input))
      return invalidInput("image_input", "Invalid type. Expected: array");
    if (input.image_input.length > 10) return invalidInput("image_input", "Array must have at most 10 items");
    if (!input.image_input.every(isUri)) return invalidInput("image_input", "Does not match format 'uri'");
  }
  if (input.size !== undefined && !["1K", "2K", "4K", "custom"].includes(String(input.size))) {
    return invalidInput("size", 'size must be one of the following: "1K", "2K", "4K", "custom"');
  }
  if (input.aspect_ratio !== undefined && !aspectRatios.includes(String(input.aspect_ratio))) {
    return invalidInput("aspect_ratio", "aspect_ratio is not one of the allowed values");
  }
  const mode = input.sequential_image_generation ?? "disabled";
  if (mode !== "disabled" && mode !== "auto") {
    return invalidInput("sequential_image_generation", 'must be one of "disabled", "auto"');
  }
  const maxImages = Number(input.max_images ?? 1);
  if (!Number.isInteger(maxImages) || maxImages < 1 || maxImages > 15) {
    return invalidInput("max_images", "Must be between 1 and 15");
  }
  return mode === "auto" ? maxImages : 1;
}

function checkSeedance(input: Record<string, unknown>): FakeReply | undefined {
  if (typeof input.prompt !== "string" || !input.prompt) return invalidInput("prompt", "prompt is required");
  if (input.image !== undefined && !isUri(input.image))
    return invalidInput("image", "Does not match format 'uri'");
  const duration = Number(input.duration ?? 5);
  if (!Number.isInteger(duration) || duration < 2 || duration > 12) {
    return invalidInput("duration", "Must be between 2 and 12");
  }
  if (input.resolution !== undefined && !["480p", "720p", "1080p"].includes(String(input.resolution))) {
    return invalidInput("resolution", 'resolution must be one of "480p", "720p", "1080p"');
  }
  return undefined;
}

/** The bytes of an input file: a data URI, or a link to a file uploaded to this fake; else undefined. */
type InputBytes = (value: unknown) => Buffer | undefined;

/** FLUX.1 Fill [pro]: image and mask (URIs, the same size), a prompt; the picture with the mask's white painted. */
async function fluxFill(input: Record<string, unknown>, bytesOf: InputBytes): Promise<Buffer | FakeReply> {
  if (!isUri(input.image)) return invalidInput("image", "image is required");
  if (!isUri(input.mask)) return invalidInput("mask", "Does not match format 'uri'");
  if (typeof input.prompt !== "string" || !input.prompt) return invalidInput("prompt", "prompt is required");
  if (input.seed !== undefined && !(Number.isInteger(input.seed) && Math.abs(Number(input.seed)) < 2 ** 31)) {
    return invalidInput("seed", "Invalid type. Expected: integer");
  }
  const image = bytesOf(input.image);
  const mask = bytesOf(input.mask);
  if (!image || !mask) return invalidInput("image", "the fake reads data URIs and its own files only");
  const picture = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = picture.info;
  const white = await sharp(mask).greyscale().resize(width, height, { fit: "fill" }).raw().toBuffer();
  const paint = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#ff0000" } })
    .raw()
    .toBuffer();
  for (let i = 0; i < width * height; i++) {
    if (white[i]! >= 128) paint.copy(picture.data, i * 3, 0, 3);
  }
  return sharp(picture.data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
    .toBuffer();
}

/** Real-ESRGAN: image (URI) and scale (0..10, default 4); the picture enlarged by `scale`. */
async function realEsrgan(input: Record<string, unknown>, bytesOf: InputBytes): Promise<Buffer | FakeReply> {
  if (!isUri(input.image)) return invalidInput("image", "image is required");
  const scale = Number(input.scale ?? 4);
  if (!Number.isFinite(scale) || scale < 0 || scale > 10)
    return invalidInput("scale", "Must be between 0 and 10");
  const image = bytesOf(input.image);
  if (!image) return invalidInput("image", "the fake reads data URIs and its own files only");
  const { width = 0, height = 0 } = await sharp(image).metadata();
  return sharp(image)
    .resize(Math.round(width * scale), Math.round(height * scale))
    .png()
    .toBuffer();
}

type Stored = {
  id: string;
  model: string;
  input: Record<string, unknown>;
  outputCount: number | "video" | "one";
  /** The picture an edit model made ("one": a single link out). */
  picture?: Buffer;
  outcome: PredictionOutcome;
  polls: number;
  status: string;
};

export async function startReplicateFake(options: { apiKey?: string } = {}): Promise<ReplicateFake> {
  const apiKey = options.apiKey ?? "r8_testReplicateToken0123456789";
  const predictions: ReplicateFake["predictions"] = {
    finishWhileWaiting: true,
    outcome: "succeeded",
    pollsBeforeDone: 2,
  };
  const cancelled: string[] = [];
  const stored = new Map<string, Stored>();
  /** Files uploaded through `POST /v1/files`, by id. */
  const files = new Map<string, Buffer>();
  let counter = 0;
  const png = await samplePng(80, 60, "#228844");
  const mp4 = sampleMp4();
  let server: FakeServer;

  const bytesOf: InputBytes = (value) => {
    if (typeof value !== "string") return undefined;
    const data = /^data:[a-z]+\/[\w.+-]+;base64,(.*)$/s.exec(value);
    if (data) return Buffer.from(data[1]!, "base64");
    const file = value.startsWith(`${server.origin}/v1/files/`) ? value.slice(server.origin.length + 10) : "";
    return files.get(file);
  };

  /** Replicate's files API: multipart `content`, answered with the file's id and the link inputs name it by. */
  async function upload(request: RecordedRequest): Promise<FakeReply> {
    const content = (await readMultipart(request)).get("content");
    if (!(content instanceof File)) return invalidInput("content", "content is required");
    counter += 1;
    const id = `fakefile${counter}x`;
    files.set(id, Buffer.from(await content.arrayBuffer()));
    return {
      kind: "json",
      status: 201,
      body: {
        id,
        name: content.name,
        content_type: content.type,
        size: content.size,
        urls: { get: `${server.origin}/v1/files/${id}` },
      },
    };
  }

  function view(prediction: Stored): Record<string, unknown> {
    const succeeded = prediction.status === "succeeded";
    let output: unknown = null;
    if (succeeded && prediction.outputCount === "one") {
      output = server.addFile(`${prediction.id}.png`, prediction.picture ?? png, "image/png");
    } else if (succeeded && prediction.outputCount === "video") {
      output = server.addFile(`${prediction.id}.mp4`, mp4, "video/mp4");
    } else if (succeeded && typeof prediction.outputCount === "number") {
      output = Array.from({ length: prediction.outputCount }, (_, index) =>
        server.addFile(`${prediction.id}-${index}.png`, png, "image/png"),
      );
    }
    return {
      id: prediction.id,
      model: prediction.model,
      version: "dp-fakeversion",
      input: prediction.input,
      logs: "",
      output,
      data_removed: false,
      error:
        prediction.status === "failed"
          ? "The input or output was flagged as sensitive. Please try again with different inputs. (E005)"
          : null,
      status: prediction.status,
      created_at: "2025-01-01T00:00:00.000Z",
      urls: {
        get: `${server.origin}/v1/predictions/${prediction.id}`,
        cancel: `${server.origin}/v1/predictions/${prediction.id}/cancel`,
        web: `https://replicate.com/p/${prediction.id}`,
      },
    };
  }

  async function create(model: string, request: RecordedRequest): Promise<FakeReply> {
    const body = request.json;
    if (!isRecord(body) || !isRecord(body.input)) return invalidInput("input", "input is required");
    const input = body.input;
    let outputCount: number | "video" | "one";
    let picture: Buffer | undefined;
    if (model === "black-forest-labs/flux-fill-pro" || model === "nightmareai/real-esrgan") {
      const made =
        model === "nightmareai/real-esrgan"
          ? await realEsrgan(input, bytesOf)
          : await fluxFill(input, bytesOf);
      if (!Buffer.isBuffer(made)) return made;
      picture = made;
      outputCount = "one";
    } else if (model === "bytedance/seedream-4") {
      const checked = checkSeedream(input);
      if (typeof checked !== "number") return checked;
      outputCount = checked;
    } else if (model === "bytedance/seedance-1-pro") {
      const problem = checkSeedance(input);
      if (problem) return problem;
      outputCount = "video";
    } else {
      return replicateError(404);
    }
    counter += 1;
    const prediction: Stored = {
      id: `fakepred${counter}x`,
      model,
      input,
      outputCount,
      ...(picture ? { picture } : {}),
      outcome: predictions.outcome,
      polls: 0,
      status: "starting",
    };
    const waiting = /^wait/.test(String(request.headers.prefer ?? ""));
    if (waiting && predictions.finishWhileWaiting) prediction.status = prediction.outcome;
    stored.set(prediction.id, prediction);
    return { kind: "json", status: 201, body: view(prediction) };
  }

  function read(id: string): FakeReply {
    const prediction = stored.get(id);
    if (!prediction) return replicateError(404);
    if (prediction.status === "starting" || prediction.status === "processing") {
      prediction.polls += 1;
      prediction.status = prediction.polls >= predictions.pollsBeforeDone ? prediction.outcome : "processing";
    }
    return { kind: "json", status: 200, body: view(prediction) };
  }

  function handle(request: RecordedRequest): FakeReply | Promise<FakeReply> {
    if (bearerToken(request) !== apiKey) return replicateError(401);
    const modelPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(request.path);
    if (modelPath && request.method === "POST") {
      return create(`${decodeURIComponent(modelPath[1]!)}/${decodeURIComponent(modelPath[2]!)}`, request);
    }
    if (request.path === "/v1/files" && request.method === "POST") return upload(request);
    if (request.path === "/v1/predictions" && request.method === "POST") {
      // Pinned versions of the fake are seedream-4, but for the Real-ESRGAN one.
      const version = isRecord(request.json) ? request.json.version : undefined;
      return create(
        version === fakeRealEsrganVersion ? "nightmareai/real-esrgan" : "bytedance/seedream-4",
        request,
      );
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(request.path);
    if (cancel && request.method === "POST") {
      const prediction = stored.get(cancel[1]!);
      if (!prediction) return replicateError(404);
      prediction.status = "canceled";
      cancelled.push(prediction.id);
      return { kind: "json", status: 200, body: view(prediction) };
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(request.path);
    if (get && request.method === "GET") return read(decodeURIComponent(get[1]!));
    return replicateError(404);
  }

  server = await startFakeServer(handle, replicateError);
  return Object.assign(server, { baseUrl: `${server.origin}/v1`, apiKey, predictions, cancelled });
}

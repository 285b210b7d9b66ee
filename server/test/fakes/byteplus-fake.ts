// A fake BytePlus ModelArk API (/api/v3): OpenAI-compatible chat, Seedream 4 image generations (with per-item
// errors) and Seedance video tasks that go queued -> running -> done across polls, with ModelArk's request checks
// and its `{error: {code, message, param, type}}` error bodies.
import { type ChatState, chatReply } from "./chat";
import {
  bearerToken,
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "./fake-server";
import { sampleMp4, samplePng } from "./media";

export type TaskOutcome = "succeeded" | "failed" | "cancelled" | "expired";

export type BytePlusFake = FakeServer & {
  /** Base URL to configure, ending in /api/v3. */
  baseUrl: string;
  apiKey: string;
  chat: ChatState;
  images: {
    /** "some": the first item of the next answers fails; "all": every item does. */
    itemErrors: "none" | "some" | "all";
  };
  video: {
    /** How tasks created from now on end. */
    outcome: TaskOutcome;
    /** Polls a task answers "queued" then "running" before its outcome. */
    pollsBeforeDone: number;
    /** The clip a finished task hands back; absent: a tiny MP4 header (enough for content sniffing). */
    clip?: Buffer | undefined;
  };
};

const requestId = "021718067849274bd2c1f4c7d8e3a9b0c5d6e7f8a9b0c1d2e3f4";

const defaults: Record<number, { code: string; type: string; message: string }> = {
  400: {
    code: "InvalidParameter",
    type: "BadRequest",
    message: `A parameter specified in the request is not valid. Request id: ${requestId}`,
  },
  401: {
    code: "AuthenticationError",
    type: "Unauthorized",
    message: `The API key or AK/SK in the request is missing or invalid. Request id: ${requestId}`,
  },
  403: {
    code: "AccessDenied",
    type: "Forbidden",
    message: `The request failed because you do not have access to the requested resource. Request id: ${requestId}`,
  },
  404: {
    code: "InvalidEndpointOrModel.NotFound",
    type: "NotFound",
    message: `The model or endpoint does not exist or you do not have access to it. Request id: ${requestId}`,
  },
  429: {
    code: "RateLimitExceeded.EndpointRPMExceeded",
    type: "TooManyRequests",
    message: `The request has exceeded the rate limit of requests per minute. Request id: ${requestId}`,
  },
  500: {
    code: "InternalServiceError",
    type: "InternalServerError",
    message: `The service encountered an unexpected internal error. Request id: ${requestId}`,
  },
  503: {
    code: "ServiceUnavailable",
    type: "ServiceUnavailable",
    message: `The service is temporarily unavailable. Request id: ${requestId}`,
  },
};

export const bytePlusError: ErrorShape = (status, code, message) => {
  const fallback = defaults[status] ?? defaults[500]!;
  return {
    kind: "json",
    status,
    body: {
      error: {
        code: code ?? fallback.code,
        message: message ?? fallback.message,
        param: "",
        type: fallback.type,
      },
    },
  };
};

function invalid(param: string, why: string): FakeReply {
  return bytePlusError(
    400,
    "InvalidParameter",
    `The parameter \`${param}\` specified in the request is not valid: ${why}. Request id: ${requestId}`,
  );
}

function missing(param: string): FakeReply {
  return bytePlusError(
    400,
    "MissingParameter",
    `The request failed because it is missing one or multiple required parameters (${param}). Request id: ${requestId}`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A reference as ModelArk accepts it: a link or a base64 data URL of an image. */
function isImageSource(value: unknown): boolean {
  return (
    typeof value === "string" &&
    (/^https?:\/\//.test(value) || /^data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+$/.test(value))
  );
}

export async function startBytePlusFake(options: { apiKey?: string } = {}): Promise<BytePlusFake> {
  const apiKey = options.apiKey ?? "ark-test-key-0123456789abcdef";
  const chat: ChatState = { pieces: ["The", " tide", " turns."], midStream: "none" };
  const images: BytePlusFake["images"] = { itemErrors: "none" };
  const video: BytePlusFake["video"] = { outcome: "succeeded", pollsBeforeDone: 2 };
  const tasks = new Map<string, { polls: number; outcome: TaskOutcome; model: string }>();
  let taskCounter = 0;
  const png = await samplePng(96, 72, "#884422");
  const mp4 = sampleMp4();
  let server: FakeServer;

  function generateImages(body: unknown): FakeReply {
    if (!isRecord(body)) return missing("model");
    if (typeof body.model !== "string" || !body.model) return missing("model");
    if (typeof body.prompt !== "string" || !body.prompt) return missing("prompt");
    if (body.model.startsWith("missing")) {
      return bytePlusError(
        404,
        undefined,
        `The model or endpoint ${body.model} does not exist. Request id: ${requestId}`,
      );
    }
    const references = body.image === undefined ? [] : Array.isArray(body.image) ? body.image : [body.image];
    if (references.length > 10) return invalid("image", "the number of images exceeds the limit of 10");
    if (!references.every(isImageSource))
      return invalid("image", "each image must be a URL or a base64 data URL");
    if (body.size !== undefined && !/^(1K|2K|4K|\d{3,4}x\d{3,4})$/.test(String(body.size))) {
      return invalid("size", `unsupported size ${String(body.size)}`);
    }
    const [w, h] = String(body.size ?? "")
      .split("x")
      .map(Number);
    if (w && h && (w * h < 1280 * 720 || w * h > 4096 * 4096 || w / h > 16 || h / w > 16)) {
      return invalid("size", `${w}x${h} is outside 1280x720 to 4096x4096 pixels or 1:16 to 16:1`);
    }
    const mode = body.sequential_image_generation ?? "disabled";
    if (mode !== "disabled" && mode !== "auto")
      return invalid("sequential_image_generation", "must be disabled or auto");
    const options = isRecord(body.sequential_image_generation_options)
      ? body.sequential_image_generation_options
      : {};
    const maxImages = Number(options.max_images ?? 15);
    if (!Number.isInteger(maxImages) || maxImages < 1 || maxImages > 15) {
      return invalid("sequential_image_generation_options.max_images", "must be between 1 and 15");
    }
    const count = mode === "auto" ? maxImages : 1;
    if (references.length + count > 15) return invalid("image", "references plus outputs exceed 15");
    if (body.response_format !== undefined && !["url", "b64_json"].includes(String(body.response_format))) {
      return invalid("response_format", "must be url or b64_json");
    }
    if (
      body.seed !== undefined &&
      !(Number.isInteger(body.seed) && Number(body.seed) >= -1 && Number(body.seed) <= 2147483647)
    ) {
      return invalid("seed", "seed must be an integer from -1 to 2147483647");
    }
    if (body.watermark !== undefined && typeof body.watermark !== "boolean")
      return invalid("watermark", "must be a boolean");
    const data = Array.from({ length: count }, (_, index) => {
      if (images.itemErrors === "all" || (images.itemErrors === "some" && index === 0)) {
        return {
          error: {
            code: "OutputImageSensitiveContentDetected",
            message: `The request failed because the output image may contain sensitive information. Request id: ${requestId}`,
          },
        };
      }
      const name = `seedream-${Date.now()}-${index}.png`;
      return body.response_format === "b64_json"
        ? { b64_json: png.toString("base64"), size: "2304x1728" }
        : { url: server.addFile(name, png, "image/png"), size: "2304x1728" };
    });
    const generated = data.filter((item) => !("error" in item)).length;
    return {
      kind: "json",
      status: 200,
      body: {
        model: body.model,
        created: 1_700_000_000,
        data,
        usage: {
          generated_images: generated,
          output_tokens: generated * 16384,
          total_tokens: generated * 16384,
        },
      },
    };
  }

  function createTask(body: unknown): FakeReply {
    if (!isRecord(body) || typeof body.model !== "string" || !body.model) return missing("model");
    if (body.model.startsWith("missing")) return bytePlusError(404);
    if (!Array.isArray(body.content) || body.content.length === 0) return missing("content");
    const items = body.content.filter(isRecord);
    const text = items.find((item) => item.type === "text");
    if (!text || typeof text.text !== "string" || !text.text.trim()) return missing("content.text");
    const duration = /--(?:duration|dur)\s+(\S+)/.exec(text.text)?.[1];
    if (duration !== undefined && !["3", "4", "5", "6", "7", "8", "9", "10", "11", "12"].includes(duration)) {
      return invalid("duration", `unsupported duration ${duration}`);
    }
    for (const item of items.filter((entry) => entry.type === "image_url")) {
      const url = isRecord(item.image_url) ? item.image_url.url : undefined;
      if (!isImageSource(url)) return invalid("content.image_url", "must be a URL or a base64 data URL");
      if (
        item.role !== undefined &&
        !["first_frame", "last_frame", "reference_image"].includes(String(item.role))
      ) {
        return invalid("content.role", `unsupported role ${String(item.role)}`);
      }
    }
    // First-and-last-frame mode: one of each, and a last frame only with a first frame.
    const roles = items.filter((entry) => entry.type === "image_url").map((entry) => entry.role);
    const count = (role: string) => roles.filter((entry) => entry === role).length;
    if (count("first_frame") > 1 || count("last_frame") > 1) {
      return invalid("content.role", "at most one first_frame and one last_frame image");
    }
    if (count("last_frame") === 1 && count("first_frame") !== 1) {
      return invalid("content.role", "a last_frame image needs a first_frame image");
    }
    const fixed = /--(?:camerafixed|cf)\s+(\S+)/.exec(text.text)?.[1];
    if (fixed !== undefined && !["true", "false"].includes(fixed)) {
      return invalid("camerafixed", `unsupported camerafixed ${fixed}`);
    }
    taskCounter += 1;
    const id = `cgt-20250101000000-fake${taskCounter}`;
    tasks.set(id, { polls: 0, outcome: video.outcome, model: body.model });
    return { kind: "json", status: 200, body: { id } };
  }

  function readTask(id: string): FakeReply {
    const task = tasks.get(id);
    if (!task) {
      return bytePlusError(
        404,
        "ResourceNotFound",
        `The specified task ${id} is not found. Request id: ${requestId}`,
      );
    }
    task.polls += 1;
    const status =
      task.polls > video.pollsBeforeDone ? task.outcome : task.polls === 1 ? "queued" : "running";
    const done = status === "succeeded";
    return {
      kind: "json",
      status: 200,
      body: {
        id,
        model: task.model,
        status,
        content: done
          ? { video_url: server.addFile(`${id}.mp4`, video.clip ?? mp4, "video/mp4") }
          : undefined,
        error:
          status === "failed"
            ? {
                code: "OutputVideoSensitiveContentDetected",
                message: `The request failed because the output video may contain sensitive information. Request id: ${requestId}`,
              }
            : null,
        duration: 5,
        resolution: "720p",
        ratio: "4:3",
        created_at: 1_700_000_000,
        updated_at: 1_700_000_000 + task.polls,
      },
    };
  }

  function handle(request: RecordedRequest): FakeReply {
    if (bearerToken(request) !== apiKey) return bytePlusError(401);
    const route = `${request.method} ${request.path}`;
    if (route === "POST /api/v3/chat/completions") return chatReply(request, chat, bytePlusError);
    if (route === "POST /api/v3/images/generations") return generateImages(request.json);
    if (route === "POST /api/v3/contents/generations/tasks") return createTask(request.json);
    const taskId = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(request.path)?.[1];
    if (taskId && request.method === "GET") return readTask(decodeURIComponent(taskId));
    if (taskId && request.method === "DELETE" && tasks.delete(decodeURIComponent(taskId))) {
      return { kind: "json", status: 200, body: {} };
    }
    return bytePlusError(404, "NotFound", `The requested resource ${request.path} is not found.`);
  }

  server = await startFakeServer(handle, bytePlusError);
  return Object.assign(server, { baseUrl: `${server.origin}/api/v3`, apiKey, chat, images, video });
}

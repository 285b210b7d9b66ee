// A fake ComfyUI server: POST /upload/image (multipart), POST /prompt {prompt, client_id} -> {prompt_id,
// number, node_errors}, GET /history/{prompt_id} ({} until the prompt is done, then its outputs and status),
// GET /view?filename=&subfolder=&type=, and POST /queue {delete}. It checks a workflow the way ComfyUI's
// validation does before queueing it (known node types, required inputs, links to existing nodes and outputs,
// model files and uploaded pictures that exist, an output node) and answers its 400 body
// `{error: {type, message, details, extra_info}, node_errors}`; other failures are aiohttp's plain-text pages.
//
// It runs the graph for real, in a small way: sizes flow from EmptyLatentImage, LoadImage and ImageScale, a
// sampler's picture is one flat colour made from its seed (seedColour), upscaling models make 4x, and
// SaveVideo writes a small MP4. So a test sees what a workflow would make, not what the adapter hoped for.
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { seedColour } from "./a1111-fake";
import {
  bearerToken,
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  readMultipart,
  startFakeServer,
} from "./fake-server";
import { sampleMp4 } from "./media";

export type ComfyOutcome = "success" | "error" | "never";

export type ComfyUIFake = FakeServer & {
  /** Base URL to configure: the server's root. */
  baseUrl: string;
  /** A reverse proxy's bearer token in front of it, when started with one. */
  apiKey: string | undefined;
  behaviour: {
    /** How prompts queued from now on end; "never": they stay running. */
    outcome: ComfyOutcome;
    /** How the next prompts end, one each, before `outcome` applies again. */
    nextOutcomes: ComfyOutcome[];
    /** History reads a prompt answers with {} (queued, running) before its outcome. */
    pollsBeforeDone: number;
    /** The exception a failing prompt's sampler raises. */
    errorMessage: string;
  };
  /** Every prompt queued, in order: its id and the workflow as received. */
  prompts: {
    id: string;
    workflow: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  }[];
  /** Pictures uploaded to the input folder, by name. */
  uploads: Map<string, Buffer>;
  /** The pictures VAEEncode nodes encoded, in the order run: what an image-to-image started from. */
  encoded: Buffer[];
  /** Prompt ids taken off the queue through POST /queue. */
  deleted: string[];
  /** The model files the server has, by folder. */
  models: Record<
    "checkpoints" | "diffusion_models" | "upscale_models" | "text_encoders" | "vae" | "clip_vision",
    string[]
  >;
};

const reasons: Record<number, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

function validationFailed(
  type: string,
  message: string,
  details: string,
  nodeErrors: unknown = {},
): FakeReply {
  return {
    kind: "json",
    status: 400,
    body: { error: { type, message, details, extra_info: {} }, node_errors: nodeErrors },
  };
}

export const comfyError: ErrorShape = (status, code, message) =>
  status === 400
    ? validationFailed(code ?? "invalid_prompt", message ?? "Invalid prompt", "")
    : {
        kind: "raw",
        status,
        contentType: "text/plain",
        body: `${status}: ${message ?? reasons[status] ?? "Error"}`,
      };

type Value =
  | { kind: "token"; what: string }
  | { kind: "image"; png: Buffer; width: number; height: number }
  | { kind: "mask"; png: Buffer; width: number; height: number }
  | { kind: "latent"; width: number; height: number; seed?: number; frames?: number }
  | { kind: "video"; frames: number; fps: number; width: number; height: number }
  | { kind: "cond" };

type Node = { class_type: string; inputs: Record<string, unknown> };
type Graph = Record<string, Node>;
type Output = Record<string, unknown>;

/** A validation problem of one node, as ComfyUI lists it in node_errors. */
class Invalid extends Error {
  constructor(
    readonly node: string,
    readonly classType: string,
    readonly kind: string,
    message: string,
    readonly details: string,
  ) {
    super(message);
  }
}

/** Each node type the fake knows: its required inputs and whether it is an output node. */
const NODE_TYPES: Record<string, { required: string[]; output?: boolean }> = {
  CheckpointLoaderSimple: { required: ["ckpt_name"] },
  UNETLoader: { required: ["unet_name", "weight_dtype"] },
  CLIPLoader: { required: ["clip_name", "type"] },
  VAELoader: { required: ["vae_name"] },
  CLIPVisionLoader: { required: ["clip_name"] },
  CLIPVisionEncode: { required: ["clip_vision", "image"] },
  CLIPTextEncode: { required: ["text", "clip"] },
  EmptyLatentImage: { required: ["width", "height", "batch_size"] },
  LoadImage: { required: ["image"] },
  LoadImageMask: { required: ["image", "channel"] },
  VAEEncode: { required: ["pixels", "vae"] },
  SetLatentNoiseMask: { required: ["samples", "mask"] },
  KSampler: {
    required: [
      "model",
      "seed",
      "steps",
      "cfg",
      "sampler_name",
      "scheduler",
      "positive",
      "negative",
      "latent_image",
      "denoise",
    ],
  },
  VAEDecode: { required: ["samples", "vae"] },
  UpscaleModelLoader: { required: ["model_name"] },
  ImageUpscaleWithModel: { required: ["upscale_model", "image"] },
  ImageScale: { required: ["image", "upscale_method", "width", "height", "crop"] },
  ImageBlend: { required: ["image1", "image2", "blend_factor", "blend_mode"] },
  WanImageToVideo: { required: ["positive", "negative", "vae", "width", "height", "length", "batch_size"] },
  ModelSamplingSD3: { required: ["model", "shift"] },
  CreateVideo: { required: ["images", "fps"] },
  SaveImage: { required: ["images", "filename_prefix"], output: true },
  PreviewImage: { required: ["images"], output: true },
  SaveVideo: { required: ["video", "filename_prefix", "format", "codec"], output: true },
};

/** ComfyUI's ImageBlend blend modes, per channel on 0..1 values (comfy_extras/nodes_post_processing.py). */
const BLEND_MODES: Record<string, (a: number, b: number) => number> = {
  normal: (_a, b) => b,
  multiply: (a, b) => a * b,
  screen: (a, b) => 1 - (1 - a) * (1 - b),
  overlay: (a, b) => (a <= 0.5 ? 2 * a * b : 1 - 2 * (1 - a) * (1 - b)),
  soft_light: (a, b) => {
    const g = a <= 0.25 ? ((16 * a - 12) * a + 4) * a : Math.sqrt(a);
    return b <= 0.5 ? a - (1 - 2 * b) * a * (1 - a) : a + (2 * b - 1) * (g - a);
  },
  difference: (a, b) => a - b,
};

/** ImageBlend: image2 scaled to image1's size (centre crop), blended by mode, mixed in by the factor. */
async function blendImages(
  image1: { png: Buffer; width: number; height: number },
  image2: { png: Buffer },
  factor: number,
  mode: (a: number, b: number) => number,
): Promise<Buffer> {
  const { width, height } = image1;
  const a = await sharp(image1.png).removeAlpha().raw().toBuffer();
  const b = await sharp(image2.png).resize(width, height, { fit: "cover" }).removeAlpha().raw().toBuffer();
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]! / 255;
    const mixed = x * (1 - factor) + mode(x, b[i]! / 255) * factor;
    out[i] = Math.round(Math.max(0, Math.min(1, mixed)) * 255);
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const solid = (width: number, height: number, colour: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

type Stored = {
  id: string;
  number: number;
  graph: Graph;
  outcome: ComfyOutcome;
  polls: number;
  outputs?: Record<string, Output>;
};

export async function startComfyUIFake(options: { apiKey?: string } = {}): Promise<ComfyUIFake> {
  const apiKey = options.apiKey;
  const behaviour: ComfyUIFake["behaviour"] = {
    outcome: "success",
    nextOutcomes: [],
    pollsBeforeDone: 1,
    errorMessage: "Allocation on device 0 would exceed allowed memory. (out of memory)",
  };
  const models: ComfyUIFake["models"] = {
    checkpoints: ["sd_xl_base_1.0.safetensors", "juggernautXL_v9.safetensors"],
    diffusion_models: ["wan2.1_i2v_480p_14B_fp8_e4m3fn.safetensors"],
    upscale_models: ["RealESRGAN_x4plus.pth", "4x-UltraSharp.pth"],
    text_encoders: ["umt5_xxl_fp8_e4m3fn_scaled.safetensors"],
    vae: ["wan_2.1_vae.safetensors", "sdxl_vae.safetensors"],
    clip_vision: ["clip_vision_h.safetensors"],
  };
  const prompts: ComfyUIFake["prompts"] = [];
  const uploads = new Map<string, Buffer>();
  const encoded: Buffer[] = [];
  const deleted: string[] = [];
  const stored = new Map<string, Stored>();
  const files = new Map<string, { body: Buffer; contentType: string }>();
  let counter = 0;

  /** Runs the graph (validation and execution at once): each node's outputs by id. */
  async function evaluate(graph: Graph): Promise<Record<string, Output>> {
    const results = new Map<string, Value[]>();
    const outputs: Record<string, Output> = {};

    async function input(id: string, node: Node, name: string): Promise<unknown> {
      const value = node.inputs[name];
      if (!Array.isArray(value)) return value;
      const [from, slot] = value as [string, number];
      if (value.length !== 2 || typeof from !== "string" || !graph[from]) {
        throw new Invalid(
          id,
          node.class_type,
          "bad_linked_input",
          "Bad linked input, must be a length-2 list of [node_id, slot_index]",
          name,
        );
      }
      const produced = await run(from);
      return produced[slot];
    }
    const number = (id: string, node: Node, name: string, value: unknown): number => {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new Invalid(
          id,
          node.class_type,
          "invalid_input_type",
          "Failed to convert an input value to a INT value",
          `${name}, ${String(value)}`,
        );
      }
      return value;
    };
    const inList = (id: string, node: Node, name: string, value: unknown, list: string[]) => {
      if (typeof value !== "string" || !list.includes(value)) {
        throw new Invalid(
          id,
          node.class_type,
          "value_not_in_list",
          "Value not in list",
          `${name}: '${String(value)}' not in ${JSON.stringify(list)}`,
        );
      }
      return value;
    };

    async function run(id: string): Promise<Value[]> {
      const done = results.get(id);
      if (done) return done;
      const node = graph[id]!;
      const type = NODE_TYPES[node.class_type]!;
      for (const name of type.required) {
        if (!(name in node.inputs)) {
          throw new Invalid(id, node.class_type, "required_input_missing", "Required input is missing", name);
        }
      }
      const get = (name: string) => input(id, node, name);
      let out: Value[];
      switch (node.class_type) {
        case "CheckpointLoaderSimple":
          inList(id, node, "ckpt_name", node.inputs.ckpt_name, models.checkpoints);
          out = [
            { kind: "token", what: "model" },
            { kind: "token", what: "clip" },
            { kind: "token", what: "vae" },
          ];
          break;
        case "UNETLoader":
          inList(id, node, "unet_name", node.inputs.unet_name, models.diffusion_models);
          out = [{ kind: "token", what: "model" }];
          break;
        case "CLIPLoader":
          inList(id, node, "clip_name", node.inputs.clip_name, models.text_encoders);
          out = [{ kind: "token", what: "clip" }];
          break;
        case "VAELoader":
          inList(id, node, "vae_name", node.inputs.vae_name, models.vae);
          out = [{ kind: "token", what: "vae" }];
          break;
        case "CLIPVisionLoader":
          inList(id, node, "clip_name", node.inputs.clip_name, models.clip_vision);
          out = [{ kind: "token", what: "clip_vision" }];
          break;
        case "UpscaleModelLoader":
          inList(id, node, "model_name", node.inputs.model_name, models.upscale_models);
          out = [{ kind: "token", what: "upscale_model" }];
          break;
        case "CLIPTextEncode":
          if (typeof node.inputs.text !== "string") {
            throw new Invalid(
              id,
              node.class_type,
              "invalid_input_type",
              "Failed to convert an input value to a STRING value",
              "text",
            );
          }
          await get("clip");
          out = [{ kind: "cond" }];
          break;
        case "CLIPVisionEncode":
          await get("clip_vision");
          await get("image");
          out = [{ kind: "token", what: "clip_vision_output" }];
          break;
        case "ModelSamplingSD3":
          out = [(await get("model")) as Value];
          break;
        case "EmptyLatentImage":
          out = [
            {
              kind: "latent",
              width: number(id, node, "width", node.inputs.width),
              height: number(id, node, "height", node.inputs.height),
            },
          ];
          break;
        case "LoadImage":
        case "LoadImageMask": {
          const name = inList(id, node, "image", node.inputs.image, [...uploads.keys()]);
          const png = uploads.get(name)!;
          const meta = await sharp(png).metadata();
          const size = { width: meta.width!, height: meta.height! };
          out =
            node.class_type === "LoadImage"
              ? [
                  { kind: "image", png, ...size },
                  { kind: "mask", png, ...size },
                ]
              : [{ kind: "mask", png, ...size }];
          break;
        }
        case "VAEEncode": {
          const pixels = (await get("pixels")) as Extract<Value, { kind: "image" }>;
          encoded.push(pixels.png);
          out = [{ kind: "latent", width: pixels.width, height: pixels.height }];
          break;
        }
        case "SetLatentNoiseMask":
          await get("mask");
          out = [(await get("samples")) as Value];
          break;
        case "WanImageToVideo":
          await get("positive");
          await get("negative");
          out = [
            { kind: "cond" },
            { kind: "cond" },
            {
              kind: "latent",
              width: number(id, node, "width", node.inputs.width),
              height: number(id, node, "height", node.inputs.height),
              frames: number(id, node, "length", node.inputs.length),
            },
          ];
          break;
        case "KSampler": {
          await get("model");
          await get("positive");
          await get("negative");
          const latent = (await get("latent_image")) as Extract<Value, { kind: "latent" }>;
          const seed = number(id, node, "seed", node.inputs.seed);
          const denoise = number(id, node, "denoise", node.inputs.denoise);
          if (denoise < 0 || denoise > 1) {
            throw new Invalid(
              id,
              node.class_type,
              "value_bigger_than_max",
              "Value bigger than max",
              `denoise ${denoise}`,
            );
          }
          out = [{ ...latent, seed }];
          break;
        }
        case "VAEDecode": {
          const latent = (await get("samples")) as Extract<Value, { kind: "latent" }>;
          await get("vae");
          const png = await solid(latent.width, latent.height, seedColour(latent.seed ?? 0));
          out = [{ kind: "image", png, width: latent.width, height: latent.height }];
          if (latent.frames) results.set(`${id}:frames`, [latent]);
          break;
        }
        case "ImageUpscaleWithModel": {
          await get("upscale_model");
          const image = (await get("image")) as Extract<Value, { kind: "image" }>;
          const png = await sharp(image.png)
            .resize(image.width * 4, image.height * 4)
            .png()
            .toBuffer();
          out = [{ kind: "image", png, width: image.width * 4, height: image.height * 4 }];
          break;
        }
        case "ImageScale": {
          const image = (await get("image")) as Extract<Value, { kind: "image" }>;
          const width = number(id, node, "width", node.inputs.width);
          const height = number(id, node, "height", node.inputs.height);
          const png = await sharp(image.png).resize(width, height, { fit: "fill" }).png().toBuffer();
          out = [{ kind: "image", png, width, height }];
          break;
        }
        case "ImageBlend": {
          const image1 = (await get("image1")) as Extract<Value, { kind: "image" }>;
          const image2 = (await get("image2")) as Extract<Value, { kind: "image" }>;
          const factor = number(id, node, "blend_factor", node.inputs.blend_factor);
          const mode = inList(id, node, "blend_mode", node.inputs.blend_mode, Object.keys(BLEND_MODES));
          if (factor < 0 || factor > 1) {
            throw new Invalid(
              id,
              node.class_type,
              "value_bigger_than_max",
              "Value bigger than max",
              `${factor}`,
            );
          }
          const png = await blendImages(image1, image2, factor, BLEND_MODES[mode]!);
          out = [{ kind: "image", png, width: image1.width, height: image1.height }];
          break;
        }
        case "CreateVideo": {
          const image = (await get("images")) as Extract<Value, { kind: "image" }>;
          const from = (graph[id]!.inputs.images as [string, number])[0];
          const frames = (results.get(`${from}:frames`)?.[0] as { frames?: number } | undefined)?.frames ?? 1;
          out = [
            {
              kind: "video",
              frames,
              fps: number(id, node, "fps", node.inputs.fps),
              width: image.width,
              height: image.height,
            },
          ];
          break;
        }
        case "SaveImage":
        case "PreviewImage": {
          const image = (await get("images")) as Extract<Value, { kind: "image" }>;
          const type = node.class_type === "SaveImage" ? "output" : "temp";
          const prefix = String(node.inputs.filename_prefix ?? "ComfyUI");
          const subfolder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
          counter += 1;
          const filename = `${prefix.slice(prefix.lastIndexOf("/") + 1)}_${String(counter).padStart(5, "0")}_.png`;
          files.set(`${type}/${subfolder}/${filename}`, { body: image.png, contentType: "image/png" });
          outputs[id] = { images: [{ filename, subfolder, type }] };
          out = [];
          break;
        }
        case "SaveVideo": {
          await get("video");
          const prefix = String(node.inputs.filename_prefix);
          const subfolder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
          counter += 1;
          const filename = `${prefix.slice(prefix.lastIndexOf("/") + 1)}_${String(counter).padStart(5, "0")}_.mp4`;
          files.set(`output/${subfolder}/${filename}`, { body: sampleMp4(), contentType: "video/mp4" });
          outputs[id] = { images: [{ filename, subfolder, type: "output" }], animated: [true] };
          out = [];
          break;
        }
        default:
          out = [];
      }
      results.set(id, out);
      return out;
    }

    for (const [id, node] of Object.entries(graph)) {
      if (NODE_TYPES[node.class_type]?.output) await run(id);
    }
    return outputs;
  }

  async function queue(request: RecordedRequest): Promise<FakeReply> {
    const body = request.json as { prompt?: unknown; client_id?: unknown } | undefined;
    const graph = body?.prompt;
    if (typeof graph !== "object" || graph === null || Array.isArray(graph)) {
      return validationFailed("no_prompt", "No prompt provided", "No prompt provided");
    }
    for (const [id, node] of Object.entries(graph as Record<string, unknown>)) {
      const type = (node as { class_type?: unknown })?.class_type;
      if (typeof type !== "string" || !(type in NODE_TYPES)) {
        return validationFailed(
          "invalid_prompt",
          `Cannot execute because node ${String(type)} does not exist.`,
          `Node ID '#${id}'`,
        );
      }
    }
    const typed = graph as Graph;
    if (!Object.values(typed).some((node) => NODE_TYPES[node.class_type]?.output)) {
      return validationFailed("prompt_no_outputs", "Prompt has no outputs", "");
    }
    let outputs: Record<string, Output>;
    try {
      outputs = await evaluate(typed);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      return validationFailed(
        "prompt_outputs_failed_validation",
        "Prompt outputs failed validation",
        `${error.message}: ${error.details}`,
        {
          [error.node]: {
            errors: [{ type: error.kind, message: error.message, details: error.details, extra_info: {} }],
            dependent_outputs: [],
            class_type: error.classType,
          },
        },
      );
    }
    const id = randomUUID();
    const number = stored.size;
    const outcome = behaviour.nextOutcomes.shift() ?? behaviour.outcome;
    stored.set(id, { id, number, graph: typed, outcome, polls: 0, outputs });
    prompts.push({ id, workflow: typed });
    return { kind: "json", status: 200, body: { prompt_id: id, number, node_errors: {} } };
  }

  function history(id: string): FakeReply {
    const prompt = stored.get(id);
    if (!prompt || prompt.outcome === "never" || deleted.includes(id))
      return { kind: "json", status: 200, body: {} };
    prompt.polls += 1;
    if (prompt.polls <= behaviour.pollsBeforeDone) return { kind: "json", status: 200, body: {} };
    const started = ["execution_start", { prompt_id: id, timestamp: 1_700_000_000_000 }];
    const entry =
      prompt.outcome === "success"
        ? {
            outputs: prompt.outputs,
            status: {
              status_str: "success",
              completed: true,
              messages: [
                started,
                ["execution_cached", { nodes: [], prompt_id: id }],
                ["execution_success", { prompt_id: id }],
              ],
            },
          }
        : {
            outputs: {},
            status: {
              status_str: "error",
              completed: false,
              messages: [
                started,
                [
                  "execution_error",
                  {
                    prompt_id: id,
                    node_id: "5",
                    node_type: "KSampler",
                    executed: [],
                    exception_message: behaviour.errorMessage,
                    exception_type: "torch.OutOfMemoryError",
                    traceback: ['  File "/opt/ComfyUI/execution.py", line 496, in execute\n'],
                    current_inputs: {},
                    current_outputs: {},
                  },
                ],
              ],
            },
          };
    return {
      kind: "json",
      status: 200,
      body: {
        [id]: {
          prompt: [prompt.number, id, prompt.graph, {}, Object.keys(prompt.outputs ?? {})],
          ...entry,
          meta: {},
        },
      },
    };
  }

  async function upload(request: RecordedRequest): Promise<FakeReply> {
    let form: FormData;
    try {
      form = await readMultipart(request);
    } catch {
      return { kind: "raw", status: 400, body: "", contentType: "text/plain" };
    }
    const image = form.get("image");
    if (!(image instanceof File) || !image.name)
      return { kind: "raw", status: 400, body: "", contentType: "text/plain" };
    const subfolder = String(form.get("subfolder") ?? "");
    let name = image.name;
    const overwrite = form.get("overwrite") === "true" || form.get("overwrite") === "1";
    for (let i = 1; !overwrite && uploads.has(subfolder ? `${subfolder}/${name}` : name); i++) {
      name = image.name.replace(/(\.[^.]*)?$/, ` (${i})$1`);
    }
    const data = Buffer.from(await image.arrayBuffer());
    try {
      await sharp(data).metadata();
    } catch {
      return { kind: "raw", status: 500, body: "500: Internal Server Error", contentType: "text/plain" };
    }
    uploads.set(subfolder ? `${subfolder}/${name}` : name, data);
    return {
      kind: "json",
      status: 200,
      body: { name, subfolder, type: String(form.get("type") ?? "input") },
    };
  }

  async function handle(request: RecordedRequest): Promise<FakeReply> {
    if (apiKey !== undefined && bearerToken(request) !== apiKey) {
      return { kind: "raw", status: 401, body: "401: Unauthorized", contentType: "text/plain" };
    }
    const historyMatch = /^\/history\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && historyMatch) return history(decodeURIComponent(historyMatch[1]!));
    if (request.method === "GET" && request.path === "/view") {
      const { query } = request;
      const file = files.get(
        `${query.get("type") ?? "output"}/${query.get("subfolder") ?? ""}/${query.get("filename")}`,
      );
      if (!file) return comfyError(404);
      return { kind: "raw", status: 200, body: file.body, contentType: file.contentType };
    }
    if (request.method === "POST" && request.path === "/prompt") return queue(request);
    if (request.method === "POST" && request.path === "/upload/image") return upload(request);
    if (request.method === "POST" && request.path === "/queue") {
      const ids = (request.json as { delete?: unknown } | undefined)?.delete;
      if (Array.isArray(ids)) deleted.push(...ids.map(String));
      return { kind: "raw", status: 200, body: "", contentType: "text/plain" };
    }
    return comfyError(404);
  }

  const server = await startFakeServer(handle, comfyError);
  const reset = server.reset;
  return Object.assign(server, {
    baseUrl: server.origin,
    apiKey,
    behaviour,
    prompts,
    uploads,
    encoded,
    deleted,
    models,
    reset: () => {
      reset();
      prompts.length = 0;
      encoded.length = 0;
      deleted.length = 0;
    },
  });
}

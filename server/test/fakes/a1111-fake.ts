// A fake AUTOMATIC1111 web UI API (/sdapi/v1): txt2img, img2img (with an optional mask) and
// extra-single-image, answering base64 PNGs and the `info` JSON string with the seeds, checking what A1111's
// FastAPI models and handlers check (known sampler and upscaler, sizes, an init image for img2img, `--api-auth`
// Basic credentials when started with some), and failing with its bodies: `{error, detail, body, errors}` from
// its exception middleware, `{detail: [...]}` for a request FastAPI could not validate.
//
// Each picture is one flat colour made from its seed, so a test can tell which seed painted what; img2img
// paints every pixel (A1111 returns the whole picture) and upscaling resizes by `upscaling_resize`.
// GET /sdapi/v1/scripts lists the scripts installed (`behaviour.scripts`, none by default, as a stock install);
// `alwayson_scripts` naming one that is not installed is refused with A1111's 422, and ControlNet's units are
// checked as the extension checks them (a decodable image, a known module, at most its max units).
import sharp from "sharp";
import {
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "./fake-server";

export type A1111Fake = FakeServer & {
  /** Base URL to configure: the server's root, with /sdapi/v1 under it. */
  baseUrl: string;
  /** `--api-auth` credentials as IMAGE_API_KEY takes them (user:password), when started with them. */
  apiKey: string | undefined;
  behaviour: {
    /** Put a grid in front of a batch's pictures (A1111 does unless told not to save one). */
    gridFirst: boolean;
    /** The always-on scripts installed, by name ("controlnet" for the ControlNet extension). */
    scripts: string[];
  };
};

/** ControlNet's reference preprocessors (they need no model) and a few others it lists. */
const controlNetModules = [
  "none",
  "reference_only",
  "reference_adain",
  "reference_adain+attn",
  "canny",
  "depth",
];
/** ControlNet's default "Multi ControlNet: max models amount". */
const controlNetMaxUnits = 3;

/** The samplers and upscalers a stock A1111 lists (GET /sdapi/v1/samplers, /sdapi/v1/upscalers). */
const samplers = ["Euler a", "Euler", "DPM++ 2M", "DPM++ SDE", "DDIM", "UniPC"];
const upscalers = ["None", "Lanczos", "Nearest", "ESRGAN_4x", "R-ESRGAN 4x+", "R-ESRGAN 4x+ Anime6B"];

/**
 * The body of A1111's exception middleware: an HTTPException it raised carries its `detail` (and reads
 * "<status>: <detail>" as text); any other exception only its text, in `errors`.
 */
export const a1111Error: ErrorShape = (status, code, message) => {
  const name = code ?? "HTTPException";
  const detail = message ?? (status >= 500 ? "Internal Server Error" : "Bad request");
  return {
    kind: "json",
    status,
    body:
      name === "HTTPException"
        ? { error: name, detail, body: "", errors: `${status}: ${detail}` }
        : { error: name, detail: "", body: "", errors: detail },
  };
};

/** FastAPI's answer to a body its model refuses. */
function unprocessable(field: string, msg: string): FakeReply {
  return {
    kind: "json",
    status: 422,
    body: { detail: [{ loc: ["body", field], msg, type: "value_error" }] },
  };
}

/** The flat colour a seed paints. */
export function seedColour(seed: number): { r: number; g: number; b: number } {
  const mixed = Math.imul(seed >>> 0, 2654435761) >>> 0;
  return { r: mixed & 0xff, g: (mixed >>> 8) & 0xff, b: (mixed >>> 16) & 0xff };
}

async function picture(width: number, height: number, seed: number): Promise<string> {
  const data = await sharp({ create: { width, height, channels: 3, background: seedColour(seed) } })
    .png()
    .toBuffer();
  return data.toString("base64");
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

async function decodes(base64: unknown): Promise<boolean> {
  if (typeof base64 !== "string" || !base64) return false;
  try {
    await sharp(Buffer.from(base64.replace(/^data:image\/\w+;base64,/, ""), "base64")).metadata();
    return true;
  } catch {
    return false;
  }
}

export async function startA1111Fake(options: { apiKey?: string } = {}): Promise<A1111Fake> {
  const apiKey = options.apiKey;
  const behaviour: A1111Fake["behaviour"] = { gridFirst: false, scripts: [] };

  /** A1111's check of `alwayson_scripts`, and ControlNet's of its units; null when they are fine. */
  async function scriptsProblem(body: Record<string, unknown>): Promise<FakeReply | null> {
    const scripts = record(body.alwayson_scripts);
    for (const [name, value] of Object.entries(scripts)) {
      if (!behaviour.scripts.includes(name.toLowerCase())) {
        return a1111Error(422, "HTTPException", `always on script ${name} not found`);
      }
      if (name.toLowerCase() !== "controlnet") continue;
      const args = record(value).args;
      if (!Array.isArray(args)) return unprocessable("alwayson_scripts", "args must be a list");
      if (args.length > controlNetMaxUnits) {
        return a1111Error(
          500,
          "ValueError",
          `Too many ControlNet units: ${args.length} > ${controlNetMaxUnits}`,
        );
      }
      for (const unit of args.map(record)) {
        if (!(await decodes(unit.image))) return a1111Error(500, "HTTPException", "Invalid encoded image");
        if (!controlNetModules.includes(String(unit.module))) {
          return a1111Error(500, "ValueError", `Unrecognized preprocessor: ${String(unit.module)}`);
        }
      }
    }
    return null;
  }

  async function paint(body: Record<string, unknown>, img2img: boolean): Promise<FakeReply> {
    const width = Number(body.width ?? 512);
    const height = Number(body.height ?? 512);
    if (!Number.isInteger(width) || !Number.isInteger(height)) {
      return unprocessable("width", "value is not a valid integer");
    }
    if (width < 64 || height < 64 || width > 2048 || height > 2048) {
      return a1111Error(500, "ValueError", "width and height must be between 64 and 2048");
    }
    const sampler = body.sampler_name ?? "Euler";
    if (typeof sampler !== "string" || !samplers.includes(sampler)) {
      return a1111Error(404, "HTTPException", "Sampler not found");
    }
    if (img2img) {
      const init = body.init_images;
      if (!Array.isArray(init) || init.length === 0) {
        return a1111Error(404, "HTTPException", "Init image not found");
      }
      for (const image of [...init, ...(body.mask ? [body.mask] : [])]) {
        if (!(await decodes(image))) return a1111Error(500, "HTTPException", "Invalid encoded image");
      }
    }
    const scripts = await scriptsProblem(body);
    if (scripts) return scripts;
    const count = Number(body.batch_size ?? 1) * Number(body.n_iter ?? 1);
    const asked = Number(body.seed ?? -1);
    const seed = asked === -1 ? Math.floor(Math.random() * 2 ** 32) : asked;
    const seeds = Array.from({ length: count }, (_, index) => seed + index);
    const images = await Promise.all(seeds.map((each) => picture(width, height, each)));
    const grid = behaviour.gridFirst && count > 1 && body.do_not_save_grid !== true;
    if (grid) images.unshift(await picture(width, height, 0));
    const info = {
      prompt: body.prompt ?? "",
      all_prompts: seeds.map(() => body.prompt ?? ""),
      negative_prompt: body.negative_prompt ?? "",
      seed,
      all_seeds: seeds,
      subseed: 1,
      width,
      height,
      sampler_name: sampler,
      cfg_scale: body.cfg_scale ?? 7,
      steps: body.steps ?? 20,
      batch_size: body.batch_size ?? 1,
      denoising_strength: img2img ? (body.denoising_strength ?? 0.75) : null,
      index_of_first_image: grid ? 1 : 0,
      infotexts: seeds.map((each) => `${body.prompt ?? ""}\nSteps: ${body.steps ?? 20}, Seed: ${each}`),
    };
    return {
      kind: "json",
      status: 200,
      body: { images, parameters: { ...body, init_images: null, mask: null }, info: JSON.stringify(info) },
    };
  }

  async function upscale(body: Record<string, unknown>): Promise<FakeReply> {
    if (!(await decodes(body.image))) return a1111Error(500, "HTTPException", "Invalid encoded image");
    const name = String(body.upscaler_1 ?? "None");
    if (!upscalers.includes(name)) {
      return a1111Error(500, "AssertionError", `could not find upscaler named ${name}`);
    }
    const factor = Number(body.upscaling_resize ?? 2);
    const source = Buffer.from(String(body.image), "base64");
    const meta = await sharp(source).metadata();
    const image = await sharp(source)
      .resize(Math.round(meta.width! * factor), Math.round(meta.height! * factor))
      .png()
      .toBuffer();
    return {
      kind: "json",
      status: 200,
      body: { html_info: "<p>Upscale: 2, model:R-ESRGAN 4x+</p>", image: image.toString("base64") },
    };
  }

  async function handle(request: RecordedRequest): Promise<FakeReply> {
    if (apiKey !== undefined) {
      const expected = `Basic ${Buffer.from(apiKey).toString("base64")}`;
      if (request.headers.authorization !== expected) {
        return {
          kind: "json",
          status: 401,
          body: { detail: "Incorrect username or password" },
          headers: { "www-authenticate": "Basic" },
        };
      }
    }
    if (request.method === "GET" && request.path === "/sdapi/v1/scripts") {
      return { kind: "json", status: 200, body: { txt2img: behaviour.scripts, img2img: behaviour.scripts } };
    }
    if (request.method !== "POST")
      return { kind: "json", status: 405, body: { detail: "Method Not Allowed" } };
    if (request.json === undefined) return unprocessable("body", "field required");
    const body = record(request.json);
    switch (request.path) {
      case "/sdapi/v1/txt2img":
        return paint(body, false);
      case "/sdapi/v1/img2img":
        return paint(body, true);
      case "/sdapi/v1/extra-single-image":
        return upscale(body);
      default:
        return { kind: "json", status: 404, body: { detail: "Not Found" } };
    }
  }

  const server = await startFakeServer(handle, a1111Error);
  return Object.assign(server, { baseUrl: server.origin, apiKey, behaviour });
}

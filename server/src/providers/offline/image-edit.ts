// The offline painter's edits (issue 45 items 1 and 8, decision 0145), no network: inpaint repaints the
// masked pixels only (every other pixel is copied, so it is bit-identical), outpaint grows the canvas on one
// side with the picture's edge mirrored and the prompt's scene painted over it, vary mixes a fresh take of
// the prompt (from the seed) into the picture, subtly or strongly, and upscale doubles both sides with sharp's
// lanczos3 resampler. Every result is a lossless PNG; the same request and seed give the same bytes.
import sharp from "sharp";
import type { ImageEditRequest, MediaFile } from "../types";
import { SCENE_HEIGHT, SCENE_WIDTH } from "./scene-canvas";
import { sceneSvg } from "./scene-svg";
import { detectTheme, paletteFor } from "./scene-theme";
import { createRng, hashString } from "./seeded";

/** Raw RGBA pixels and their size. */
type Pixels = { data: Buffer; width: number; height: number };

/** How much of the fresh take a variation mixes in. */
const VARY_MIX = { subtle: 0.18, strong: 0.55 } as const;
/** An outpaint grows the canvas by this share of the side it extends. */
const OUTPAINT_SHARE = 0.25;
/** How much of the painted scene shows over the mirrored edge in an outpainted strip, at its far end. */
const OUTPAINT_SCENE_MIX = 0.6;

const png = (pixels: Pixels) =>
  sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 4 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();

async function rgba(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The prompt's scene, painted from `seed` and cut to cover width x height. */
export async function paintScene(
  prompt: string,
  seed: number,
  width: number,
  height: number,
): Promise<Pixels> {
  const theme = detectTheme(prompt, createRng(hashString(prompt.trim().toLowerCase())));
  const rng = createRng(seed >>> 0);
  const svg = sceneSvg(theme, paletteFor(theme, rng), rng);
  const cover = Math.max(width / SCENE_WIDTH, height / SCENE_HEIGHT);
  const { data, info } = await sharp(Buffer.from(svg), { density: Math.max(1, 72 * cover) })
    .resize(width, height, { fit: "cover" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Thrown for a request the painter cannot follow (the caller checked it already; this is the backstop). */
export class EditInputError extends Error {}

async function inpaint(request: ImageEditRequest): Promise<Buffer> {
  if (!request.mask) throw new EditInputError("An inpaint needs a mask.");
  const source = await rgba(request.image.data);
  const mask = await rgba(request.mask);
  if (mask.width !== source.width || mask.height !== source.height) {
    throw new EditInputError(
      `The mask is ${mask.width}x${mask.height}; it must be the picture's size, ${source.width}x${source.height}.`,
    );
  }
  const scene = await paintScene(request.prompt, request.seed, source.width, source.height);
  const out = Buffer.from(source.data);
  for (let i = 0; i < out.length; i += 4) {
    if (mask.data[i + 3]! >= 128) scene.data.copy(out, i, i, i + 4);
  }
  return png({ data: out, width: source.width, height: source.height });
}

async function outpaint(request: ImageEditRequest): Promise<Buffer> {
  const direction = request.direction ?? "right";
  const source = await rgba(request.image.data);
  const horizontal = direction === "left" || direction === "right";
  const grow = Math.max(1, Math.round((horizontal ? source.width : source.height) * OUTPAINT_SHARE));
  const extend = { top: 0, bottom: 0, left: 0, right: 0 };
  extend[direction === "up" ? "top" : direction === "down" ? "bottom" : direction] = grow;
  // The edge mirrored carries the picture's colours and shapes across the seam; the scene fades in past it.
  const { data, info } = await sharp(request.image.data)
    .ensureAlpha()
    .extend({ ...extend, extendWith: "mirror" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const scene = await paintScene(request.prompt, request.seed, info.width, info.height);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      // How far into the new strip this pixel is, 0 at the seam to 1 at the new edge; outside the strip: none.
      let depth = 0;
      if (direction === "left") depth = (grow - x) / grow;
      else if (direction === "right") depth = (x - (info.width - grow - 1)) / grow;
      else if (direction === "up") depth = (grow - y) / grow;
      else depth = (y - (info.height - grow - 1)) / grow;
      if (depth <= 0) continue;
      const mix = Math.min(1, depth) * OUTPAINT_SCENE_MIX;
      const i = (y * info.width + x) * 4;
      for (let c = 0; c < 3; c++) {
        data[i + c] = Math.round(data[i + c]! * (1 - mix) + scene.data[i + c]! * mix);
      }
      data[i + 3] = 255;
    }
  }
  return png({ data, width: info.width, height: info.height });
}

async function vary(request: ImageEditRequest): Promise<Buffer> {
  const source = await rgba(request.image.data);
  const scene = await paintScene(request.prompt, request.seed, source.width, source.height);
  const mix = VARY_MIX[request.strength ?? "subtle"];
  const out = Buffer.from(source.data);
  for (let i = 0; i < out.length; i += 4) {
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(out[i + c]! * (1 - mix) + scene.data[i + c]! * mix);
  }
  return png({ data: out, width: source.width, height: source.height });
}

async function upscale(request: ImageEditRequest): Promise<Buffer> {
  const meta = await sharp(request.image.data).metadata();
  if (!meta.width || !meta.height) throw new EditInputError("The picture has no size.");
  return sharp(request.image.data)
    .resize(meta.width * 2, meta.height * 2, { kernel: "lanczos3" })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** One edit, offline. */
export async function editOffline(request: ImageEditRequest): Promise<MediaFile> {
  request.signal?.throwIfAborted();
  const painters = { inpaint, outpaint, vary, upscale };
  const data = await painters[request.kind](request);
  return { data, mimeType: "image/png" };
}

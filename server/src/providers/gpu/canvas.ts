// What the own-GPU painters (AUTOMATIC1111 and ComfyUI, decision 0156) share: the sizes Stable Diffusion
// models paint well at, and picture edits prepared as one region at such a size. An inpaint sends the brushed
// region (with room around it) rather than the whole 2K picture, an outpaint the new strip beside the edge it
// continues, a variation the picture at the model's size; what comes back is put back in place, and only the
// brushed (or new) pixels are taken from it, so the rest of the picture stays exactly as it was.
import sharp from "sharp";
import type { ImageAspectRatio, ImageEditRequest } from "../types";

export type Size = { width: number; height: number };

/**
 * About one megapixel in each shape, exact to the shape and in multiples of 8 (what SDXL, Pony and Flux
 * checkpoints are trained near; A1111 and ComfyUI latents are an eighth of the picture).
 */
export const gpuSizes: Record<ImageAspectRatio, Size> = {
  "1:1": { width: 1024, height: 1024 },
  "4:3": { width: 1152, height: 864 },
  "3:4": { width: 864, height: 1152 },
  "16:9": { width: 1280, height: 720 },
  "9:16": { width: 720, height: 1280 },
  "21:9": { width: 1512, height: 648 },
};

/** A picture with no shape asked for is 4:3, the app's scene shape. */
export const defaultGpuSize = gpuSizes["4:3"];

const WORK_AREA = 1024 * 1024;
const multipleOf8 = (value: number) => Math.max(64, Math.round(value / 8) * 8);

/** About one megapixel with the proportions of width x height, each side a multiple of 8. */
export function workSizeFor(width: number, height: number): Size {
  const scale = Math.sqrt(WORK_AREA / (width * height));
  return { width: multipleOf8(width * scale), height: multipleOf8(height * scale) };
}

/** Raw RGBA pixels and their size. */
type Pixels = { data: Buffer; width: number; height: number };
type Rect = { left: number; top: number; width: number; height: number };

async function rgba(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const png = (pixels: Pixels) =>
  sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 4 } })
    .png()
    .toBuffer();

/**
 * One edit as the painter gets it: `image` and `mask` (white where it paints, black elsewhere) at `size`.
 * `finish` takes the painter's picture (any size: it is fitted to the region) and gives the whole edited one.
 */
export type PaintJob = {
  image: Buffer;
  /** Absent for a variation: the whole region is painted over, weakly. */
  mask?: Buffer;
  size: Size;
  finish(painted: Buffer): Promise<Buffer>;
};

/** The region a painter gets around the pixels to paint: some room on every side, no side under a third of the other. */
export function regionAround(box: Rect, width: number, height: number): Rect {
  const room = Math.round(Math.max(32, 0.15 * Math.max(box.width, box.height)));
  let left = box.left - room;
  let top = box.top - room;
  let right = box.left + box.width + room;
  let bottom = box.top + box.height + room;
  const grow = (low: number, high: number, wanted: number, limit: number): [number, number] => {
    const missing = wanted - (high - low);
    if (missing <= 0) return [low, high];
    let from = low - Math.floor(missing / 2);
    let to = high + Math.ceil(missing / 2);
    if (from < 0) [from, to] = [0, to - from];
    if (to > limit) [from, to] = [Math.max(0, from - (to - limit)), limit];
    return [from, to];
  };
  const longest = Math.max(right - left, bottom - top);
  [left, right] = grow(left, right, Math.ceil(longest / 3), width);
  [top, bottom] = grow(top, bottom, Math.ceil(longest / 3), height);
  left = Math.max(0, left);
  top = Math.max(0, top);
  right = Math.min(width, right);
  bottom = Math.min(height, bottom);
  return { left, top, width: right - left, height: bottom - top };
}

/** The smallest rectangle holding every pixel to paint; undefined when there is none. */
function boundingBox(paint: Uint8Array, width: number, height: number): Rect | undefined {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!paint[y * width + x]) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return right < 0 ? undefined : { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** The region of `source` at the work size, with the mask of `paint` over it, and how to put it back. */
async function regionJob(source: Pixels, paint: Uint8Array): Promise<PaintJob> {
  const box = boundingBox(paint, source.width, source.height) ?? {
    left: 0,
    top: 0,
    width: source.width,
    height: source.height,
  };
  const region = regionAround(box, source.width, source.height);
  const size = workSizeFor(region.width, region.height);
  const maskPixels = Buffer.alloc(region.width * region.height * 4, 0);
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const white = paint[(region.top + y) * source.width + region.left + x] ? 255 : 0;
      const i = (y * region.width + x) * 4;
      maskPixels.fill(white, i, i + 3);
      maskPixels[i + 3] = 255;
    }
  }
  const image = await sharp(source.data, { raw: { width: source.width, height: source.height, channels: 4 } })
    .extract(region)
    .resize(size.width, size.height, { fit: "fill" })
    .png()
    .toBuffer();
  const mask = await sharp(maskPixels, { raw: { width: region.width, height: region.height, channels: 4 } })
    .resize(size.width, size.height, { fit: "fill", kernel: "nearest" })
    .removeAlpha()
    .png()
    .toBuffer();
  return {
    image,
    mask,
    size,
    async finish(painted) {
      const back = await sharp(painted)
        .resize(region.width, region.height, { fit: "fill" })
        .ensureAlpha()
        .raw()
        .toBuffer();
      const out = Buffer.from(source.data);
      for (let y = 0; y < region.height; y++) {
        for (let x = 0; x < region.width; x++) {
          const at = (region.top + y) * source.width + region.left + x;
          if (!paint[at]) continue;
          back.copy(out, at * 4, (y * region.width + x) * 4, (y * region.width + x) * 4 + 3);
          out[at * 4 + 3] = 255;
        }
      }
      return png({ data: out, width: source.width, height: source.height });
    },
  };
}

/** An inpaint: the brushed region (mask alpha of 128 or more) and room around it. */
export async function inpaintJob(request: Pick<ImageEditRequest, "image" | "mask">): Promise<PaintJob> {
  const source = await rgba(request.image.data);
  const paint = new Uint8Array(source.width * source.height);
  if (request.mask) {
    const alpha = await sharp(request.mask)
      .ensureAlpha()
      .resize(source.width, source.height, { fit: "fill", kernel: "nearest" })
      .extractChannel(3)
      .raw()
      .toBuffer();
    for (let i = 0; i < paint.length; i++) paint[i] = alpha[i]! >= 128 ? 1 : 0;
  }
  return regionJob(source, paint);
}

/** An outpaint grows the canvas by this share of the side it extends (as the offline painter does). */
export const OUTPAINT_SHARE = 0.25;

/**
 * An outpaint: the canvas grown on one side with the picture's edge mirrored into the new strip (something for
 * the painter to continue), and the strip to paint.
 */
export async function outpaintJob(request: Pick<ImageEditRequest, "image" | "direction">): Promise<PaintJob> {
  const direction = request.direction ?? "right";
  const meta = await sharp(request.image.data).metadata();
  const horizontal = direction === "left" || direction === "right";
  const grow = Math.max(8, Math.round(((horizontal ? meta.width : meta.height) ?? 0) * OUTPAINT_SHARE));
  const extend = { top: 0, bottom: 0, left: 0, right: 0 };
  extend[direction === "up" ? "top" : direction === "down" ? "bottom" : direction] = grow;
  const { data, info } = await sharp(request.image.data)
    .ensureAlpha()
    .extend({ ...extend, extendWith: "mirror" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const canvas = { data, width: info.width, height: info.height };
  const paint = new Uint8Array(canvas.width * canvas.height);
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const inStrip =
        direction === "left"
          ? x < grow
          : direction === "right"
            ? x >= canvas.width - grow
            : direction === "up"
              ? y < grow
              : y >= canvas.height - grow;
      if (inStrip) paint[y * canvas.width + x] = 1;
    }
  }
  return regionJob(canvas, paint);
}

/** A variation: the whole picture at the work size, brought back to the picture's own size. */
export async function varyJob(request: Pick<ImageEditRequest, "image">): Promise<PaintJob> {
  const meta = await sharp(request.image.data).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const size = workSizeFor(width, height);
  const image = await sharp(request.image.data)
    .resize(size.width, size.height, { fit: "fill" })
    .png()
    .toBuffer();
  return {
    image,
    size,
    finish: (painted) => sharp(painted).resize(width, height, { fit: "fill" }).png().toBuffer(),
  };
}

/** A reference image made into a first picture of `size` (cut from its middle to the shape). */
export function referenceAt(reference: Buffer, size: Size): Promise<Buffer> {
  return sharp(reference).resize(size.width, size.height, { fit: "cover" }).png().toBuffer();
}

/** The picture at exactly twice its width and height (an upscaler that made another size is corrected). */
export async function exactlyDouble(original: Buffer, upscaled: Buffer): Promise<Buffer> {
  const [before, after] = await Promise.all([sharp(original).metadata(), sharp(upscaled).metadata()]);
  const width = (before.width ?? 0) * 2;
  const height = (before.height ?? 0) * 2;
  if (after.width === width && after.height === height && after.format === "png") return upscaled;
  return sharp(upscaled).resize(width, height, { fit: "fill", kernel: "lanczos3" }).png().toBuffer();
}

/** How far a variation goes, as the denoising strength of an image-to-image pass. */
export const VARY_STRENGTH = { subtle: 0.35, strong: 0.65 } as const;
/** How much of an inpainted region, and of an outpainted strip (a mirror of the edge to paint over), is repainted. */
export const INPAINT_STRENGTH = 0.8;
export const OUTPAINT_STRENGTH = 0.95;
/** How far pictures made from a reference may move from it. */
export const REFERENCE_STRENGTH = 0.7;
/** What these checkpoints are told to avoid unless the operator's own workflow says otherwise. */
export const NEGATIVE_PROMPT = "blurry, low quality, distorted, deformed, watermark, signature, text";

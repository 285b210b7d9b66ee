// What Seedream 4 edits share, on ModelArk and on Replicate (decision 0162). Seedream edits by instruction: it
// takes the picture as an input image and a prompt saying what to do, and has neither a mask nor a strength
// parameter. So how far a variation goes is said in the prompt, and an extension is a canvas padded with a
// flat grey strip the prompt asks it to paint; the original pixels are put back over its answer.
import sharp from "sharp";
import type { ImageEditRequest, MediaFile } from "./types";

/** The grey the new strip of an extension is filled with before Seedream paints it. */
const STRIP_GREY = { r: 128, g: 128, b: 128, alpha: 1 } as const;
/** An extension grows the canvas by this share of the side it extends (as the offline and own-GPU painters do). */
export const SEEDREAM_OUTPAINT_SHARE = 0.25;

const SIDE: Record<NonNullable<ImageEditRequest["direction"]>, string> = {
  left: "left",
  right: "right",
  up: "top",
  down: "bottom",
};

/** The instruction for a variation: Seedream has no strength parameter, so the prompt says how far to go. */
export function varyPrompt(prompt: string, strength: ImageEditRequest["strength"]): string {
  const scene = prompt.trim() ? ` The scene: ${prompt.trim()}` : "";
  return strength === "strong"
    ? `Make a bold variation of this picture: keep its subject, but feel free to change the composition, poses, lighting and colours.${scene}`
    : `Make a close variation of this picture: keep its composition, subjects, colours and style, and change only small details.${scene}`;
}

/** The instruction for an extension: paint the grey strip on one side as the scene continued. */
export function outpaintPrompt(prompt: string, direction: ImageEditRequest["direction"]): string {
  const side = SIDE[direction ?? "right"];
  return `Extend this picture: paint the flat grey strip at its ${side} edge as a seamless continuation of the scene, and leave the rest of the picture as it is. ${prompt.trim()}`.trim();
}

const multipleOf8 = (value: number) => Math.max(8, Math.round(value / 8) * 8);
/** Seedream 4 takes a WxH size of 1280x720 to 4096x4096 pixels in all: 2K (2048x2048 in area) is within. */
const SEEDREAM_AREA = 2048 * 2048;

/** Seedream's `size` for a picture of width x height: its proportions at 2K in area, sides in multiples of 8. */
export function seedreamSizeFor(width: number, height: number): string {
  const scale = Math.sqrt(SEEDREAM_AREA / (width * height));
  return `${multipleOf8(width * scale)}x${multipleOf8(height * scale)}`;
}

/** One picture as an input image: PNG, or JPEG when a PNG would pass Seedream's 10 MB limit per image. */
export async function seedreamInput(image: Buffer): Promise<MediaFile> {
  const png = await sharp(image).png().toBuffer();
  if (png.length <= 7 * 1024 * 1024) return { data: png, mimeType: "image/png" };
  return { data: await sharp(image).jpeg({ quality: 92 }).toBuffer(), mimeType: "image/jpeg" };
}

/** An extension prepared: the padded canvas to send, and how to put the original back over the answer. */
export type SeedreamOutpaint = {
  canvas: Buffer;
  width: number;
  height: number;
  /** The vendor's picture at the canvas size with the original's pixels, unchanged, in their place. */
  finish(painted: Buffer): Promise<Buffer>;
};

export async function seedreamOutpaint(request: Pick<ImageEditRequest, "image" | "direction">) {
  const direction = request.direction ?? "right";
  const original = await sharp(request.image.data).ensureAlpha().png().toBuffer({ resolveWithObject: true });
  const { width, height } = original.info;
  const horizontal = direction === "left" || direction === "right";
  const grow = Math.max(8, Math.round((horizontal ? width : height) * SEEDREAM_OUTPAINT_SHARE));
  const extend = { top: 0, bottom: 0, left: 0, right: 0 };
  extend[direction === "up" ? "top" : direction === "down" ? "bottom" : direction] = grow;
  const canvas = await sharp(original.data)
    .extend({ ...extend, background: STRIP_GREY })
    .png()
    .toBuffer();
  const size = { width: width + extend.left + extend.right, height: height + extend.top + extend.bottom };
  return {
    canvas,
    ...size,
    async finish(painted: Buffer) {
      const back = await sharp(painted).resize(size.width, size.height, { fit: "fill" }).png().toBuffer();
      return sharp(back)
        .ensureAlpha()
        .composite([{ input: original.data, left: extend.left, top: extend.top }])
        .png()
        .toBuffer();
    },
  } satisfies SeedreamOutpaint;
}

/** The vendor's picture brought back to the original's size (a variation keeps the picture's size). */
export function atSize(painted: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(painted).resize(width, height, { fit: "fill" }).png().toBuffer();
}

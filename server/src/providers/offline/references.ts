// Turns the reference images a user selected into things the offline painter can use: their average
// colour (to tint the palette), a soft colour wash, and a rounded, feathered inset of the first one.
import sharp from "sharp";
import type { MediaFile } from "../types";
import { toHex } from "./colour";

export type PreparedReferences = {
  /** Mean colour over every readable reference, as #rrggbb. */
  tint: string;
  /** The first reference, squared, rounded and feathered, as a PNG with alpha, `size` px a side. */
  inset: Buffer;
  size: number;
  /** A blurred, translucent full-frame version of the first reference for a soft-light wash: raw RGBA. */
  wash: Buffer;
};

export const INSET_SIZE = 440;
/** How much of the wash shows through: enough to carry the reference's colours, never its detail. */
const WASH_ALPHA = 0.2;

/** Unreadable references are skipped rather than failing the whole picture. */
export async function prepareReferences(
  references: readonly MediaFile[],
  width: number,
  height: number,
): Promise<PreparedReferences | null> {
  const readable: { file: MediaFile; mean: [number, number, number] }[] = [];
  for (const file of references.slice(0, 10)) {
    try {
      // Shrink first: the mean colour does not need every pixel, and JPEGs decode far faster shrunk.
      const { channels } = await sharp(file.data).resize(64, 64, { fit: "inside" }).stats();
      const [r, g, b] = channels;
      if (!r) continue;
      // Greyscale images have one channel: use it for all three.
      readable.push({ file, mean: [r.mean, (g ?? r).mean, (b ?? r).mean] });
    } catch {
      // Not an image sharp can read: leave it out.
    }
  }
  const first = readable[0];
  if (!first) return null;

  const sum = readable.reduce((acc, { mean }) => acc.map((v, i) => v + mean[i]!), [0, 0, 0]);
  const tint = toHex({
    r: sum[0]! / readable.length,
    g: sum[1]! / readable.length,
    b: sum[2]! / readable.length,
  });

  const size = INSET_SIZE;
  // A rounded square whose edge fades out over ~20 px: blurring the mask is cheap at this size.
  const mask = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect x="12" y="12" width="${size - 24}" height="${size - 24}" rx="46" fill="#fff" fill-opacity="0.86"/></svg>`,
    ),
  )
    .blur(6)
    .extractChannel("alpha")
    .png()
    .toBuffer();
  // Two passes because sharp applies alpha removal at output time, after any joinChannel.
  const rgb = await sharp(first.file.data)
    .rotate()
    .resize(size, size, { fit: "cover", position: "attention" })
    .flatten({ background: "#000000" })
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  const inset = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
    .joinChannel(mask)
    .png()
    .toBuffer();

  // Down to a handful of pixels and back up: a smooth field of the reference's colours.
  const tiny = await sharp(first.file.data)
    .rotate()
    .resize(8, 6, { fit: "cover" })
    .flatten({ background: "#000000" })
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  const wash = await sharp(tiny, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .ensureAlpha(WASH_ALPHA)
    .raw()
    .toBuffer();
  return { tint, inset, size, wash };
}

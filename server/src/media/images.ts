// Image checks and thumbnails (sharp). Uploads are judged by their bytes, never by file name or declared
// type, and the pixel limit is enforced from the header before anything is decoded, so a small file cannot
// expand into gigabytes of pixels (a decompression bomb).
import { MAX_INPUT_IMAGES } from "@storyverse/contract/chat";
import { IMAGE_FILES_ONLY_MESSAGE } from "@storyverse/contract/studio";
import sharp, { type Metadata } from "sharp";
import { InvalidInput } from "../platform/errors";

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 50_000_000;
/**
 * The largest JSON body a route taking input images accepts: ten uploads at the size limit, base64-encoded
 * (4 characters per 3 bytes), plus 64 KB for the prompt and the rest. Every other route keeps 1 MB.
 */
export const IMAGE_ROUTE_BODY_LIMIT = MAX_INPUT_IMAGES * Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 64 * 1024;
export const THUMBNAIL_MAX_SIZE = 512;
const THUMBNAIL_QUALITY = 78;

export const IMAGE_TOO_BIG_DETAIL = "Each image must be 10 MB or smaller.";
export const TOO_MANY_PIXELS_DETAIL = "Each image must be at most 50 megapixels (for example 7000 x 7000).";
export const DAMAGED_IMAGE_DETAIL = "This image could not be read; the file may be damaged.";

const MIME_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
} as const;

export type ImageMimeType = (typeof MIME_TYPES)[keyof typeof MIME_TYPES];
export type ImageInfo = { mimeType: ImageMimeType; width: number; height: number };

/** The type and upright size of an image, after checking it is one we accept and that it decodes. */
export async function inspectImage(data: Buffer): Promise<ImageInfo> {
  if (data.length > MAX_IMAGE_BYTES) throw new InvalidInput(IMAGE_TOO_BIG_DETAIL);
  let metadata: Metadata;
  try {
    metadata = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    throw new InvalidInput(isPixelLimitError(error) ? TOO_MANY_PIXELS_DETAIL : IMAGE_FILES_ONLY_MESSAGE);
  }
  // SVG, TIFF, HEIF and the rest are refused: browsers and vendors cannot all show them, and SVG can
  // carry script.
  const format = metadata.format;
  if (!Object.hasOwn(MIME_TYPES, format)) throw new InvalidInput(IMAGE_FILES_ONLY_MESSAGE);
  const { width, height } = metadata.autoOrient ?? metadata;
  if (!width || !height) throw new InvalidInput(IMAGE_FILES_ONLY_MESSAGE);
  if (width * height > MAX_INPUT_PIXELS) throw new InvalidInput(TOO_MANY_PIXELS_DETAIL);

  // A valid header can front truncated or corrupt data; decoding to a tiny size proves the whole file
  // reads (cheap: JPEG and WebP shrink on load, PNG streams row by row).
  try {
    await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize(16, 16, { fit: "inside" })
      .raw()
      .toBuffer();
  } catch {
    throw new InvalidInput(DAMAGED_IMAGE_DETAIL);
  }
  return { mimeType: MIME_TYPES[format as keyof typeof MIME_TYPES], width, height };
}

/** A decoded data: URL. declaredType is only what the sender claims; inspectImage says what the bytes are. */
export type DecodedDataUrl = { declaredType: string; data: Buffer };

/** The bytes of a `data:image/<type>;base64,<data>` URL; what they really are is inspectImage's call. */
export function decodeDataUrl(value: string): DecodedDataUrl {
  const comma = value.indexOf(",");
  const header = comma < 0 ? "" : value.slice(0, comma);
  const declared = header.match(/^data:(image\/[a-z0-9.+-]+)(;[a-z0-9.+-]+=[^;,]*)*;base64$/i);
  if (!declared) throw new InvalidInput(IMAGE_FILES_ONLY_MESSAGE);
  // Line breaks and spaces are tolerated (some clients wrap base64); everything else must be base64.
  const payload = value.slice(comma + 1).replace(/\s+/g, "");
  // Refuse by length before decoding, so a huge string is not turned into a huge buffer first.
  if (Math.floor((payload.length * 3) / 4) > MAX_IMAGE_BYTES + 2)
    throw new InvalidInput(IMAGE_TOO_BIG_DETAIL);
  if (payload.length === 0 || payload.length % 4 === 1 || !/^[A-Za-z0-9+/]+={0,2}$/.test(payload)) {
    throw new InvalidInput(DAMAGED_IMAGE_DETAIL);
  }
  const data = Buffer.from(payload, "base64");
  if (data.length > MAX_IMAGE_BYTES) throw new InvalidInput(IMAGE_TOO_BIG_DETAIL);
  return { declaredType: declared[1]!.toLowerCase(), data };
}

/** A webp of at most 512 x 512, upright, never enlarged; the original is kept beside it. */
export async function makeThumbnail(data: Buffer): Promise<Buffer> {
  return sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
    .autoOrient()
    .resize(THUMBNAIL_MAX_SIZE, THUMBNAIL_MAX_SIZE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: THUMBNAIL_QUALITY })
    .toBuffer();
}

function isPixelLimitError(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/** Vendors take references of at most 10 MB each; a 2K JPEG keeps the likeness well under that. */
export const REFERENCE_MAX_SIZE = 2048;

/** A reference image as it goes to an image model: at most 2048 px on its long side, JPEG. */
export async function prepareReference(data: Buffer): Promise<{ data: Buffer; mimeType: "image/jpeg" }> {
  const jpeg = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(REFERENCE_MAX_SIZE, REFERENCE_MAX_SIZE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { data: jpeg, mimeType: "image/jpeg" };
}

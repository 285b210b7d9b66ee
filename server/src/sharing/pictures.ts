// Pictures sized for the shared page and for link previews. Originals are 2K PNGs; the page's column is
// 720 px wide, so it gets WebPs 720 and 1440 px wide (for 2x screens) through srcset, and a link preview
// gets a 1200x630 JPEG (the size chat apps and social sites ask for; JPEG because some of them still
// refuse WebP). Each is made on first request and kept in a small in-memory cache: a shared page's first
// visitors pay one resize per picture, everyone after gets bytes.
import sharp from "sharp";
import { MAX_INPUT_PIXELS } from "../media";

/** The widths a shared picture is offered in (the page column, and twice it for 2x screens). */
export const PICTURE_WIDTHS = [720, 1440] as const;
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

const WEBP_QUALITY = 78;
const PREVIEW_QUALITY = 84;
/** Resized pictures kept in memory, by total bytes (a 1440 px WebP is ~100-300 KB). */
const CACHE_BYTES = 48 * 1024 * 1024;

/** The widths offered for an original `width` px wide: never wider than the original. */
export function offeredWidths(width: number | null): number[] {
  if (!width) return [...PICTURE_WIDTHS];
  return [...new Set(PICTURE_WIDTHS.map((wanted) => Math.min(wanted, width)))];
}

/** width x height scaled to `width` px wide (for the img element's width and height attributes). */
export function scaledSize(original: { width: number; height: number }, width: number) {
  const shown = Math.min(width, original.width);
  return { width: shown, height: Math.max(1, Math.round((original.height * shown) / original.width)) };
}

export function createPictureCache() {
  const entries = new Map<string, Buffer>();
  let bytes = 0;
  const remember = (key: string, data: Buffer) => {
    entries.set(key, data);
    bytes += data.length;
    for (const [oldest, old] of entries) {
      if (bytes <= CACHE_BYTES) break;
      entries.delete(oldest);
      bytes -= old.length;
    }
  };
  const cached = async (key: string, make: () => Promise<Buffer>) => {
    const hit = entries.get(key);
    if (hit) {
      // Most recently used last.
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    }
    const data = await make();
    remember(key, data);
    return data;
  };
  return {
    /** A WebP of the original `width` px wide at most (never enlarged). */
    webp(storageKey: string, width: number, read: () => Promise<Buffer>): Promise<Buffer> {
      return cached(`${storageKey}\n${width}`, async () =>
        sharp(await read(), { limitInputPixels: MAX_INPUT_PIXELS })
          .autoOrient()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer(),
      );
    },
    /** A 1200x630 JPEG of the original, cropped to the most interesting part. */
    preview(storageKey: string, read: () => Promise<Buffer>): Promise<Buffer> {
      return cached(`${storageKey}\npreview`, async () =>
        sharp(await read(), { limitInputPixels: MAX_INPUT_PIXELS })
          .autoOrient()
          .resize(PREVIEW_WIDTH, PREVIEW_HEIGHT, { fit: "cover", position: sharp.strategy.attention })
          .flatten({ background: "#ffffff" })
          .jpeg({ quality: PREVIEW_QUALITY, mozjpeg: true })
          .toBuffer(),
      );
    },
  };
}

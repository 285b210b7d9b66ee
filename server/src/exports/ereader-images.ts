// Pictures for books: the 2K originals shrunk to what an e-reader or a printed page can show, as JPEG
// (which every EPUB reader and PDF viewer supports). A picture that cannot be read is left out rather
// than failing the whole book.
import sharp from "sharp";
import type { AppContext } from "../context";
import { MAX_INPUT_PIXELS } from "../media/images";

/** Long side in pixels: sharp on a 6-8" e-reader and on an A4 page at about 150 dpi. */
export const BOOK_IMAGE_MAX_SIZE = 1200;
const BOOK_IMAGE_QUALITY = 80;

export type BookImage = { data: Buffer; width: number; height: number };

export async function bookImage(
  ctx: Pick<AppContext, "storage" | "log">,
  key: string,
): Promise<BookImage | null> {
  try {
    const original = await ctx.storage.read(key);
    const { data, info } = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize(BOOK_IMAGE_MAX_SIZE, BOOK_IMAGE_MAX_SIZE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: BOOK_IMAGE_QUALITY, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    ctx.log.warn({ err: error, key }, "export: picture left out");
    return null;
  }
}

/**
 * Runs `make` for every item with a few in flight at once, yielding results in order: the next pictures
 * are being shrunk while the earlier ones are written out.
 */
export async function* inOrder<T, R>(
  items: T[],
  make: (item: T) => Promise<R>,
  ahead = 4,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  while (next < items.length && pending.length < ahead) pending.push(make(items[next++] as T));
  while (pending.length > 0) {
    const result = await (pending.shift() as Promise<R>);
    if (next < items.length) pending.push(make(items[next++] as T));
    yield result;
  }
}

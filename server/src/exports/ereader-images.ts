// Pictures for books: the 2K originals shrunk to what an e-reader or a printed page can show, as JPEG
// (which every EPUB reader and PDF viewer supports). A picture that cannot be read is left out rather
// than failing the whole book.
import sharp from "sharp";
import type { AppContext } from "../context";
import { MAX_INPUT_PIXELS } from "../media";

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

/** One showing of a picture in a book (see BookImages.show). */
type PictureShowing<R> = {
  image: BookImage | null;
  /** Its first showing: the writer adds the picture to the book and notes where in `placed`. */
  first: boolean;
  /** Where the first showing put it (its file in an EPUB, its image object in a PDF), for later showings. */
  placed: { value?: R };
};

/**
 * The pictures of one export, each shrunk once however many exchanges show it (issue 42 item 4): a picture the
 * scan saw shown more than once is kept, shrunk, until its last showing, then let go; one shown once is never
 * kept. So the book holds only the pictures still to be shown again, never the story's.
 */
export class BookImages<R = unknown> {
  private readonly kept = new Map<
    string,
    { image: Promise<BookImage | null>; left: number; placed: { value?: R } }
  >();

  constructor(
    private readonly ctx: Pick<AppContext, "storage" | "log">,
    /** How many exchanges show each picture shown more than once (BookScan.imageUses). */
    private readonly uses: ReadonlyMap<string, number>,
  ) {}

  /** The picture for its next showing; call in the book's order. */
  async show(key: string): Promise<PictureShowing<R>> {
    const kept = this.kept.get(key);
    if (kept) {
      kept.left -= 1;
      if (kept.left <= 0) this.kept.delete(key);
      return { image: await kept.image, first: false, placed: kept.placed };
    }
    const image = bookImage(this.ctx, key);
    const placed: { value?: R } = {};
    const uses = this.uses.get(key) ?? 1;
    if (uses > 1) this.kept.set(key, { image, left: uses - 1, placed });
    return { image: await image, first: true, placed };
  }
}

/**
 * Runs `make` for every item with a few in flight at once, yielding results in order: the next pictures
 * are being shrunk while the earlier ones are written out. `make` is called in the items' order.
 */
export async function* inOrder<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  make: (item: T) => Promise<R>,
  ahead = 4,
): AsyncGenerator<R> {
  const source = (items as AsyncIterable<T>)[Symbol.asyncIterator]
    ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
    : (async function* () {
        yield* items as Iterable<T>;
      })();
  const pending: Promise<R>[] = [];
  let done = false;
  const fill = async () => {
    while (!done && pending.length < ahead) {
      const next = await source.next();
      if (next.done) done = true;
      else pending.push(make(next.value));
    }
  };
  try {
    await fill();
    while (pending.length > 0) {
      const result = await (pending.shift() as Promise<R>);
      await fill();
      yield result;
    }
  } finally {
    // Stopped early (a cancelled download): let the cursor go.
    if (!done) await source.return?.(undefined);
  }
}

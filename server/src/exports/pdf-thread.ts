// The PDF's own thread (decision 0167): lays out the exchanges pdf.ts sends it, pictures already shrunk, and
// sends the document back in pieces. Its heap has a ceiling of its own, so the garbage of laying out a long book
// is collected as it goes instead of piling up in the server's heap.
import { parentPort, workerData } from "node:worker_threads";
import type { Exchange } from "./book";
import type { BookImage } from "./ereader-images";
import { layOutPdf, type PdfItem, type PdfLayout, type PdfMeta } from "./pdf-layout";

/** What pdf.ts sends: an exchange (a picture's bytes with its first showing only), then the end. */
export type ToPdfThread =
  | {
      kind: "exchange";
      exchange: Exchange;
      picture: { id: number; first?: { image: BookImage; showings: number } } | null;
    }
  | { kind: "end" };

/** What the thread sends back: the document in pieces, each exchange laid out, then the layout or a failure. */
export type FromPdfThread =
  | { kind: "bytes"; data: Uint8Array }
  | { kind: "laid"; exchange: number }
  | { kind: "done"; layout: PdfLayout }
  | { kind: "failed"; message: string };

/** The document is sent back in pieces of about this size (pdfkit writes many small ones). */
const PIECE_BYTES = 64 * 1024;

function run(parent: NonNullable<typeof parentPort>, meta: PdfMeta) {
  const send = (message: FromPdfThread, transfer: ArrayBuffer[] = []) =>
    parent.postMessage(message, transfer);
  const items = new Inbox<PdfItem>();
  // A picture shown again is drawn from its first showing's image object, until its last showing.
  const pictures = new Map<number, { picture: NonNullable<PdfItem["picture"]>; left: number }>();
  parent.on("message", (message: ToPdfThread) => {
    if (message.kind === "end") return items.end();
    const { exchange, picture } = message;
    if (!picture) return items.push({ exchange, picture: null });
    let shown = pictures.get(picture.id);
    if (picture.first) {
      const { data, width, height } = picture.first.image;
      const image = { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height };
      shown = { picture: { image, placed: {} }, left: picture.first.showings };
      pictures.set(picture.id, shown);
    }
    if (!shown) throw new Error(`pdf thread: picture ${picture.id} was never sent`);
    shown.left -= 1;
    if (shown.left <= 0) pictures.delete(picture.id);
    items.push({ exchange, picture: shown.picture });
  });

  let pieces: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    // A buffer of its own (never a slice of Node's pool), handed over to the main thread without a copy.
    const data = new Uint8Array(size);
    let at = 0;
    for (const chunk of pieces) {
      data.set(chunk, at);
      at += chunk.length;
    }
    pieces = [];
    size = 0;
    send({ kind: "bytes", data }, [data.buffer]);
  };
  // Each exchange's bytes go back with it (a piece at least PIECE_BYTES long goes at once), so the main thread
  // knows where the document is and a cancelled download stops the feeding early.
  const { stream, done } = layOutPdf(meta, items, (exchange) => {
    flush();
    send({ kind: "laid", exchange });
  });
  stream.on("data", (chunk: Buffer) => {
    pieces.push(chunk);
    size += chunk.length;
    if (size >= PIECE_BYTES) flush();
  });
  stream.on("error", (error) => send({ kind: "failed", message: error.message }));
  stream.on("end", async () => {
    flush();
    const layout = await done;
    // pdf.ts ends the thread once it has this.
    send(layout ? { kind: "done", layout } : { kind: "failed", message: "the layout stopped" });
  });
}

/** Items pushed by messages, read by `for await`. */
class Inbox<T> implements AsyncIterable<T> {
  private readonly waiting: T[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(item: T) {
    this.waiting.push(item);
    this.wake?.();
  }

  end() {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator]() {
    for (;;) {
      const item = this.waiting.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}

if (parentPort) run(parentPort, (workerData as { data: PdfMeta }).data);

// The PDF export: the book read from its cursor and its pictures shrunk here, laid out in the PDF's own thread
// (pdf-thread.ts, pdf-layout.ts), whose heap has a ceiling of its own (decision 0167), and the document it sends
// back handed on as a stream. The thread is fed a few exchanges ahead of what it has laid out, and not at all
// while the stream's reader is behind, so a slow store never lets a long book pile up in memory.
import { Readable } from "node:stream";
import type { AppContext } from "../context";
import { startThread, threadModule } from "../platform/threads";
import type { Book, BookScan, BookStream, Exchange } from "./book";
import { BookImages, inOrder } from "./ereader-images";
import type { WriteOptions } from "./markdown-zip";
import type { Paper, PdfLayout } from "./pdf-layout";
import type { FromPdfThread, ToPdfThread } from "./pdf-thread";
import { LanguageCount } from "./text";

const PDF_THREAD = threadModule("pdf-thread", import.meta.url);

/**
 * The thread's heap ceiling. V8 lets a heap grow by a factor of what was live before collecting it again, a
 * factor that falls with the ceiling (to its smallest at 256 MB or less; up to 4 for the server's own heap), and a
 * 10,000-exchange book keeps about 35 MB alive.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 };

/** Exchanges sent to the thread and not yet laid out, at most. */
const AHEAD = 4;

/** How much written PDF may wait for its reader before the thread is sent no more exchanges. */
const BACKLOG_BYTES = 256 * 1024;

/** The language of a book held whole (see LanguageCount); a streamed book is counted by scanBook. */
export function bookLanguage(book: Pick<Book, "title" | "context" | "exchanges">): string {
  const count = new LanguageCount();
  for (const text of [book.title, book.context, ...book.exchanges.flatMap((e) => [e.player, e.narrator])]) {
    count.add(text ?? "");
  }
  return count.language();
}

/** The scan of a book held whole (tests, small books); a streamed one is scanned by scanBook first. */
function scanOfArray(book: BookStream): BookScan {
  if (!Array.isArray(book.exchanges)) throw new Error("a streamed book is scanned before it is written");
  const exchanges = book.exchanges as Exchange[];
  const imageUses = new Map<string, number>();
  for (const { imageKey } of exchanges)
    if (imageKey) imageUses.set(imageKey, (imageUses.get(imageKey) ?? 0) + 1);
  for (const [key, uses] of imageUses) if (uses < 2) imageUses.delete(key);
  return {
    exchanges: exchanges.length,
    mediaReads: 0,
    imageUses,
    language: bookLanguage({ ...book, exchanges }),
    narrated: 0,
  };
}

/**
 * Starts writing the book into a PDF and returns it as a stream; `done` is its layout once it is whole, or null
 * when it failed or its reader went away.
 */
export function writePdf(
  ctx: Pick<AppContext, "storage" | "log">,
  book: BookStream,
  paper: Paper,
  options: WriteOptions = {},
) {
  const scan = options.scan ?? scanOfArray(book);
  let wake = () => {};
  const stream = new Readable({ read: () => wake() });
  const thread = startThread(
    PDF_THREAD,
    { title: book.title, context: book.context, paper, language: scan.language },
    THREAD_LIMITS,
  );
  const send = (message: ToPdfThread) => thread.postMessage(message);
  let sent = 0;
  let laid = 0;
  let settled = false;
  let settle: (layout: PdfLayout | null) => void = () => {};
  const done = new Promise<PdfLayout | null>((resolve) => {
    settle = (layout) => {
      if (settled) return;
      settled = true;
      wake();
      void thread.terminate();
      resolve(layout);
    };
  });
  const fail = (error: Error) => {
    if (settled) return;
    ctx.log.error({ err: error }, "export: pdf failed");
    stream.destroy(error);
    settle(null);
  };

  thread.on("message", (message: FromPdfThread) => {
    switch (message.kind) {
      case "bytes":
        stream.push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
        return;
      case "laid":
        laid = message.exchange;
        wake();
        return;
      case "done":
        stream.push(null);
        settle(message.layout);
        return;
      case "failed":
        fail(new Error(`pdf thread: ${message.message}`));
        return;
    }
  });
  thread.on("error", fail);
  thread.on("exit", (code) => fail(new Error(`pdf thread exited with code ${code}`)));
  // The download was cancelled: stop reading and shrinking pictures for nobody.
  stream.on("close", () => settle(null));

  /** Resolves once `ready` holds, checked whenever the thread or the stream's reader moves. */
  const until = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ready()) return;
        wake = () => {};
        resolve();
      };
      wake = check;
      check();
    });
  const canSend = () => settled || (sent - laid < AHEAD && stream.readableLength <= BACKLOG_BYTES);
  let told = 0;
  /** Tells onExchange of every exchange laid out since it was last told, one at a time and in order. */
  const tell = async () => {
    while (told < laid) {
      told += 1;
      await options.onExchange?.(told);
    }
  };

  const feed = async () => {
    const images = new BookImages<number>(ctx, scan.imageUses);
    let pictures = 0;
    const withImages = inOrder(book.exchanges, async (exchange) => ({
      exchange,
      shown: exchange.imageKey ? await images.show(exchange.imageKey) : null,
    }));
    for await (const { exchange, shown } of withImages) {
      await until(canSend);
      await tell();
      if (settled) break;
      let picture: Extract<ToPdfThread, { kind: "exchange" }>["picture"] = null;
      if (shown?.image && exchange.imageKey) {
        if (shown.first) {
          shown.placed.value = pictures++;
          const showings = scan.imageUses.get(exchange.imageKey) ?? 1;
          picture = { id: shown.placed.value, first: { image: shown.image, showings } };
        } else if (shown.placed.value !== undefined) picture = { id: shown.placed.value };
      }
      send({ kind: "exchange", exchange, picture });
      sent += 1;
    }
    if (settled) return;
    send({ kind: "end" });
    await until(() => settled || laid === sent);
    await tell();
  };
  feed().catch((error: unknown) => fail(error as Error));
  return { stream, done };
}

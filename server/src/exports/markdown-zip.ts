// The Markdown export: one story.md (title, context, every exchange in order, the player's lines marked)
// beside an images/ and a videos/ folder that it links to relatively. Media go in as the originals, stored
// without compression (they are compressed already), so the archive costs little to make; they are streamed
// in one at a time, at the pace the archive is read, so a slow download never holds the story's media.
import { Readable } from "node:stream";
import type { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { addStreamedEntry } from "../platform/zip-entries";
import { type BookScan, type BookStream, pad, scanBook } from "./book";

const extensionOf = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

const quote = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");

/** What a writer is told as it goes (the export job's progress), and the scan it may reuse. */
export type WriteOptions = {
  scan?: BookScan;
  /** Told each exchange's number as it is written. */
  onExchange?: (n: number) => Promise<void>;
};

export async function writeMarkdownZip(
  ctx: Pick<AppContext, "storage" | "log">,
  zip: ZipFile,
  book: BookStream,
  folder: string,
  options: WriteOptions = {},
): Promise<void> {
  const scan = options.scan ?? (await scanBook(book));
  // First the media, one file at a time; a picture shown by several exchanges goes in once, under the first.
  const shared = new Map<string, string>();
  const missing = new Set<string>();
  const paths = new Map<string, number>(scan.imageUses);
  for await (const exchange of book.exchanges) {
    const name = `scene-${pad(exchange.number)}`;
    for (const [key, kind] of [
      [exchange.imageKey, "images"],
      [exchange.videoKey, "videos"],
    ] as const) {
      if (!key || shared.has(key) || missing.has(key)) continue;
      const path = `${kind}/${name}.${extensionOf(key)}`;
      if (!(await addMedia(ctx, zip, key, `${folder}/${path}`))) missing.add(key);
      else if (paths.has(key)) shared.set(key, path);
    }
    await options.onExchange?.(exchange.number);
  }
  // Then the text, made as the archive reads it from a second walk of the story.
  // Lines as they were joined whole before: each part after the title on a line of its own.
  const text = async function* () {
    yield `# ${book.title}\n`;
    if (book.context.trim()) yield `\n${quote(book.context.trim())}\n`;
    for await (const exchange of book.exchanges) {
      const parts: string[] = ["---", "", `## ${exchange.number}`, ""];
      if (exchange.player !== null) parts.push(quote(`**You:** ${exchange.player}`), "");
      if (exchange.narrator !== null) parts.push(exchange.narrator, "");
      const name = `scene-${pad(exchange.number)}`;
      const { imageKey, videoKey } = exchange;
      if (imageKey && !missing.has(imageKey)) {
        const path = shared.get(imageKey) ?? `images/${name}.${extensionOf(imageKey)}`;
        parts.push(`![Scene ${exchange.number}](${path})`, "");
      }
      if (videoKey && !missing.has(videoKey)) {
        const path = shared.get(videoKey) ?? `videos/${name}.${extensionOf(videoKey)}`;
        parts.push(`[Watch scene ${exchange.number}](${path})`, "");
      }
      yield Buffer.from(parts.map((part) => `\n${part}`).join(""), "utf8");
    }
  };
  await addStreamedEntry(zip, Readable.from(text(), { objectMode: false }), `${folder}/story.md`, {
    compress: true,
  });
}

/**
 * Streams one media file into the archive, waiting until the archive has taken all of it (see
 * zip-entries.ts). A file that cannot be opened is left out; one that fails half-way fails the archive.
 */
async function addMedia(
  ctx: Pick<AppContext, "storage" | "log">,
  zip: ZipFile,
  key: string,
  path: string,
): Promise<boolean> {
  let file: Awaited<ReturnType<AppContext["storage"]["open"]>>;
  try {
    file = await ctx.storage.open(key);
  } catch (error) {
    ctx.log.warn({ err: error, key }, "export: media left out");
    return false;
  }
  await addStreamedEntry(zip, file.stream, path, { size: file.size, compress: false });
  return true;
}

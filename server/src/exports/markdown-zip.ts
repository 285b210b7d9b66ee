// The Markdown export: one story.md (title, context, every exchange in order, the player's lines marked)
// beside an images/ and a videos/ folder that it links to relatively. Media go in as the originals, stored
// without compression (they are compressed already), so the archive costs little to make; they are streamed
// in one at a time, at the pace the archive is read, so a slow download never holds the story's media.
import type { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { type Book, pad } from "./book";
import { addStreamedEntry } from "./zip-entries";

const extensionOf = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

const quote = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => `> ${line}`.trimEnd())
    .join("\n");

export async function writeMarkdownZip(
  ctx: Pick<AppContext, "storage" | "log">,
  zip: ZipFile,
  book: Book,
  folder: string,
): Promise<void> {
  const parts: string[] = [`# ${book.title}`, ""];
  if (book.context.trim()) parts.push(quote(book.context.trim()), "");
  for (const exchange of book.exchanges) {
    parts.push("---", "", `## ${exchange.number}`, "");
    if (exchange.player !== null) parts.push(quote(`**You:** ${exchange.player}`), "");
    if (exchange.narrator !== null) parts.push(exchange.narrator, "");
    const name = `scene-${pad(exchange.number)}`;
    if (exchange.imageKey) {
      const path = `images/${name}.${extensionOf(exchange.imageKey)}`;
      if (await addMedia(ctx, zip, exchange.imageKey, `${folder}/${path}`)) {
        parts.push(`![Scene ${exchange.number}](${path})`, "");
      }
    }
    if (exchange.videoKey) {
      const path = `videos/${name}.${extensionOf(exchange.videoKey)}`;
      if (await addMedia(ctx, zip, exchange.videoKey, `${folder}/${path}`)) {
        parts.push(`[Watch scene ${exchange.number}](${path})`, "");
      }
    }
  }
  zip.addBuffer(Buffer.from(parts.join("\n"), "utf8"), `${folder}/story.md`);
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

// Exports: a story taken out as a Markdown zip, an EPUB 3 book or a PDF. The owner check and the reading
// of the story happen before any byte is sent (so a stranger gets a clean 404); the file itself is then
// streamed while it is being made, so a long story starts downloading at once and never sits whole in memory.
import type { Readable } from "node:stream";
import { EXPORT_FORMATS, type ExportFormat } from "@storyverse/contract/exports";
import { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { BadRequest } from "../http/errors";
import { type Book, fileStem, loadBook } from "./book";
import { writeEpub } from "./epub";
import { writeMarkdownZip } from "./markdown-zip";
import { PAPER_SIZES, type Paper, writePdf } from "./pdf";
import { ArchiveAbandoned } from "./zip-entries";

type ExportContext = Pick<AppContext, "db" | "storage" | "clock" | "log">;

/** The media type each format is served as. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  md: "application/zip",
  epub: "application/epub+zip",
  pdf: "application/pdf",
};

export type ExportFile = { stream: Readable; filename: string; contentType: string };

export function parseFormat(raw: string | undefined): ExportFormat {
  if (raw && (EXPORT_FORMATS as readonly string[]).includes(raw)) return raw as ExportFormat;
  throw new BadRequest(`Unknown export format${raw ? ` "${raw.slice(0, 20)}"` : ""}: use md, epub or pdf.`);
}

export function parsePaper(raw: string | undefined): Paper {
  if (raw === undefined) return "a4";
  if (Object.hasOwn(PAPER_SIZES, raw)) return raw as Paper;
  throw new BadRequest("Unknown paper size: use a4 or letter.");
}

function zipStream(ctx: ExportContext, fill: (zip: ZipFile) => Promise<void>): Readable {
  const zip = new ZipFile();
  const stream = zip.outputStream as Readable;
  fill(zip).then(
    () => zip.end(),
    (error: unknown) => {
      // The download was cancelled: nothing failed, and no one is left to tell.
      if (error instanceof ArchiveAbandoned) return;
      // Headers are gone already: cutting the stream makes the download fail visibly instead of saving
      // a silently incomplete book.
      ctx.log.error({ err: error }, "export failed");
      stream.destroy(error as Error);
    },
  );
  return stream;
}

export async function exportStory(
  ctx: ExportContext,
  userId: string,
  storyId: string,
  format: ExportFormat,
  paper: Paper,
  /** Told the book before its file is written (the export job sizes its progress from it). */
  onBook?: (book: Book) => void,
): Promise<ExportFile> {
  const book = await loadBook(ctx, userId, storyId);
  onBook?.(book);
  const stem = fileStem(book.title);
  switch (format) {
    case "md":
      return {
        stream: zipStream(ctx, (zip) => writeMarkdownZip(ctx, zip, book, stem)),
        filename: `${stem}.zip`,
        contentType: EXPORT_CONTENT_TYPES.md,
      };
    case "epub":
      return {
        stream: zipStream(ctx, (zip) => writeEpub(ctx, zip, book, ctx.clock.now())),
        filename: `${stem}.epub`,
        contentType: EXPORT_CONTENT_TYPES.epub,
      };
    case "pdf":
      return {
        stream: writePdf(ctx, book, paper).stream,
        filename: `${stem}.pdf`,
        contentType: EXPORT_CONTENT_TYPES.pdf,
      };
  }
}

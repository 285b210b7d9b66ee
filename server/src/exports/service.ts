// Exports: a story taken out as a Markdown zip, an EPUB 3 book or a PDF, made in the job worker from a book
// read a page at a time (book.ts) and streamed into storage as it is written (export-job.ts). An EPUB may be a
// read-along book (narration): its narrator's words read aloud as Media Overlays. What goes into a file is
// summed up in its content hash (decision 0131), so a finished file is served again while nothing it was made
// from changed.
import type { Readable } from "node:stream";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  NARRATION_EPUB_ONLY_DETAIL,
  NARRATION_VALUE_DETAIL,
  READ_ALONG_USE_JOB_DETAIL,
} from "@storyverse/contract/exports";
import { speechCost } from "@storyverse/contract/voice";
import { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { InvalidInput } from "../platform/errors";
import { ArchiveAbandoned } from "../platform/zip-entries";
import { planSpeech, type StoryVoices, storyVoices } from "../voice";
import { speechUnitPrice, voiceProvider } from "../voices";
import { type BookScan, type BookStream, fileStem, scanBook } from "./book";
import { contentHash, voicesSignature } from "./content-hash";
import { writeEpub } from "./epub";
import type { ReadAlong } from "./epub-read-along";
import { type WriteOptions, writeMarkdownZip } from "./markdown-zip";
import { writePdf } from "./pdf";
import { PAPER_SIZES, type Paper } from "./pdf-layout";

type ExportContext = Pick<AppContext, "db" | "storage" | "clock" | "log">;
type ReadAlongContext = Pick<
  AppContext,
  "db" | "storage" | "clock" | "log" | "providers" | "jobs" | "config"
>;

/** The media type each format is served as. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  md: "application/zip",
  epub: "application/epub+zip",
  pdf: "application/pdf",
};

export type ExportFile = { stream: Readable; filename: string; contentType: string };

export function parseFormat(raw: string | undefined): ExportFormat {
  if (raw && (EXPORT_FORMATS as readonly string[]).includes(raw)) return raw as ExportFormat;
  throw new InvalidInput(`Unknown export format${raw ? ` "${raw.slice(0, 20)}"` : ""}: use md, epub or pdf.`);
}

export function parsePaper(raw: string | undefined): Paper {
  if (raw === undefined) return "a4";
  if (Object.hasOwn(PAPER_SIZES, raw)) return raw as Paper;
  throw new InvalidInput("Unknown paper size: use a4 or letter.");
}

/** The narration flag ("true"/"false" in a query, a boolean in a job's body); only an EPUB is read aloud. */
export function parseNarration(raw: string | boolean | undefined, format: ExportFormat): boolean {
  let narration: boolean;
  if (raw === undefined || raw === false || raw === "false" || raw === "0") narration = false;
  else if (raw === true || raw === "true" || raw === "1") narration = true;
  else throw new InvalidInput(NARRATION_VALUE_DETAIL);
  if (narration && format !== "epub") throw new InvalidInput(NARRATION_EPUB_ONLY_DETAIL);
  return narration;
}

/**
 * Who reads a read-along book: 503 when narration is off (TTS_PROVIDER=none). A paid (vendor) voice only when
 * `paid` is "allow": the direct download cannot charge and refund around a stream, so it points to the job.
 */
export async function readAlongOf(
  ctx: ReadAlongContext,
  userId: string,
  storyId: string,
  paid: "allow" | "refuse",
): Promise<ReadAlong> {
  const provider = voiceProvider(ctx);
  if (paid === "refuse" && speechUnitPrice(provider) > 0) throw new InvalidInput(READ_ALONG_USE_JOB_DETAIL);
  return { voices: await storyVoices(ctx, userId, storyId), ffmpegPath: ctx.config.ffmpeg.path };
}

/** How many characters of the narrator's words a read-along book speaks: what a vendor voice is paid for. */
export const narratedBy =
  (voices: StoryVoices) => (exchange: { narrator: string | null; speaker?: string | null | undefined }) =>
    exchange.narrator ? planSpeech(voices, exchange.narrator, exchange.speaker ?? null).characters : 0;

/** What narrating the book costs: the film's price per 1,000 characters of the narrator's words (0 offline). */
export function readAlongPrice(readAlong: ReadAlong, scan: BookScan) {
  const characters = scan.narrated;
  return { characters, cost: speechCost(speechUnitPrice(readAlong.voices.provider), characters) };
}

/** A read-along book's price, read from the story in one walk (its words only, a page at a time). */
export async function readAlongPriceOf(readAlong: ReadAlong, book: BookStream) {
  return readAlongPrice(readAlong, await scanBook(book, { narrated: narratedBy(readAlong.voices) }));
}

/** An export's hash: its format, its paper (a PDF's), and who reads it (a read-along book's). */
export function exportHash(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  file: { format: ExportFormat; paper: Paper; voices?: StoryVoices },
) {
  return contentHash(ctx, userId, storyId, {
    export: file.format,
    paper: file.format === "pdf" ? file.paper : null,
    voices: voicesSignature(file.voices),
  });
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

/**
 * Writes the book in the format asked for, as a stream: the export job stores it as it comes. `options.scan` is
 * the book's scan (made first, for progress); `options.onExchange` is told each exchange written.
 */
export function writeExport(
  ctx: ExportContext,
  book: BookStream,
  format: ExportFormat,
  paper: Paper,
  options: WriteOptions & { readAlong?: ReadAlong; modifiedAt: Date },
): ExportFile {
  const stem = fileStem(book.title);
  switch (format) {
    case "md":
      return {
        stream: zipStream(ctx, (zip) => writeMarkdownZip(ctx, zip, book, stem, options)),
        filename: `${stem}.zip`,
        contentType: EXPORT_CONTENT_TYPES.md,
      };
    case "epub":
      return {
        stream: zipStream(ctx, (zip) =>
          writeEpub(ctx, zip, book, options.modifiedAt, options.readAlong, options),
        ),
        filename: `${stem}.epub`,
        contentType: EXPORT_CONTENT_TYPES.epub,
      };
    case "pdf":
      return {
        stream: writePdf(ctx, book, paper, options).stream,
        filename: `${stem}.pdf`,
        contentType: EXPORT_CONTENT_TYPES.pdf,
      };
  }
}

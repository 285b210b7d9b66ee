// Exports: a story taken out as a Markdown zip, an EPUB 3 book or a PDF. The owner check and the reading
// of the story happen before any byte is sent (so a stranger gets a clean 404); the file itself is then
// streamed while it is being made, so a long story starts downloading at once and never sits whole in memory.
// An EPUB may be a read-along book (narration=true): its narrator's words read aloud as Media Overlays.
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
import { storyVoices } from "../voice/narration";
import { speechUnitPrice, voiceProvider } from "../voice/voices";
import { type Book, fileStem, loadBook } from "./book";
import { writeEpub } from "./epub";
import type { ReadAlong } from "./epub-read-along";
import { narratedCharacters } from "./film-job";
import { writeMarkdownZip } from "./markdown-zip";
import { PAPER_SIZES, type Paper, writePdf } from "./pdf";
import { ArchiveAbandoned } from "./zip-entries";

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

/** What narrating the book costs: the film's price per 1,000 characters of the narrator's words (0 offline). */
export function readAlongPrice(readAlong: ReadAlong, book: Book) {
  const characters = narratedCharacters(readAlong.voices, book.exchanges);
  return { characters, cost: speechCost(speechUnitPrice(readAlong.voices.provider), characters) };
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
  onBook?: (book: Book) => void | Promise<void>,
  /** A read-along EPUB: who reads it (asked for once the story is known to be the caller's). */
  readAlong?: () => Promise<ReadAlong>,
): Promise<ExportFile> {
  const book = await loadBook(ctx, userId, storyId);
  const reader = readAlong && format === "epub" ? await readAlong() : undefined;
  await onBook?.(book);
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
        stream: zipStream(ctx, (zip) => writeEpub(ctx, zip, book, ctx.clock.now(), reader)),
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

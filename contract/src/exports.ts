// Exports made by a job in the worker: start one, follow its progress and step, then download the file. An
// export asked for again while the story is unchanged is answered with the one made already (`reused`).
// `GET /api/stories/{id}/export` waits for the same job and sends its file.
import { z } from "zod";

export const EXPORT_FORMATS = ["md", "epub", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const NARRATION_VALUE_DETAIL = "narration: use true or false.";
export const NARRATION_EPUB_ONLY_DETAIL =
  "narration: only an EPUB book can be read aloud; use format=epub, or leave narration out.";
/** A paid voice narrates only in an export job, which charges first and gives the credits back if it fails. */
export const READ_ALONG_USE_JOB_DETAIL =
  "This server's voice is paid: make the read-along book as an export job (POST /api/stories/{id}/exports with format epub and narration true), which charges the narration and returns it if the book fails.";
export const READ_ALONG_NO_CREDITS_MESSAGE = "There were not enough credits to narrate this book.";

export const startExportRequestSchema = z.object({
  /** md, epub or pdf; anything else is a 400 naming the allowed values. */
  format: z.string().max(20),
  /** a4 (default) or letter; PDF only. */
  paper: z.string().max(20).optional(),
  /** EPUB only: a read-along book, the narration as EPUB 3 Media Overlays (free offline; a vendor voice is paid). */
  narration: z.boolean({ error: NARRATION_VALUE_DETAIL }).optional(),
});
export type StartExportRequest = z.infer<typeof startExportRequestSchema>;

export const storyExportSchema = z.object({
  id: z.string(),
  format: z.enum(EXPORT_FORMATS),
  status: z.enum(["queued", "running", "completed", "failed"]),
  progress: z.number().describe("0 to 100"),
  /** What it is doing now, while queued or running ("Writing turn 1,200 of 10,000"); null once it ended. */
  step: z.string().nullable().default(null),
  error: z.string().nullable(),
  /** The file's name once made; download it from `.../exports/{export_id}/file`. */
  filename: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StoryExport = z.infer<typeof storyExportSchema>;

export const storyExportResponseSchema = z.object({
  success: z.literal(true),
  export: storyExportSchema,
  /** Starting one: true when an identical export (same story content, format and voices) answered instead. */
  reused: z.boolean().optional(),
});
export type StoryExportResponse = z.infer<typeof storyExportResponseSchema>;

export const EXPORT_FAILED_MESSAGE = "The export could not be made. Please try again.";

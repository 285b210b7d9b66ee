// Exports made by a job, as the owner sees them: start one, read its status and progress, download the
// file. A story keeps its few newest exports; older ones (rows and files) go when a new one starts.
import { EXPORT_FAILED_MESSAGE, type StoryExport } from "@storyverse/contract/exports";
import { SPEECH_CHARACTERS_PER_UNIT } from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { assertCovers } from "../credits/paid-work";
import { NotFound } from "../platform/errors";
import { loadBook } from "./book";
import { storyExportJob } from "./export-job";
import {
  deleteExports,
  type ExportRow,
  exportsOfStory,
  failStaleExports,
  findExport,
  insertExport,
  updateExport,
} from "./export-repo";
import {
  EXPORT_CONTENT_TYPES,
  parseFormat,
  parseNarration,
  parsePaper,
  readAlongOf,
  readAlongPrice,
} from "./service";

type ExportFilesContext = Pick<AppContext, "db" | "clock" | "storage" | "jobs" | "log">;
type StartContext = ExportFilesContext & Pick<AppContext, "providers" | "config">;

/** Exports kept per story; starting another removes the oldest beyond this. */
export const EXPORTS_KEPT_PER_STORY = 5;
/** An export that has not reported for this long lost its worker. */
const EXPORT_STALE_MS = 40 * 60 * 1000;

const NOT_FOUND = "Export not found";

function toExport(row: ExportRow): StoryExport {
  return {
    id: row.id,
    format: row.format,
    status: row.status,
    progress: row.progress,
    error: row.error,
    filename: row.status === "completed" ? row.filename : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function ownExport(ctx: ExportFilesContext, userId: string, storyId: string, exportId: string) {
  await loadBook(ctx, userId, storyId);
  const now = ctx.clock.now();
  await failStaleExports(
    ctx.db,
    storyId,
    new Date(now.getTime() - EXPORT_STALE_MS),
    EXPORT_FAILED_MESSAGE,
    now,
  );
  const row = await findExport(ctx.db, exportId);
  if (!row || row.userId !== userId || row.storyId !== storyId) throw new NotFound(NOT_FOUND);
  return row;
}

async function pruneOld(ctx: ExportFilesContext, storyId: string) {
  const old = (await exportsOfStory(ctx.db, storyId)).slice(EXPORTS_KEPT_PER_STORY - 1);
  const finished = old.filter((row) => row.status === "completed" || row.status === "failed");
  for (const row of finished) {
    if (row.storageKey) {
      await ctx.storage.delete(row.storageKey).catch((error: unknown) => {
        ctx.log.warn({ err: error, exportId: row.id }, "old export file could not be removed");
      });
    }
  }
  await deleteExports(
    ctx.db,
    finished.map((row) => row.id),
  );
}

/**
 * Queues an export. A read-along EPUB (narration) needs a voice (503 when narration is off) and, with a paid
 * voice, a balance that covers its narration (402 now; the job charges when it runs, see export-job.ts).
 */
export async function startExport(
  ctx: StartContext,
  userId: string,
  storyId: string,
  input: { format: string; paper?: string; narration?: boolean },
): Promise<StoryExport> {
  const format = parseFormat(input.format);
  const paper = parsePaper(input.paper);
  const narration = parseNarration(input.narration, format);
  const book = await loadBook(ctx, userId, storyId);
  if (narration) {
    const price = readAlongPrice(await readAlongOf(ctx, userId, storyId, "allow"), book);
    if (price.cost > 0) {
      await assertCovers(ctx, userId, "speech", Math.ceil(price.characters / SPEECH_CHARACTERS_PER_UNIT));
    }
  }
  await pruneOld(ctx, storyId);
  const now = ctx.clock.now();
  const row = await insertExport(ctx.db, {
    userId,
    storyId,
    format,
    paper,
    status: "queued",
    progress: 0,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await ctx.jobs.send(storyExportJob, narration ? { exportId: row.id, narration } : { exportId: row.id });
  } catch (error) {
    await updateExport(ctx.db, row.id, {
      status: "failed",
      error: EXPORT_FAILED_MESSAGE,
      updatedAt: ctx.clock.now(),
    });
    throw error;
  }
  return toExport(row);
}

export async function exportStatus(
  ctx: ExportFilesContext,
  userId: string,
  storyId: string,
  exportId: string,
): Promise<StoryExport> {
  return toExport(await ownExport(ctx, userId, storyId, exportId));
}

export async function exportDownload(
  ctx: ExportFilesContext,
  userId: string,
  storyId: string,
  exportId: string,
): Promise<{ data: Buffer; filename: string; contentType: string }> {
  const row = await ownExport(ctx, userId, storyId, exportId);
  if (row.status !== "completed" || !row.storageKey || !row.filename) {
    throw new NotFound("This export is not ready yet.");
  }
  return {
    data: await ctx.storage.read(row.storageKey),
    filename: row.filename,
    contentType: EXPORT_CONTENT_TYPES[row.format],
  };
}

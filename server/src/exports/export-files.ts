// Exports made by a job, as the owner sees them: start one, read its status, progress and step, download the
// file. An export asked for again while nothing that goes into it changed (its content hash, decision 0131) is
// answered with the one made, or being made, already: no second job, no second charge. A story keeps its few
// most recently used exports; older ones (rows and files) go when a new one starts.
import type { Readable } from "node:stream";
import { EXPORT_FAILED_MESSAGE, type StoryExport } from "@storyverse/contract/exports";
import { SPEECH_CHARACTERS_PER_UNIT } from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { assertCovers } from "../credits";
import { NotFound, Unavailable } from "../platform/errors";
import { ownedStoryRecord } from "../stories";
import { openBook } from "./book";
import { storyExportJob } from "./export-job";
import {
  deleteExports,
  type ExportRow,
  exportsOfStory,
  exportWithHash,
  failStaleExports,
  findExport,
  insertExport,
  updateExport,
} from "./export-repo";
import {
  EXPORT_CONTENT_TYPES,
  exportHash,
  parseFormat,
  parseNarration,
  parsePaper,
  readAlongOf,
  readAlongPriceOf,
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
    step: row.status === "queued" || row.status === "running" ? row.step : null,
    error: row.error,
    filename: row.status === "completed" ? row.filename : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function ownExport(ctx: ExportFilesContext, userId: string, storyId: string, exportId: string) {
  await ownedStoryRecord(ctx, userId, storyId);
  await expireStale(ctx, storyId);
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
 * Queues an export, or answers the one already made (or being made) from the same content: `reused` then.
 * A read-along EPUB (narration) needs a voice (503 when narration is off) and, with a paid voice, a balance
 * that covers its narration (402 now; the job charges when it runs, see export-job.ts).
 */
export async function startExport(
  ctx: StartContext,
  userId: string,
  storyId: string,
  input: { format: string; paper?: string; narration?: boolean },
  options: { paidVoice?: "allow" | "refuse" } = {},
): Promise<{ export: StoryExport; reused: boolean }> {
  const format = parseFormat(input.format);
  const paper = parsePaper(input.paper);
  const narration = parseNarration(input.narration, format);
  await ownedStoryRecord(ctx, userId, storyId);
  const readAlong = narration
    ? await readAlongOf(ctx, userId, storyId, options.paidVoice ?? "allow")
    : undefined;
  const contentHash = await exportHash(ctx, userId, storyId, {
    format,
    paper,
    ...(readAlong ? { voices: readAlong.voices } : {}),
  });
  await expireStale(ctx, storyId);
  const same = await exportWithHash(ctx.db, userId, storyId, contentHash);
  if (same && (await stillThere(ctx, same))) {
    // Served again: it counts as just used, so it is the last to be pruned.
    const now = ctx.clock.now();
    if (same.status === "completed") await updateExport(ctx.db, same.id, { updatedAt: now });
    return {
      export: toExport(same.status === "completed" ? { ...same, updatedAt: now } : same),
      reused: true,
    };
  }
  if (readAlong) {
    const price = await readAlongPriceOf(readAlong, await openBook(ctx, userId, storyId));
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
    narration,
    contentHash,
    status: "queued",
    progress: 0,
    step: "Waiting for a worker",
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
  return { export: toExport(row), reused: false };
}

/** A finished export whose file is still in storage, or one still being made. */
async function stillThere(ctx: ExportFilesContext, row: ExportRow): Promise<boolean> {
  if (row.status !== "completed") return true;
  if (!row.storageKey) return false;
  return ctx.storage.size(row.storageKey).then(
    () => true,
    () => false,
  );
}

async function expireStale(ctx: ExportFilesContext, storyId: string) {
  const now = ctx.clock.now();
  await failStaleExports(
    ctx.db,
    storyId,
    new Date(now.getTime() - EXPORT_STALE_MS),
    EXPORT_FAILED_MESSAGE,
    now,
  );
}

/** How often the direct download looks at the export it waits for. */
const WAIT_POLL_MS = 200;

/**
 * The direct download (GET /api/stories/{id}/export): the same export job (or the finished file it is
 * reused from), waited for, then streamed from storage. The request only waits: the book is made by the worker.
 */
export async function exportWhenMade(
  ctx: StartContext,
  userId: string,
  storyId: string,
  input: { format: string; paper?: string; narration?: boolean },
  /** Aborted when the client went away: the job goes on (its file is reused), the waiting stops. */
  signal?: AbortSignal,
): Promise<{ stream: Readable; size: number; filename: string; contentType: string }> {
  const { export: started } = await startExport(ctx, userId, storyId, input, { paidVoice: "refuse" });
  // A job whose worker died stops reporting: it counts as failed after EXPORT_STALE_MS, and so does this wait.
  let lastReport = Date.now();
  let updatedAt = "";
  while (!signal?.aborted) {
    const row = await findExport(ctx.db, started.id);
    if (!row) throw new NotFound(NOT_FOUND);
    if (row.status === "completed") return exportDownload(ctx, userId, storyId, row.id);
    if (row.status === "failed") throw new Unavailable(row.error ?? EXPORT_FAILED_MESSAGE);
    if (row.updatedAt.toISOString() !== updatedAt) {
      updatedAt = row.updatedAt.toISOString();
      lastReport = Date.now();
    } else if (Date.now() - lastReport > EXPORT_STALE_MS) {
      throw new Unavailable(EXPORT_FAILED_MESSAGE);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
  throw new Unavailable(EXPORT_FAILED_MESSAGE);
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
): Promise<{ stream: Readable; size: number; filename: string; contentType: string }> {
  const row = await ownExport(ctx, userId, storyId, exportId);
  if (row.status !== "completed" || !row.storageKey || !row.filename) {
    throw new NotFound("This export is not ready yet.");
  }
  // Streamed from storage: a large book is never whole in the web process.
  const file = await ctx.storage.open(row.storageKey).catch(() => {
    throw new NotFound("This export's file is gone: make it again.");
  });
  return {
    stream: file.stream,
    size: file.size,
    filename: row.filename,
    contentType: EXPORT_CONTENT_TYPES[row.format],
  };
}

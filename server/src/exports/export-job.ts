// Makes an export file in a job: the same writers as the streamed download, their output streamed into
// media storage as it is made, with progress counted as the story's pictures and clips are read.
import { EXPORT_FAILED_MESSAGE } from "@storyverse/contract/exports";
import { z } from "zod";
import type { AppContext } from "../context";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import type { ByteRange, MediaStorage } from "../media/storage/types";
import type { Book } from "./book";
import { findExport, updateExport, updateExportIfPresent } from "./export-repo";
import { exportStory } from "./service";

export const storyExportJob: JobSpec<{ exportId: string }> = {
  name: "story-export",
  payload: z.object({ exportId: z.uuid() }),
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 30 * 60,
};

type ExportJobContext = Pick<AppContext, "db" | "clock" | "storage" | "log">;

/** Where a finished export is kept: beside the user's media, never in the gallery. */
export const exportStorageKey = (userId: string, exportId: string, format: string) =>
  `u/${userId}/exports/${exportId}.${format === "md" ? "zip" : format}`;

/** The media files a book reads: its pictures and clips, and its cover. */
function mediaReads(book: Book): number {
  let count = book.coverKey ? 1 : 0;
  for (const exchange of book.exchanges) {
    if (exchange.imageKey) count += 1;
    if (exchange.videoKey) count += 1;
  }
  return Math.max(1, count);
}

export async function makeExport(ctx: ExportJobContext, payload: { exportId: string }, attempt: JobAttempt) {
  const row = await findExport(ctx.db, payload.exportId);
  if (!row || (row.status !== "queued" && row.status !== "running")) return;
  await updateExport(ctx.db, row.id, { status: "running", progress: 1, updatedAt: ctx.clock.now() });
  try {
    let total = 1;
    let read = 0;
    let reported = 1;
    // Reading media is most of the work (EPUB and PDF also shrink each picture): count the files read
    // (whole, or opened as a stream). The same store with reads counted (inheriting every other method).
    const counted = async () => {
      read += 1;
      const progress = Math.min(95, Math.max(1, Math.floor((read / total) * 95)));
      if (progress >= reported + 5) {
        reported = progress;
        await updateExport(ctx.db, row.id, { progress, updatedAt: ctx.clock.now() });
      }
    };
    const counting: ExportJobContext = {
      ...ctx,
      storage: Object.assign(Object.create(ctx.storage) as MediaStorage, {
        read: async (key: string) => {
          const data = await ctx.storage.read(key);
          await counted();
          return data;
        },
        open: async (key: string, range?: ByteRange) => {
          const file = await ctx.storage.open(key, range);
          await counted();
          return file;
        },
      }),
    };
    const file = await exportStory(counting, row.userId, row.storyId, row.format, row.paper, (book) => {
      total = mediaReads(book);
    });
    // Written as it is made (never whole in memory), at the pace the store takes it.
    const key = exportStorageKey(row.userId, row.id, row.format);
    await ctx.storage.putStream(key, file.stream, file.contentType);
    const kept = await updateExportIfPresent(ctx.db, row.id, {
      status: "completed",
      progress: 100,
      error: null,
      storageKey: key,
      filename: file.filename,
      updatedAt: ctx.clock.now(),
    });
    // The story was deleted while its export was made: the file belongs to nothing.
    if (!kept) await ctx.storage.delete(key);
  } catch (error) {
    ctx.log.warn({ err: error, exportId: row.id, attempt: attempt.retryCount }, "export failed");
    if (!attempt.isLastAttempt) throw error;
    await updateExport(ctx.db, row.id, {
      status: "failed",
      error: EXPORT_FAILED_MESSAGE,
      updatedAt: ctx.clock.now(),
    });
  }
}

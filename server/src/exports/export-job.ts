// Makes an export file in a job: the same writers as the streamed download, their output streamed into
// media storage as it is made, with progress counted as the story's pictures and clips are read (and, for a
// read-along book, as its exchanges are spoken).
//
// A read-along EPUB narrated by a paid (vendor) voice is charged here, once the book's words are known, by
// payFor: the charge settles in the transaction that marks the export completed, and a failure (or a story
// deleted meanwhile) gives it back; a worker that dies leaves the charge to the unsettled-charge sweep. Each
// try is its own charge (with its own refund key), so a retried export can never be refunded short.
import { randomUUID } from "node:crypto";
import { EXPORT_FAILED_MESSAGE, READ_ALONG_NO_CREDITS_MESSAGE } from "@storyverse/contract/exports";
import { SPEECH_CHARACTERS_PER_UNIT } from "@storyverse/contract/voice";
import { z } from "zod";
import type { AppContext } from "../context";
import { payFor } from "../credits/paid-work";
import { InsufficientCredits } from "../credits/service";
import type { Queryable } from "../db/client";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import type { ByteRange, MediaStorage } from "../media/storage/types";
import { ProviderError } from "../providers/types";
import { type Book, loadBook } from "./book";
import type { ReadAlong } from "./epub-read-along";
import { findExport, updateExport, updateExportIfPresent } from "./export-repo";
import { exportStory, readAlongOf, readAlongPrice } from "./service";

export const READ_ALONG_REFUND_DESCRIPTION = "Refund: read-along book narration failed";

export const storyExportJob: JobSpec<{ exportId: string; narration?: boolean }> = {
  name: "story-export",
  /** narration: a read-along EPUB (the export's row keeps format and paper; this flag rides with its job). */
  payload: z.object({ exportId: z.uuid(), narration: z.boolean().optional() }),
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 30 * 60,
};

type ExportJobContext = Pick<
  AppContext,
  "db" | "clock" | "storage" | "log" | "providers" | "jobs" | "config"
>;

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

export async function makeExport(
  ctx: ExportJobContext,
  payload: { exportId: string; narration?: boolean },
  attempt: JobAttempt,
) {
  const row = await findExport(ctx.db, payload.exportId);
  if (!row || (row.status !== "queued" && row.status !== "running")) return;
  await updateExport(ctx.db, row.id, { status: "running", progress: 1, updatedAt: ctx.clock.now() });
  try {
    let total = 1;
    let read = 0;
    let reported = 1;
    // Reading media is most of the work (EPUB and PDF also shrink each picture): count the files read
    // (whole, or opened as a stream). The same store with reads counted (inheriting every other method).
    const counted = async (units = 1) => {
      read += units;
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
    const readAlong =
      payload.narration && row.format === "epub"
        ? await readAlongOf(ctx, row.userId, row.storyId, "allow")
        : undefined;
    /** Makes and stores the file; settle (of a charge) runs in the transaction that marks it completed. */
    const produce = async (settle?: (tx: Queryable, kept: boolean) => Promise<void>) => {
      const file = await exportStory(
        counting,
        row.userId,
        row.storyId,
        row.format,
        row.paper,
        (book) => {
          // A read-along book also speaks every exchange: one unit each, counted as its chapter is spoken.
          total = mediaReads(book) + (readAlong ? book.exchanges.length : 0);
        },
        readAlong && (async () => ({ ...readAlong, onChapterSpoken: counted })),
      );
      // Written as it is made (never whole in memory), at the pace the store takes it.
      const key = exportStorageKey(row.userId, row.id, row.format);
      await ctx.storage.putStream(key, file.stream, file.contentType);
      let kept: boolean;
      try {
        kept = await ctx.db.transaction(async (tx) => {
          const present = await updateExportIfPresent(tx, row.id, {
            status: "completed",
            progress: 100,
            error: null,
            storageKey: key,
            filename: file.filename,
            updatedAt: ctx.clock.now(),
          });
          await settle?.(tx, present);
          return present;
        });
      } catch (error) {
        await ctx.storage.delete(key).catch(() => {});
        throw error;
      }
      // The story was deleted while its export was made: the file belongs to nothing.
      if (!kept) await ctx.storage.delete(key);
    };
    const price = readAlong ? await narrationPrice(ctx, row, readAlong) : undefined;
    if (!price || price.cost === 0) await produce();
    else {
      await payFor(
        ctx,
        {
          userId: row.userId,
          kind: "speech",
          quantity: Math.ceil(price.characters / SPEECH_CHARACTERS_PER_UNIT),
          description: `Read-along book narration (${price.characters} characters)`,
          paidFor: randomUUID(),
          refundDescription: READ_ALONG_REFUND_DESCRIPTION,
        },
        async (paid, settle) => {
          let undeliveredTenths = 0;
          // A story deleted meanwhile has no book to deliver: the whole charge goes back.
          await produce(async (tx, kept) => {
            undeliveredTenths = kept ? 0 : paid.chargedTenths;
            await settle(tx, undeliveredTenths);
          });
          return { result: undefined, undeliveredTenths };
        },
      );
    }
  } catch (error) {
    ctx.log.warn({ err: error, exportId: row.id, attempt: attempt.retryCount }, "export failed");
    if (error instanceof InsufficientCredits) {
      // Another try would find the same balance: the export fails now, with nothing charged.
      await updateExport(ctx.db, row.id, {
        status: "failed",
        error: READ_ALONG_NO_CREDITS_MESSAGE,
        updatedAt: ctx.clock.now(),
      });
      return;
    }
    // A vendor that refused the words (not a passing failure) would refuse them again.
    const retry = error instanceof ProviderError ? error.retryable : true;
    if (retry && !attempt.isLastAttempt) throw error;
    await updateExport(ctx.db, row.id, {
      status: "failed",
      error: EXPORT_FAILED_MESSAGE,
      updatedAt: ctx.clock.now(),
    });
  }
}

/** What the read-along book's narration costs, from the story as it reads when the job runs. */
async function narrationPrice(
  ctx: ExportJobContext,
  row: { userId: string; storyId: string },
  readAlong: ReadAlong,
) {
  return readAlongPrice(readAlong, await loadBook(ctx, row.userId, row.storyId));
}

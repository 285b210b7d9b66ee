// Makes an export file in the job worker (WORKER=only processes in production, the in-process worker on the
// embedded default), so a long export never holds a web request. The book is read from a cursor a page at a
// time: a first walk counts what there is to do (scanBook), the second writes the file, streamed into media
// storage as it is made. Progress tells the step it is on ("Writing turn 1,200 of 10,000") and is written at
// least every PROGRESS_EVERY_MS while anything moves.
//
// The file keeps the content hash it was made from (decision 0131), checked again once it is written: a story
// that changed while it was made leaves the export without a hash, so it is never served for either version.
//
// A read-along EPUB narrated by a paid (vendor) voice is charged here, once the book's words are known, by
// payFor: the charge settles in the transaction that marks the export completed, and a failure (or a story
// deleted meanwhile) gives it back; a worker that dies leaves the charge to the unsettled-charge sweep. Each
// try is its own charge (with its own refund key), so a retried export can never be refunded short. A finished
// export served again (export-files.ts) is never charged again.
import { randomUUID } from "node:crypto";
import { EXPORT_FAILED_MESSAGE, READ_ALONG_NO_CREDITS_MESSAGE } from "@storyverse/contract/exports";
import { SPEECH_CHARACTERS_PER_UNIT } from "@storyverse/contract/voice";
import { z } from "zod";
import type { AppContext } from "../context";
import { InsufficientCredits, payFor } from "../credits";
import type { Queryable } from "../db/client";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import type { ByteRange, MediaStorage } from "../media";
import { StorageFull } from "../media";
import { ProviderError } from "../providers/types";
import { openBook, PROGRESS_EVERY_MS, scanBook } from "./book";
import { EXCHANGES_PER_CHAPTER } from "./chapters";
import { type ExportRow, findExport, updateExport, updateExportIfPresent } from "./export-repo";
import { exportHash, narratedBy, readAlongOf, readAlongPrice, writeExport } from "./service";

export const READ_ALONG_REFUND_DESCRIPTION = "Refund: read-along book narration failed";

export const storyExportJob: JobSpec<{ exportId: string; narration?: boolean }> = {
  name: "story-export",
  /** narration: a read-along EPUB (kept on the export's row too, with its format and paper). */
  payload: z.object({ exportId: z.uuid(), narration: z.boolean().optional() }),
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 30 * 60,
};

type ExportJobContext = Pick<
  AppContext,
  "db" | "clock" | "storage" | "log" | "providers" | "jobs" | "config" | "spendingCaps"
>;

/** Where a finished export is kept: beside the user's media, never in the gallery. */
export const exportStorageKey = (userId: string, exportId: string, format: string) =>
  `u/${userId}/exports/${exportId}.${format === "md" ? "zip" : format}`;

const count = (n: number) => n.toLocaleString("en-US");

/** An export's progress: the share of the work done (1 to 95 while it is made) and the step it is on. */
function progressReporter(ctx: ExportJobContext, exportId: string) {
  let written = { progress: 1, step: "" };
  let at = 0;
  return async (progress: number, step: string, force = false) => {
    const next = { progress: Math.min(95, Math.max(written.progress, Math.floor(progress))), step };
    const now = performance.now();
    // Written when it moved 5 points (at most 20 writes for the figure), else at most every PROGRESS_EVERY_MS.
    const leap = next.progress >= written.progress + 5;
    if (!force && !leap && now - at < PROGRESS_EVERY_MS) return;
    if (next.progress === written.progress && next.step === written.step) return;
    at = now;
    written = next;
    await updateExport(ctx.db, exportId, { ...next, updatedAt: ctx.clock.now() });
  };
}

export async function makeExport(
  ctx: ExportJobContext,
  payload: { exportId: string; narration?: boolean },
  attempt: JobAttempt,
) {
  const row = await findExport(ctx.db, payload.exportId);
  if (!row || (row.status !== "queued" && row.status !== "running")) return;
  await updateExport(ctx.db, row.id, {
    status: "running",
    progress: 1,
    step: "Reading the story",
    updatedAt: ctx.clock.now(),
  });
  try {
    await makeFile(ctx, row, payload.narration === true || row.narration);
  } catch (error) {
    ctx.log.warn({ err: error, exportId: row.id, attempt: attempt.retryCount }, "export failed");
    if (error instanceof InsufficientCredits) {
      // Another try would find the same balance: the export fails now, with nothing charged.
      await fail(ctx, row, READ_ALONG_NO_CREDITS_MESSAGE);
      return;
    }
    if (error instanceof StorageFull) {
      // The account's storage is full: another try would be refused too. Its own words say what to do.
      await fail(ctx, row, error.detail);
      return;
    }
    // A vendor that refused the words (not a passing failure) would refuse them again.
    const retry = error instanceof ProviderError ? error.retryable : true;
    if (retry && !attempt.isLastAttempt) throw error;
    await fail(ctx, row, EXPORT_FAILED_MESSAGE);
  }
}

async function fail(ctx: ExportJobContext, row: ExportRow, error: string) {
  await updateExport(ctx.db, row.id, { status: "failed", error, step: null, updatedAt: ctx.clock.now() });
}

async function makeFile(ctx: ExportJobContext, row: ExportRow, narration: boolean) {
  const report = progressReporter(ctx, row.id);
  const readAlong =
    narration && row.format === "epub" ? await readAlongOf(ctx, row.userId, row.storyId, "allow") : undefined;
  const hashOf = () =>
    exportHash(ctx, row.userId, row.storyId, {
      format: row.format,
      paper: row.paper,
      ...(readAlong ? { voices: readAlong.voices } : {}),
    });
  const hashBefore = await hashOf();
  const book = await openBook(ctx, row.userId, row.storyId);

  // The first walk: what there is to do (a few per cent of the work; it reads only words).
  const scan = await scanBook(book, {
    ...(readAlong ? { narrated: narratedBy(readAlong.voices) } : {}),
    onExchange: (n) => report(1 + Math.min(4, n / 2500), `Reading turn ${count(n)}`),
  });
  const chapters = Math.ceil(scan.exchanges / EXCHANGES_PER_CHAPTER);
  // The work in units: each exchange written, each media file read, and each exchange spoken.
  const total = Math.max(1, scan.exchanges + scan.mediaReads + (readAlong ? scan.exchanges : 0));
  let done = 0;
  let written = 0;
  let spokenChapters = 0;
  let sentences = 0;
  const share = () => 5 + (done / total) * 90;
  const of = () => `${count(Math.min(scan.exchanges, written + 1))} of ${count(scan.exchanges)}`;

  /** Makes and stores the file; settle (of a charge) runs in the transaction that marks it completed. */
  const produce = async (settle?: (tx: Queryable, kept: boolean) => Promise<void>) => {
    // Media reads count as they happen: the pictures are most of an illustrated book's work.
    const counting = countingReads(ctx, async () => {
      done += 1;
      await report(share(), `Adding pictures: turn ${of()}`);
    });
    const file = writeExport(counting, book, row.format, row.paper, {
      scan,
      modifiedAt: ctx.clock.now(),
      onExchange: async (n) => {
        done += 1;
        written = n;
        await report(share(), `Writing turn ${of()}`);
      },
      ...(readAlong
        ? {
            readAlong: {
              ...readAlong,
              onSpoken: async () => {
                sentences += 1;
                const chapter = count(Math.min(chapters, spokenChapters + 1));
                await report(
                  share(),
                  `Narrating chapter ${chapter} of ${count(chapters)}: sentence ${count(sentences)}`,
                );
              },
              onChapterSpoken: async (exchanges: number) => {
                done += exchanges;
                spokenChapters += 1;
                sentences = 0;
                await report(
                  share(),
                  `Narrating chapter ${count(spokenChapters)} of ${count(chapters)}`,
                  true,
                );
              },
            },
          }
        : {}),
    });
    // Written as it is made (never whole in memory), at the pace the store takes it.
    const key = exportStorageKey(row.userId, row.id, row.format);
    await ctx.storage.putStream(key, file.stream, file.contentType);
    await report(96, "Saving the file", true);
    // The story changed while its file was made: keep the file, but never serve it for either version.
    const hashAfter = await hashOf();
    let kept: boolean;
    try {
      kept = await ctx.db.transaction(async (tx) => {
        const present = await updateExportIfPresent(tx, row.id, {
          status: "completed",
          progress: 100,
          step: null,
          error: null,
          storageKey: key,
          filename: file.filename,
          contentHash: hashAfter === hashBefore ? hashBefore : null,
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

  const price = readAlong ? readAlongPrice(readAlong, scan) : undefined;
  if (!price || price.cost === 0) {
    await produce();
    return;
  }
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

/**
 * The context with a store that counts the media files the writers read (whole, or opened as a stream): the same
 * store with read and open wrapped, inheriting every other method.
 */
function countingReads(ctx: ExportJobContext, onRead: () => Promise<void>): ExportJobContext {
  return {
    ...ctx,
    storage: Object.assign(Object.create(ctx.storage) as MediaStorage, {
      read: async (key: string) => {
        const data = await ctx.storage.read(key);
        await onRead();
        return data;
      },
      open: async (key: string, range?: ByteRange) => {
        const file = await ctx.storage.open(key, range);
        await onRead();
        return file;
      },
    }),
  };
}

// Leave with your data (issue #44 item 4, decision 0143): everything a player owns as one zip archive, made by
// a job in the worker (as story exports are, decision 0131) and streamed into media storage as it is made:
//
//   README.txt              what is where
//   profile.json            the account (username, email, when it was made and verified) and its balance
//   personas.json           the personas the player plays (decision 0152), portraits by gallery id
//   stories/NNNN-title.storyverse.zip   each story's whole backup, exactly GET /api/stories/{id}/backup's
//                           file (every branch, message, card and media file), restorable by Restore
//   gallery/files/<id>.ext  every gallery picture and clip; gallery/gallery.json describes each (with its
//                           favourite mark and the boards that hold it)
//   studio/studio.json      the Studio's conversation (prompts, advisor answers, batches naming gallery ids)
//   studio/inputs/...       the pictures given to the Studio
//   credits/history.json    the whole credit ledger; credits/purchases.json each paid checkout
//   archive.json            what the archive holds, and any file that could not be read
//
// Memory stays bounded however large the library: stories, gallery items, Studio messages and ledger rows are
// read a page of ACCOUNT_EXPORT_PAGE at a time from keyset cursors, one file is streamed into the archive at a
// time at the pace storage takes it (platform/zip-entries.ts), and each JSON list is written as its pages come.
// One story's backup is made at a time (that backup reads its own rows as the story backup does).
//
// The file lives outside the account's media ("account-exports/<id>.zip", so it never counts against the
// quota nor fills it), until it expires (ACCOUNT_EXPORT_KEPT_DAYS; every worker's sweep removes expired files
// every 10 minutes), a newer archive is asked for, or the account is deleted. A job whose account was deleted while it ran removes the file it made.
import { Readable } from "node:stream";
import {
  ACCOUNT_EXPORT_FAILED_MESSAGE,
  ACCOUNT_EXPORT_KEPT_DAYS,
  type AccountExport,
} from "@storyverse/contract/leave";
import { ZipFile } from "yazl";
import { z } from "zod";
import { findUserById } from "../accounts";
import type { AppContext } from "../context";
import { accountBalance, accountLedgerCount, accountLedgerPage } from "../credits";
import { fileStem, PROGRESS_EVERY_MS } from "../exports";
import { storyBackup } from "../interop";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { accountGalleryCount, accountGalleryPage, extensionOfType } from "../media";
import { paidCheckouts } from "../payments";
import { personasForExport } from "../personas";
import { NotFound } from "../platform/errors";
import { startPeriodic } from "../platform/periodic";
import { addStreamedEntry } from "../platform/zip-entries";
import { accountStoriesPage, accountStoryCount } from "../stories";
import { accountStudioCount, accountStudioPage } from "../studio";
import {
  type AccountExportRow,
  accountExportsOf,
  deleteAccountExports,
  expiredAccountExports,
  findAccountExport,
  insertAccountExport,
  updateAccountExport,
} from "./repo";

/** Rows read per page, whatever is read (stories, gallery items, Studio messages, ledger rows). */
export const ACCOUNT_EXPORT_PAGE = 200;
export const ACCOUNT_EXPORT_FORMAT = "storyverse-account";
export const ACCOUNT_EXPORT_VERSION = 1;
const KEPT_MS = ACCOUNT_EXPORT_KEPT_DAYS * 24 * 60 * 60 * 1000;
/** An archive that has not reported for this long lost its worker. */
const STALE_MS = 2 * 60 * 60 * 1000;
export const ACCOUNT_EXPORT_EXPIRED_MESSAGE = `This archive was removed after ${ACCOUNT_EXPORT_KEPT_DAYS} days. Ask for a new one.`;
const NOT_FOUND = "Export not found";

export const accountExportJob: JobSpec<{ exportId: string }> = {
  name: "account-export",
  payload: z.object({ exportId: z.uuid() }),
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 2 * 60 * 60,
};

type LeaveContext = Pick<AppContext, "db" | "clock" | "storage" | "jobs" | "log">;

/** Where an archive's file lives: no account's key, so never counted against (nor refused by) the quota. */
export const accountExportKey = (exportId: string) => `account-exports/${exportId}.zip`;

async function toAccountExport(ctx: LeaveContext, row: AccountExportRow): Promise<AccountExport> {
  const done = row.status === "completed" && row.storageKey;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    step: row.status === "queued" || row.status === "running" ? row.step : null,
    error: row.error,
    filename: done ? row.filename : null,
    bytes: done ? row.bytes : null,
    download_url: done && row.storageKey ? await ctx.storage.signedUrl(row.storageKey) : null,
    expires_at: done ? (row.expiresAt?.toISOString() ?? null) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function removeFiles(ctx: LeaveContext, rows: AccountExportRow[]) {
  for (const row of rows) {
    if (!row.storageKey) continue;
    await ctx.storage.delete(row.storageKey).catch((error: unknown) => {
      ctx.log.warn({ err: error, exportId: row.id }, "account archive file could not be removed");
    });
  }
}

/** A finished archive past its time loses its file and says so; a running one that went silent failed. */
async function settleOld(ctx: LeaveContext, row: AccountExportRow): Promise<AccountExportRow> {
  const now = ctx.clock.now();
  if (row.status === "completed" && row.expiresAt && row.expiresAt <= now) {
    await removeFiles(ctx, [row]);
    const expired = {
      status: "failed" as const,
      error: ACCOUNT_EXPORT_EXPIRED_MESSAGE,
      storageKey: null,
      updatedAt: now,
    };
    await updateAccountExport(ctx.db, row.id, expired);
    return { ...row, ...expired };
  }
  if (
    (row.status === "queued" || row.status === "running") &&
    now.getTime() - row.updatedAt.getTime() > STALE_MS
  ) {
    const failed = {
      status: "failed" as const,
      error: ACCOUNT_EXPORT_FAILED_MESSAGE,
      step: null,
      updatedAt: now,
    };
    await updateAccountExport(ctx.db, row.id, failed);
    return { ...row, ...failed };
  }
  return row;
}

/** Archives one sweep looks at; the next run goes on with the rest. */
const SWEEP_BATCH = 100;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** One run of the archive sweep: finished archives past their time lose their file; answers how many. */
export async function sweepAccountArchives(ctx: LeaveContext): Promise<number> {
  const rows = await expiredAccountExports(ctx.db, ctx.clock.now(), SWEEP_BATCH);
  for (const row of rows) await settleOld(ctx, row);
  return rows.length;
}

/** Sweeps now and every 10 minutes in a worker process; returns the stop. */
export function startAccountArchiveSweep(ctx: LeaveContext): () => Promise<void> {
  return startPeriodic({
    run: async () => {
      const removed = await sweepAccountArchives(ctx);
      if (removed > 0) ctx.log.info({ archives: removed }, "removed expired account archives");
    },
    everyMs: SWEEP_EVERY_MS,
    log: ctx.log,
    failure: "account archives could not be swept",
  });
}

/**
 * Starts the account's archive (202), or answers the one being made already (200): one at a time per account.
 * Starting one removes the account's finished ones (their files too).
 */
export async function startAccountExport(
  ctx: LeaveContext,
  userId: string,
): Promise<{ export: AccountExport; started: boolean }> {
  const rows = await Promise.all((await accountExportsOf(ctx.db, userId)).map((row) => settleOld(ctx, row)));
  const running = rows.find((row) => row.status === "queued" || row.status === "running");
  if (running) return { export: await toAccountExport(ctx, running), started: false };
  await removeFiles(ctx, rows);
  await deleteAccountExports(
    ctx.db,
    rows.map((row) => row.id),
  );
  const now = ctx.clock.now();
  const row = await insertAccountExport(ctx.db, {
    userId,
    status: "queued",
    progress: 0,
    step: "Waiting to start",
    createdAt: now,
    updatedAt: now,
  });
  await ctx.jobs.send(accountExportJob, { exportId: row.id });
  return { export: await toAccountExport(ctx, row), started: true };
}

/** The archive's status; NotFound for anyone else's (or one that is gone). */
export async function accountExportStatus(
  ctx: LeaveContext,
  userId: string,
  exportId: string,
): Promise<AccountExport> {
  const row = await findAccountExport(ctx.db, exportId);
  if (!row || row.userId !== userId) throw new NotFound(NOT_FOUND);
  return toAccountExport(ctx, await settleOld(ctx, row));
}

const count = (n: number) => n.toLocaleString("en-US");

/** Reports the archive's progress (1 to 95) and step ("Story 3 of 12") while it is made. */
export type ArchiveProgress = (progress: number, step: string) => Promise<void>;

/**
 * Progress (1 to 95 while it is made) and the step, handed to `write` when it moves 5 points or every 500 ms.
 * The admin module's archives of deleted accounts (decision 0157) write theirs to their own rows.
 */
export function throttledProgress(
  write: (next: { progress: number; step: string }) => Promise<unknown>,
): ArchiveProgress {
  let written = { progress: 1, step: "" };
  let at = 0;
  return async (progress: number, step: string) => {
    const next = { progress: Math.min(95, Math.max(written.progress, Math.floor(progress))), step };
    const now = performance.now();
    const leap = next.progress >= written.progress + 5;
    if (!leap && now - at < PROGRESS_EVERY_MS) return;
    if (next.progress === written.progress && next.step === written.step) return;
    at = now;
    written = next;
    await write(next);
  };
}

const progressReporter = (ctx: LeaveContext, exportId: string) =>
  throttledProgress((next) => updateAccountExport(ctx.db, exportId, { ...next, updatedAt: ctx.clock.now() }));

type Cursor = { createdAt: Date; id: string } | null;

/** Every page of a keyset-paged read, one at a time. */
async function* pages<T extends { createdAt: Date; id: string }>(
  read: (after: Cursor, limit: number) => Promise<T[]>,
): AsyncGenerator<T[]> {
  let after: Cursor = null;
  for (;;) {
    const page = await read(after, ACCOUNT_EXPORT_PAGE);
    if (page.length > 0) yield page;
    if (page.length < ACCOUNT_EXPORT_PAGE) return;
    const last = page.at(-1)!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/** A JSON array written as its pages are read: the archive holds one page of it in memory at a time. */
function jsonArray<T>(source: AsyncIterable<T[]>, toJson: (item: T) => unknown): Readable {
  async function* text() {
    let first = true;
    yield Buffer.from("[");
    for await (const page of source) {
      const parts = page.map((item) => {
        const part = `${first ? "" : ","}\n  ${JSON.stringify(toJson(item))}`;
        first = false;
        return part;
      });
      yield Buffer.from(parts.join(""), "utf8");
    }
    yield Buffer.from(first ? "]\n" : "\n]\n");
  }
  return Readable.from(text(), { objectMode: false });
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
const credits = (tenths: number) => tenths / 10;
const galleryPath = (item: { id: string; mimeType: string }) =>
  `gallery/files/${item.id}.${extensionOfType(item.mimeType)}`;
const inputPath = (key: string) => `studio/inputs/${key.split("/").slice(2).join("-")}`;

const README = `Your Storyverse data

profile.json                 your account and its credit balance
personas.json                who you play in your stories: each persona's name, description, portrait and voice
stories/*.storyverse.zip     each story's whole backup (every branch, message, card and media file);
                             bring one back with "Restore a backup" in Your Stories on any Storyverse
gallery/files/               every picture and clip of your gallery; gallery/gallery.json describes each
                             (its story, description, favourite mark and boards)
studio/studio.json           your Studio conversation; its pictures are gallery items (by id)
studio/inputs/               the pictures you gave the Studio
credits/history.json         every credit added, spent and refunded; credits/purchases.json your purchases
archive.json                 what this archive holds, and any file that could not be read
`;

/** The job: writes the archive into storage, then marks it completed (or failed, for good on the last try). */
export async function makeAccountExport(
  ctx: LeaveContext,
  payload: { exportId: string },
  attempt: JobAttempt,
) {
  const row = await findAccountExport(ctx.db, payload.exportId);
  if (!row || (row.status !== "queued" && row.status !== "running")) return;
  const key = accountExportKey(row.id);
  const now = ctx.clock.now();
  await updateAccountExport(ctx.db, row.id, {
    status: "running",
    progress: 1,
    step: "Reading your account",
    updatedAt: now,
  });
  try {
    const written = await writeAccountArchive(ctx, row.userId, key, progressReporter(ctx, row.id));
    if (!written) return;
    const { filename, bytes } = written;
    const finished = ctx.clock.now();
    const kept = await updateAccountExport(ctx.db, row.id, {
      status: "completed",
      progress: 100,
      step: null,
      storageKey: key,
      filename,
      bytes,
      expiresAt: new Date(finished.getTime() + KEPT_MS),
      updatedAt: finished,
    });
    // The account was deleted while its archive was made: nothing of it may stay.
    if (!kept) await ctx.storage.delete(key).catch(() => undefined);
  } catch (error) {
    ctx.log.warn({ err: error, exportId: row.id, attempt: attempt.retryCount }, "account archive failed");
    await ctx.storage.delete(key).catch(() => undefined);
    if (!attempt.isLastAttempt) throw error;
    await updateAccountExport(ctx.db, row.id, {
      status: "failed",
      error: ACCOUNT_EXPORT_FAILED_MESSAGE,
      step: null,
      updatedAt: ctx.clock.now(),
    });
  }
}

/**
 * Writes the account's whole archive into storage under `key` (streamed as it is made), reporting its progress;
 * answers its file name and size, or undefined when the account does not exist. On failure nothing is kept
 * under `key` by the store (the caller removes it anyway). The player's export and the admin module's archive of
 * a deleted account (decision 0157) are the same file.
 */
export async function writeAccountArchive(
  ctx: LeaveContext,
  userId: string,
  key: string,
  report: ArchiveProgress,
): Promise<{ filename: string; bytes: number } | undefined> {
  const user = await findUserById(ctx.db, userId);
  if (!user) return undefined;
  const filename = `storyverse-${user.username}-${ctx.clock.now().toISOString().slice(0, 10)}.zip`;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const stored = ctx.storage.putStream(key, output, "application/zip");
  const filled = fillArchive(ctx, zip, user, report).then(
    () => zip.end(),
    (error: unknown) => {
      output.destroy(error as Error);
      throw error;
    },
  );
  const [fill, store] = await Promise.allSettled([filled, stored]);
  if (store.status === "rejected") throw store.reason;
  if (fill.status === "rejected") throw fill.reason;
  return { filename, bytes: await ctx.storage.size(key) };
}

/** Adds every entry in turn; each waits until the archive has taken the one before. */
async function fillArchive(
  ctx: LeaveContext,
  zip: ZipFile,
  user: NonNullable<Awaited<ReturnType<typeof findUserById>>>,
  report: ArchiveProgress,
) {
  const userId = user.id;
  const [storyCount, galleryCount, studioCount, ledgerCount, balance] = await Promise.all([
    accountStoryCount(ctx.db, userId),
    accountGalleryCount(ctx.db, userId),
    accountStudioCount(ctx.db, userId),
    accountLedgerCount(ctx.db, userId),
    accountBalance(ctx.db, userId),
  ]);
  // The work in units: each story's backup counts as ten files, each gallery file as one.
  const total = Math.max(1, storyCount * 10 + galleryCount + 2);
  let done = 0;
  const share = () => 1 + (done / total) * 94;
  const missing: string[] = [];
  const exportedAt = ctx.clock.now();

  const addText = (path: string, text: string) =>
    addStreamedEntry(zip, Readable.from([Buffer.from(text, "utf8")]), path, { compress: true });
  const addFile = async (key: string, path: string) => {
    let file: Awaited<ReturnType<AppContext["storage"]["open"]>>;
    try {
      file = await ctx.storage.open(key);
    } catch (error) {
      ctx.log.warn({ err: error, key }, "account archive: file left out");
      missing.push(path);
      return false;
    }
    await addStreamedEntry(zip, file.stream, path, { size: file.size, compress: false });
    return true;
  };

  await addText("README.txt", README);
  await addText(
    "profile.json",
    `${JSON.stringify(
      {
        format: ACCOUNT_EXPORT_FORMAT,
        version: ACCOUNT_EXPORT_VERSION,
        exported_at: exportedAt.toISOString(),
        profile: {
          username: user.username,
          email: user.email,
          email_verified_at: iso(user.emailVerifiedAt),
          created_at: user.createdAt.toISOString(),
        },
        credits: balance ? { balance: credits(balance.balanceTenths), unlimited: balance.unlimited } : null,
      },
      null,
      2,
    )}\n`,
  );

  // Personas: at most PERSONAS_MAX, so one list (decision 0152).
  await addText(
    "personas.json",
    `${JSON.stringify({ personas: await personasForExport(ctx, userId) }, null, 2)}\n`,
  );

  // Stories: each one's whole backup, one at a time.
  let storyNumber = 0;
  const storyNames: string[] = [];
  for await (const page of pages((after, limit) => accountStoriesPage(ctx.db, userId, after, limit))) {
    for (const story of page) {
      storyNumber += 1;
      await report(share(), `Story ${count(storyNumber)} of ${count(storyCount)}`);
      let backup: Awaited<ReturnType<typeof storyBackup>>;
      try {
        backup = await storyBackup(ctx, userId, story.id);
      } catch (error) {
        // Deleted while the archive was made: it is simply not in it.
        if (error instanceof NotFound) continue;
        throw error;
      }
      const path = `stories/${String(storyNumber).padStart(4, "0")}-${fileStem(story.title)}.storyverse.zip`;
      await addStreamedEntry(zip, backup.stream, path, { compress: false });
      storyNames.push(path);
      done += 10;
    }
  }

  // The gallery: its files, then what each is.
  let galleryNumber = 0;
  for await (const page of pages((after, limit) => accountGalleryPage(ctx.db, userId, after, limit))) {
    for (const item of page) {
      galleryNumber += 1;
      await report(share(), `Gallery: file ${count(galleryNumber)} of ${count(galleryCount)}`);
      await addFile(item.storageKey, galleryPath(item));
      done += 1;
    }
  }
  const missingSet = () => new Set(missing);
  const leftOut = missingSet();
  await addStreamedEntry(
    zip,
    jsonArray(
      pages((after, limit) => accountGalleryPage(ctx.db, userId, after, limit)),
      (item) => ({
        id: item.id,
        path: leftOut.has(galleryPath(item)) ? null : galleryPath(item),
        kind: item.kind,
        mime_type: item.mimeType,
        bytes: item.bytes,
        width: item.width,
        height: item.height,
        source: item.source,
        story_title: item.storyTitle,
        description: item.description,
        favourite: item.favourite,
        boards: item.boards,
        created_at: item.createdAt.toISOString(),
      }),
    ),
    "gallery/gallery.json",
    { compress: true },
  );

  // The Studio: the pictures given to it, then its conversation.
  await report(share(), "Studio");
  for await (const page of pages((after, limit) => accountStudioPage(ctx.db, userId, after, limit))) {
    for (const message of page) {
      for (const key of message.inputKeys) await addFile(key, inputPath(key));
    }
  }
  const studioLeftOut = missingSet();
  await addStreamedEntry(
    zip,
    jsonArray(
      pages((after, limit) => accountStudioPage(ctx.db, userId, after, limit)),
      (message) => ({
        role: message.role,
        content: message.content,
        advisor: message.isAdvisor,
        status: message.status,
        error: message.error,
        batch_size: message.batchSize,
        charged_credits: credits(message.chargedTenths),
        gallery_items: message.mediaIds,
        inputs: message.inputKeys.map(inputPath).filter((path) => !studioLeftOut.has(path)),
        created_at: message.createdAt.toISOString(),
      }),
    ),
    "studio/studio.json",
    { compress: true },
  );
  done += 1;

  // Credits: the whole ledger and the purchases.
  await report(share(), "Credit history");
  await addStreamedEntry(
    zip,
    jsonArray(
      pages((after, limit) => accountLedgerPage(ctx.db, userId, after, limit)),
      (entry) => ({
        kind: entry.transactionType,
        credits: credits(entry.amountTenths),
        quantity: entry.quantity,
        balance_after: credits(entry.balanceAfterTenths),
        reference: entry.reference,
        description: entry.description,
        created_at: entry.createdAt.toISOString(),
      }),
    ),
    "credits/history.json",
    { compress: true },
  );
  const purchases = await paidCheckouts(ctx.db, userId);
  await addText(
    "credits/purchases.json",
    `${JSON.stringify(
      purchases.map((purchase) => ({
        reference: purchase.sessionId,
        provider: purchase.provider,
        amount_cents: purchase.amountCents,
        currency: purchase.currency,
      })),
      null,
      2,
    )}\n`,
  );
  done += 1;

  await report(share(), "Saving the archive");
  await addText(
    "archive.json",
    `${JSON.stringify(
      {
        format: ACCOUNT_EXPORT_FORMAT,
        version: ACCOUNT_EXPORT_VERSION,
        exported_at: exportedAt.toISOString(),
        stories: storyNames,
        gallery_items: galleryCount,
        studio_messages: studioCount,
        ledger_entries: ledgerCount,
        purchases: purchases.length,
        files_left_out: missing,
      },
      null,
      2,
    )}\n`,
  );
}

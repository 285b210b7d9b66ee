// A story restore as a job (issue #39, decision 0123). POST /api/stories/restore keeps the upload in a folder
// of its own under the install's data directory (uploadsDir) and answers a preview (restore.ts checks the whole JSON first); the
// player's confirm queues `story-restore`, whose handler writes the story in batches (writeRestore) and records
// its progress, outcome and every storage key it stores here, in story_restores. A restore that fails removes
// what it wrote; one that was killed is retried once (its first try's leftovers removed first), and the sweep
// removes what no running restore owns: unconfirmed uploads after an hour, restores that stopped moving, and
// upload folders that no row names.
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { ImportNote } from "@storyverse/contract/interop";
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { storyRestores } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { DomainError, NotFound } from "../platform/errors";
import { startPeriodic } from "../platform/periodic";
import { type RestorePreview, undoRestore, writeRestore } from "./restore";

/**
 * Where uploads wait for their restore (one folder each, named by the row that owns it): under the install's
 * DATA_DIR, which its processes share and no other install does, so a sweep never takes another's uploads.
 */
export const uploadsDir = (ctx: { config: { dataDir: string } }) =>
  path.join(ctx.config.dataDir, "restore-uploads");
export const ARCHIVE_FILE = "backup.zip";
/** An upload not confirmed within this long is removed. */
export const PREVIEW_TTL_MS = 60 * 60_000;
/** A queued or running restore that has not moved for this long was stopped (its tries are over): swept. */
export const STALLED_RESTORE_MS = 3 * 60 * 60_000;
/** A folder under RESTORE_UPLOADS_DIR that no live row names is removed once it is this old. */
export const ORPHAN_FOLDER_MS = 60 * 60_000;
/** Finished restores are kept this long for the player's poll, then forgotten. */
const FINISHED_KEPT_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

export const storyRestoreJob: JobSpec<{ restoreId: string }> = {
  name: "story-restore",
  payload: z.object({ restoreId: z.uuid() }),
  // A try killed midway is tried once more, after its leftovers are removed.
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 60 * 60,
};

type RestoreJobContext = Pick<
  AppContext,
  "db" | "storage" | "clock" | "log" | "providers" | "jobs" | "config"
>;
export type RestoreRow = typeof storyRestores.$inferSelect;
const LIVE = ["previewed", "queued", "running"] as const;

/** A folder of its own for one upload. */
export async function newUploadDir(ctx: { config: { dataDir: string } }): Promise<string> {
  await mkdir(uploadsDir(ctx), { recursive: true });
  return mkdtemp(path.join(uploadsDir(ctx), "r-"));
}

export async function insertRestore(
  q: Queryable,
  values: { userId: string; uploadDir: string; uploadBytes: number; preview: RestorePreview; at: Date },
): Promise<RestoreRow> {
  const [row] = await q
    .insert(storyRestores)
    .values({
      ...values,
      status: "previewed",
      preview: values.preview,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return row!;
}

export async function findRestore(q: Queryable, userId: string, restoreId: string): Promise<RestoreRow> {
  const [row] = await q
    .select()
    .from(storyRestores)
    .where(and(eq(storyRestores.userId, userId), eq(storyRestores.id, restoreId)));
  if (!row) throw new NotFound("Restore not found");
  return row;
}

/**
 * A player has at most one upload waiting for its confirm: a new one replaces it (its folder removed), so what
 * one account keeps waiting on disk is bounded (one waiting, one restoring: at most 2 x 500 MB).
 */
export async function discardWaiting(ctx: Pick<AppContext, "db" | "clock">, userId: string): Promise<void> {
  const waiting = await ctx.db
    .update(storyRestores)
    .set({ status: "failed", error: "Replaced by a newer upload.", updatedAt: ctx.clock.now() })
    .where(and(eq(storyRestores.userId, userId), eq(storyRestores.status, "previewed")))
    .returning({ uploadDir: storyRestores.uploadDir });
  for (const row of waiting) await rm(row.uploadDir, { recursive: true, force: true });
}

/** Whether one of the player's restores is queued or running (a second waits for it: one at a time). */
export async function restoreUnderWay(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await q
    .select({ id: storyRestores.id })
    .from(storyRestores)
    .where(and(eq(storyRestores.userId, userId), inArray(storyRestores.status, ["queued", "running"])))
    .limit(1);
  return row !== undefined;
}

/** previewed -> queued, once: true when this call moved it. */
export async function markQueued(
  q: Queryable,
  userId: string,
  restoreId: string,
  at: Date,
): Promise<boolean> {
  const moved = await q
    .update(storyRestores)
    .set({ status: "queued", updatedAt: at })
    .where(
      and(
        eq(storyRestores.userId, userId),
        eq(storyRestores.id, restoreId),
        eq(storyRestores.status, "previewed"),
      ),
    )
    .returning({ id: storyRestores.id });
  return moved.length > 0;
}

const update = (q: Queryable, id: string, values: Partial<RestoreRow>) =>
  q.update(storyRestores).set(values).where(eq(storyRestores.id, id));

/** Ends a restore as failed: what it wrote removed, its upload gone, the reason kept for the player. */
async function failRestore(ctx: RestoreJobContext, row: RestoreRow, error: string): Promise<void> {
  const [now] = await ctx.db.select().from(storyRestores).where(eq(storyRestores.id, row.id));
  await undoRestore(ctx, row.userId, now?.storyId ?? null, now?.storedKeys ?? []);
  await update(ctx.db, row.id, {
    status: "failed",
    error,
    storyId: null,
    storedKeys: [],
    updatedAt: ctx.clock.now(),
  });
  await rm(row.uploadDir, { recursive: true, force: true });
}

/** The job: writes the story in batches; refuses, fails or finishes the restore row. */
export async function runRestore(
  ctx: RestoreJobContext,
  { restoreId }: { restoreId: string },
  _attempt?: JobAttempt,
): Promise<void> {
  const [row] = await ctx.db.select().from(storyRestores).where(eq(storyRestores.id, restoreId));
  if (!row || (row.status !== "queued" && row.status !== "running")) return;
  // A try that was killed left a hidden story and files: they go before this try starts again.
  if (row.storyId || row.storedKeys.length > 0) {
    await undoRestore(ctx, row.userId, row.storyId, row.storedKeys);
    await update(ctx.db, row.id, { storyId: null, storedKeys: [] });
  }
  await update(ctx.db, row.id, { status: "running", progress: 0, updatedAt: ctx.clock.now() });
  try {
    await writeRestore(ctx, {
      userId: row.userId,
      archivePath: path.join(row.uploadDir, ARCHIVE_FILE),
      workDir: row.uploadDir,
      record: async (keys) => {
        await ctx.db
          .update(storyRestores)
          .set({
            storedKeys: sql`${storyRestores.storedKeys} || ${sql.param(keys)}::text[]`,
            updatedAt: ctx.clock.now(),
          })
          .where(eq(storyRestores.id, row.id));
      },
      started: (q, storyId) => update(q, row.id, { storyId, updatedAt: ctx.clock.now() }).then(() => {}),
      progress: (q, percent) =>
        update(q, row.id, { progress: Math.min(99, percent), updatedAt: ctx.clock.now() }).then(() => {}),
      // The files belong to the story now: nothing is left for a sweep to remove.
      finished: (q, storyId, notes: ImportNote[]) =>
        update(q, row.id, {
          status: "completed",
          progress: 100,
          storyId,
          storedKeys: [],
          notes,
          updatedAt: ctx.clock.now(),
        }).then(() => {}),
    });
    await rm(row.uploadDir, { recursive: true, force: true });
  } catch (error) {
    // The archive's fault (a picture that does not decode, past the quota): said to the player, never retried.
    const detail = error instanceof DomainError ? error.detail : "The restore failed. Please try again.";
    if (!(error instanceof DomainError)) ctx.log.error({ err: error, restoreId }, "restore failed");
    await failRestore(ctx, row, detail);
  }
}

/**
 * Removes what no live restore owns: an upload never confirmed (PREVIEW_TTL_MS), a restore that stopped
 * moving (STALLED_RESTORE_MS: its hidden story, the files it recorded, its folder), folders under
 * uploadsDir that no live row names (by their age on disk), and finished rows past a day. Returns what it removed.
 */
export async function sweepRestores(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "log" | "config">,
  options: { stalledMs?: number; previewTtlMs?: number; orphanFolderMs?: number } = {},
): Promise<{ restores: number; folders: number }> {
  const now = ctx.clock.now().getTime();
  const stale = await ctx.db
    .select()
    .from(storyRestores)
    .where(
      or(
        and(
          eq(storyRestores.status, "previewed"),
          lt(storyRestores.updatedAt, new Date(now - (options.previewTtlMs ?? PREVIEW_TTL_MS))),
        ),
        and(
          inArray(storyRestores.status, ["queued", "running"]),
          lt(storyRestores.updatedAt, new Date(now - (options.stalledMs ?? STALLED_RESTORE_MS))),
        ),
      ),
    );
  for (const row of stale) {
    await undoRestore(ctx, row.userId, row.storyId, row.storedKeys);
    await update(ctx.db, row.id, {
      status: "failed",
      error:
        row.status === "previewed"
          ? "This restore was not confirmed within an hour: upload the backup again."
          : "The restore stopped before it finished: nothing of it was kept. Please try again.",
      storyId: null,
      storedKeys: [],
      updatedAt: ctx.clock.now(),
    });
    await rm(row.uploadDir, { recursive: true, force: true });
  }
  await ctx.db
    .delete(storyRestores)
    .where(
      and(
        inArray(storyRestores.status, ["completed", "failed"]),
        lt(storyRestores.updatedAt, new Date(now - FINISHED_KEPT_MS)),
      ),
    );

  // Folders that no live row names: a process killed between the upload and its row, or before its rm.
  const live = new Set(
    (
      await ctx.db
        .select({ dir: storyRestores.uploadDir })
        .from(storyRestores)
        .where(inArray(storyRestores.status, [...LIVE]))
    ).map((row) => path.resolve(row.dir)),
  );
  let folders = 0;
  const names = await readdir(uploadsDir(ctx)).catch(() => [] as string[]);
  for (const name of names) {
    const dir = path.resolve(uploadsDir(ctx), name);
    if (live.has(dir)) continue;
    const info = await stat(dir).catch(() => null);
    // A folder's age is the file system's (the real time), whatever the app's clock says.
    if (!info || Date.now() - info.mtimeMs < (options.orphanFolderMs ?? ORPHAN_FOLDER_MS)) continue;
    await rm(dir, { recursive: true, force: true });
    folders += 1;
  }
  return { restores: stale.length, folders };
}

/** Sweeps now and every SWEEP_EVERY_MS in a worker process; returns the stop. */
export function startRestoreSweep(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "log" | "config">,
): () => Promise<void> {
  return startPeriodic({
    run: async () => {
      const { restores, folders } = await sweepRestores(ctx);
      if (restores + folders > 0) ctx.log.warn({ restores, folders }, "swept what stopped restores left");
    },
    everyMs: SWEEP_EVERY_MS,
    log: ctx.log,
    failure: "restores could not be swept",
  });
}

/** The stored keys a restore has recorded before storing them (a running or failed restore removes its own) (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByRestores: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: storyRestores, user: storyRestores.userId, column: storyRestores.storedKeys, array: true }],
    owners,
    keys,
  );

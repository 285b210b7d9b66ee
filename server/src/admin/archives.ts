// Archives of deleted accounts (issue #44 item 3, decision 0157): when an administrator deletes an account and
// the install keeps archives (DELETED_ACCOUNT_ARCHIVE_DAYS, 30 by default), the account's whole data export (the
// very archive a player downloads, leave/export.ts) is made first and kept for the operator for that
// many days, then removed.
//
// 1. The request (DELETE /api/admin/users/{id}, 202) locks the account out at once (disabled, every session ended
//    on every process: the disable path) and queues the `deleted-account-archive` job with its row, in one
//    transaction. The request does nothing long.
// 2. The job writes the archive under "deleted-account-archives/<id>.zip" (a key no account owns: outside every
//    quota, never swept as an orphan, not removed with the account), records it, then deletes the account as its
//    owner could (closeAccount, decision 0143) and marks the archive kept until its expiry.
// 3. A failure is never half a deletion: the archive is made before anything is deleted. If it cannot be made
//    (every try used) the account stays disabled and not deleted, and the row says `failed` with why; the console
//    retries it or cancels the deletion (the account stays disabled; enabling it is then the Users tab's).
//    Enabling the account cancels a failed deletion too; while one is being made, enabling is refused (409).
//    If the archive was made but the deletion failed, a retry deletes without making it again.
// 4. Each download of an archive is a signed, expiring link, audited (`download_archive`); an archive can be
//    removed early (audited `remove_archive`); a sweep in every worker removes expired ones, file and row, a
//    bounded page at a time.
import {
  ADMIN_PAGE_SIZE,
  type AdminArchive,
  type AdminArchivesResponse,
  type AdminUserDeleting,
  ENABLE_WHILE_DELETING_MESSAGE,
} from "@storyverse/contract/admin";
import { z } from "zod";
import { accountById, changeAccount, endSessionsEverywhere, type UserRow } from "../accounts";
import { type Actor, auditAction } from "../audit";
import type { Config } from "../config";
import type { AppContext } from "../context";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { closeAccount, throttledProgress, writeAccountArchive } from "../leave";
import { Conflict, NotFound } from "../platform/errors";
import { startPeriodic } from "../platform/periodic";
import {
  type ArchiveRow,
  archiveOfUser,
  archivesPage,
  deleteArchive,
  expiredArchives,
  findArchive,
  insertArchive,
  updateArchive,
} from "./archives-repo";
import { decodeCursor, encodeCursor } from "./cursor";
import type { AdminContext } from "./service";

export type ArchivesContext = AdminContext &
  Pick<AppContext, "jobs" | "storage" | "log"> & {
    config: Pick<Config, "mediaQuotaMb" | "deletedAccountArchiveDays">;
  };

export const deletedAccountArchiveJob: JobSpec<{ archiveId: string }> = {
  name: "deleted-account-archive",
  payload: z.object({ archiveId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 2 * 60 * 60,
};

/** Where a deleted account's archive lives: no account's key, so outside every quota and the orphan sweep. */
export const deletedArchiveKey = (archiveId: string) => `deleted-account-archives/${archiveId}.zip`;

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_FOUND = "No archive of a deleted account has this id";
export const ARCHIVE_FAILED_MESSAGE =
  "The account's archive could not be made, so the account was not deleted: it stays disabled. Retry, or cancel the deletion.";
export const CLOSE_FAILED_MESSAGE =
  "The archive was made but the account could not be deleted: it stays disabled. Retry to finish the deletion.";
export const ACCOUNT_GONE_MESSAGE =
  "The account was deleted by its owner before its archive was made: there is nothing to keep.";
/** The audit log's name for the person once the deletion is ordered (it never names them again, 0143). */
const DELETED_ACCOUNT = "a deleted account";

const iso = (date: Date | null) => date?.toISOString() ?? null;

async function toAdminArchive(ctx: Pick<AdminContext, "db">, row: ArchiveRow): Promise<AdminArchive> {
  const admin = row.deletedBy ? await accountById(ctx, row.deletedBy) : undefined;
  const made = row.status === "kept" && row.storageKey !== null;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    step: row.status === "queued" || row.status === "building" ? row.step : null,
    error: row.status === "failed" ? row.error : null,
    email: row.email,
    username: row.username,
    user_id: row.userId,
    deleted_by: admin?.email ?? null,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    deleted_at: iso(row.deletedAt),
    expires_at: iso(row.expiresAt),
    filename: made ? row.filename : null,
    bytes: made ? row.bytes : null,
  };
}

/**
 * The administrator's deletion when archives are kept: the account is locked out at once and the job is queued
 * with its row; answers the archive to follow. Asking again while it is pending answers the same archive;
 * asking again after it failed queues it again (as Retry does).
 */
export async function orderDeletion(
  ctx: ArchivesContext,
  actor: Actor,
  account: UserRow,
  reason: string,
): Promise<AdminUserDeleting> {
  const now = ctx.clock.now();
  // Locked out first: disabled, every session revoked, every process's cache told, every stream closed.
  if (account.disabledAt === null) await changeAccount(ctx, account.id, { disabledAt: now });
  else await endSessionsEverywhere(ctx, account.id);

  let row = await archiveOfUser(ctx.db, account.id);
  if (row && row.status !== "failed") return answer(ctx, row);
  if (row) {
    await queueAgain(ctx, row, { reason, deletedBy: actor.id });
    row = (await findArchive(ctx.db, row.id)) ?? row;
  } else {
    await ctx.jobs.ready(deletedAccountArchiveJob);
    const inserted = await ctx.db.transaction(async (tx) => {
      const made = await insertArchive(tx, {
        userId: account.id,
        email: account.email,
        username: account.username,
        status: "queued",
        progress: 0,
        step: "Waiting for the worker",
        deletedBy: actor.id,
        reason,
        createdAt: now,
        updatedAt: now,
      });
      if (made) await ctx.jobs.send(deletedAccountArchiveJob, { archiveId: made.id }, { tx });
      return made;
    });
    // Another request ordered it a moment before: that one is followed.
    if (!inserted) {
      const existing = await archiveOfUser(ctx.db, account.id);
      if (!existing) throw new NotFound("No account with this id");
      return answer(ctx, existing);
    }
    row = inserted;
  }
  await auditAction(
    ctx,
    actor,
    "delete_user",
    account,
    { archive_id: row.id, archive_kept_days: ctx.config.deletedAccountArchiveDays },
    reason,
  );
  return answer(ctx, row);
}

async function answer(ctx: ArchivesContext, row: ArchiveRow): Promise<AdminUserDeleting> {
  return {
    deleting: true,
    kept_days: ctx.config.deletedAccountArchiveDays,
    archive: await toAdminArchive(ctx, row),
  };
}

async function queueAgain(
  ctx: ArchivesContext,
  row: ArchiveRow,
  change: { reason?: string; deletedBy?: string | null } = {},
): Promise<void> {
  await ctx.jobs.ready(deletedAccountArchiveJob);
  const queued = await ctx.db.transaction(async (tx) => {
    const updated = await updateArchive(
      tx,
      row.id,
      {
        status: "queued",
        error: null,
        step: "Waiting for the worker",
        updatedAt: ctx.clock.now(),
        ...change,
      },
      ["failed"],
    );
    if (updated) await ctx.jobs.send(deletedAccountArchiveJob, { archiveId: row.id }, { tx });
    return updated;
  });
  if (!queued) throw new Conflict("This deletion is not failed: it is being made, or done.");
}

/** The job: makes the archive (unless made already), deletes the account, then keeps the archive. */
export async function archiveAndDelete(
  ctx: ArchivesContext,
  payload: { archiveId: string },
  attempt: JobAttempt,
): Promise<void> {
  const row = await findArchive(ctx.db, payload.archiveId);
  if (!row || (row.status !== "queued" && row.status !== "building")) return;
  const at = () => ctx.clock.now();
  const fail = (error: string) =>
    updateArchive(ctx.db, row.id, { status: "failed", error, step: null, updatedAt: at() });
  const keep = async () => {
    const deletedAt = at();
    await updateArchive(ctx.db, row.id, {
      status: "kept",
      progress: 100,
      step: null,
      error: null,
      deletedAt,
      expiresAt: new Date(deletedAt.getTime() + ctx.config.deletedAccountArchiveDays * DAY_MS),
      updatedAt: deletedAt,
    });
  };
  const userId = row.userId;
  if (!userId) {
    // The account is gone: deleted by this job's earlier try after its archive was made, or by its owner.
    if (row.storageKey) await keep();
    else await fail(ACCOUNT_GONE_MESSAGE);
    return;
  }
  await updateArchive(ctx.db, row.id, {
    status: "building",
    progress: Math.max(1, row.progress),
    step: "Reading the account",
    updatedAt: at(),
  });

  if (!row.storageKey) {
    const key = deletedArchiveKey(row.id);
    try {
      const report = throttledProgress((next) => updateArchive(ctx.db, row.id, { ...next, updatedAt: at() }));
      const written = await writeAccountArchive(ctx, userId, key, report);
      if (!written) {
        await ctx.storage.delete(key).catch(() => undefined);
        await fail(ACCOUNT_GONE_MESSAGE);
        return;
      }
      await updateArchive(ctx.db, row.id, {
        storageKey: key,
        filename: written.filename,
        bytes: written.bytes,
        progress: 96,
        step: "Deleting the account",
        updatedAt: at(),
      });
    } catch (error) {
      ctx.log.warn(
        { err: error, archiveId: row.id, attempt: attempt.retryCount },
        "a deleted account's archive could not be made",
      );
      await ctx.storage.delete(key).catch(() => undefined);
      if (!attempt.isLastAttempt) throw error;
      await fail(ARCHIVE_FAILED_MESSAGE);
      return;
    }
  }

  try {
    const { ledgerRowsKept } = await closeAccount(ctx, userId);
    ctx.log.info(
      { archiveId: row.id, ledgerRowsKept },
      "account deleted by an administrator, its archive kept",
    );
  } catch (error) {
    ctx.log.warn({ err: error, archiveId: row.id }, "an administrator's deletion could not finish");
    if (!attempt.isLastAttempt) throw error;
    await fail(CLOSE_FAILED_MESSAGE);
    return;
  }
  await keep();
}

/** The archives, newest deletion first, a page at a time. */
export async function listArchives(
  ctx: ArchivesContext,
  cursor: string | undefined,
): Promise<AdminArchivesResponse> {
  const rows = await archivesPage(ctx.db, cursor ? decodeCursor(cursor) : undefined, ADMIN_PAGE_SIZE + 1);
  const page = rows.slice(0, ADMIN_PAGE_SIZE);
  return {
    archives: await Promise.all(page.map((row) => toAdminArchive(ctx, row))),
    next_cursor: rows.length > ADMIN_PAGE_SIZE ? encodeCursor(page.at(-1)!) : null,
  };
}

async function archiveOrNotFound(ctx: ArchivesContext, id: string): Promise<ArchiveRow> {
  const row = await findArchive(ctx.db, id);
  if (!row) throw new NotFound(NOT_FOUND);
  return row;
}

export async function archiveStatus(ctx: ArchivesContext, id: string): Promise<{ archive: AdminArchive }> {
  return { archive: await toAdminArchive(ctx, await archiveOrNotFound(ctx, id)) };
}

/** A signed, expiring link to a kept archive; each one handed out is in the audit log. */
export async function downloadArchive(ctx: ArchivesContext, actor: Actor, id: string) {
  const row = await archiveOrNotFound(ctx, id);
  if (row.status !== "kept" || !row.storageKey || !row.filename || row.bytes === null) {
    throw new Conflict("This archive is not ready: the deletion has not finished.");
  }
  const url = await ctx.storage.signedUrl(row.storageKey);
  await auditAction(
    ctx,
    actor,
    "download_archive",
    { id: "", email: DELETED_ACCOUNT },
    {
      archive_id: row.id,
      bytes: row.bytes,
    },
  );
  return { download_url: url, filename: row.filename, bytes: row.bytes };
}

/** Retry a failed deletion: the job runs again (audited). */
export async function retryArchive(ctx: ArchivesContext, actor: Actor, id: string) {
  const row = await archiveOrNotFound(ctx, id);
  if (row.status !== "failed" || !row.userId) {
    throw new Conflict(
      row.userId ? "This deletion is not failed: it is being made, or done." : ACCOUNT_GONE_MESSAGE,
    );
  }
  await queueAgain(ctx, row);
  await auditAction(
    ctx,
    actor,
    "retry_deletion",
    { id: row.userId, email: row.email },
    { archive_id: row.id },
  );
  return archiveStatus(ctx, row.id);
}

/**
 * Removes a kept archive before its time, or cancels a failed deletion (the account stays disabled, not
 * deleted); an archive being made is a 409. Audited.
 */
export async function removeArchive(
  ctx: ArchivesContext,
  actor: Actor,
  id: string,
  reason: string | undefined,
) {
  const row = await archiveOrNotFound(ctx, id);
  if (row.status === "queued" || row.status === "building") {
    throw new Conflict("This archive is being made: wait until the deletion has finished or failed.");
  }
  if (!(await deleteArchive(ctx.db, row.id, ["kept", "failed"]))) {
    throw new Conflict("This archive changed meanwhile: look again.");
  }
  if (row.storageKey) await removeFile(ctx, row.storageKey);
  await auditAction(
    ctx,
    actor,
    row.status === "failed" ? "cancel_deletion" : "remove_archive",
    row.status === "failed" && row.userId
      ? { id: row.userId, email: row.email }
      : { id: "", email: DELETED_ACCOUNT },
    { archive_id: row.id },
    reason,
  );
  return { removed: true as const };
}

/**
 * Before a disabled account is enabled again: a deletion being made refuses it (409, the job would delete the
 * account the administrator just let back in); a failed one is cancelled first, as Cancel deletion does
 * (audited `cancel_deletion`), so a later Retry cannot delete an account the administrator chose to keep.
 */
export async function cancelDeletionToEnable(
  ctx: ArchivesContext,
  actor: Actor,
  userId: string,
  reason: string | undefined,
): Promise<void> {
  const row = await archiveOfUser(ctx.db, userId);
  if (!row || row.status === "kept") return;
  if (row.status === "queued" || row.status === "building") throw new Conflict(ENABLE_WHILE_DELETING_MESSAGE);
  await removeArchive(ctx, actor, row.id, reason);
}

/** Removes the file; false (logged) when the store refused, so the sweep tries again next time. */
async function removeFile(ctx: Pick<ArchivesContext, "storage" | "log">, key: string): Promise<boolean> {
  try {
    await ctx.storage.delete(key);
    return true;
  } catch (error) {
    ctx.log.warn({ err: error, key }, "a deleted account's archive file could not be removed");
    return false;
  }
}

/** Archives one sweep removes at most; the next run goes on with the rest. */
const SWEEP_BATCH = 100;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** One run of the sweep: kept archives past their time lose their file, then their row; answers how many. */
export async function sweepDeletedAccountArchives(
  ctx: Pick<ArchivesContext, "db" | "clock" | "storage" | "log">,
): Promise<number> {
  const rows = await expiredArchives(ctx.db, ctx.clock.now(), SWEEP_BATCH);
  for (const row of rows) {
    // The row goes only with its file: a file the store would not remove is tried again by the next run.
    if (row.storageKey && !(await removeFile(ctx, row.storageKey))) continue;
    await deleteArchive(ctx.db, row.id, ["kept"]);
  }
  return rows.length;
}

/** Sweeps now and every 10 minutes in a worker process; returns the stop. */
export function startDeletedAccountArchiveSweep(
  ctx: Pick<ArchivesContext, "db" | "clock" | "storage" | "log">,
): () => Promise<void> {
  return startPeriodic({
    run: async () => {
      const removed = await sweepDeletedAccountArchives(ctx);
      if (removed > 0) ctx.log.info({ archives: removed }, "removed expired archives of deleted accounts");
    },
    everyMs: SWEEP_EVERY_MS,
    log: ctx.log,
    failure: "archives of deleted accounts could not be swept",
  });
}

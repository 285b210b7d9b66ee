// SQL for the archives of deleted accounts (decision 0157): the admin module's deleted_account_archives table.
import { and, asc, desc, eq, lt, lte, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { deletedAccountArchives } from "../db/schema";

export type ArchiveRow = typeof deletedAccountArchives.$inferSelect;
type ArchiveChange = Partial<
  Pick<
    ArchiveRow,
    | "status"
    | "progress"
    | "step"
    | "error"
    | "storageKey"
    | "filename"
    | "bytes"
    | "deletedAt"
    | "expiresAt"
    | "reason"
    | "deletedBy"
  >
> & { updatedAt: Date };

/** The new row, or undefined when the account already has one (its pending or failed deletion). */
export async function insertArchive(
  q: Queryable,
  values: typeof deletedAccountArchives.$inferInsert,
): Promise<ArchiveRow | undefined> {
  const [row] = await q
    .insert(deletedAccountArchives)
    .values(values)
    .onConflictDoNothing({ target: deletedAccountArchives.userId })
    .returning();
  return row;
}

export async function findArchive(q: Queryable, id: string): Promise<ArchiveRow | undefined> {
  const [row] = await q.select().from(deletedAccountArchives).where(eq(deletedAccountArchives.id, id));
  return row;
}

/** The live account's pending or failed deletion, if any. */
export async function archiveOfUser(q: Queryable, userId: string): Promise<ArchiveRow | undefined> {
  const [row] = await q
    .select()
    .from(deletedAccountArchives)
    .where(eq(deletedAccountArchives.userId, userId));
  return row;
}

/** Updates the row, only while its status is one of `from` when given; false when nothing was updated. */
export async function updateArchive(
  q: Queryable,
  id: string,
  values: ArchiveChange,
  from?: ArchiveRow["status"][],
): Promise<boolean> {
  const updated = await q
    .update(deletedAccountArchives)
    .set(values)
    .where(
      and(
        eq(deletedAccountArchives.id, id),
        from ? or(...from.map((status) => eq(deletedAccountArchives.status, status))) : undefined,
      ),
    )
    .returning({ id: deletedAccountArchives.id });
  return updated.length > 0;
}

/** Newest first, `limit` rows after the cursor (created_at, id). */
export function archivesPage(
  q: Queryable,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
): Promise<ArchiveRow[]> {
  return q
    .select()
    .from(deletedAccountArchives)
    .where(
      after
        ? or(
            lt(deletedAccountArchives.createdAt, after.createdAt),
            and(
              eq(deletedAccountArchives.createdAt, after.createdAt),
              lt(deletedAccountArchives.id, after.id),
            ),
          )
        : undefined,
    )
    .orderBy(desc(deletedAccountArchives.createdAt), desc(deletedAccountArchives.id))
    .limit(limit);
}

/** Kept archives whose time is up, the longest expired first. */
export function expiredArchives(q: Queryable, now: Date, limit: number): Promise<ArchiveRow[]> {
  return q
    .select()
    .from(deletedAccountArchives)
    .where(and(eq(deletedAccountArchives.status, "kept"), lte(deletedAccountArchives.expiresAt, now)))
    .orderBy(asc(deletedAccountArchives.expiresAt))
    .limit(limit);
}

/** Deletes the row unless its status changed from one of `from`; false when nothing was deleted. */
export async function deleteArchive(
  q: Queryable,
  id: string,
  from: ArchiveRow["status"][],
): Promise<boolean> {
  const deleted = await q
    .delete(deletedAccountArchives)
    .where(
      and(
        eq(deletedAccountArchives.id, id),
        or(...from.map((status) => eq(deletedAccountArchives.status, status))),
      ),
    )
    .returning({ id: deletedAccountArchives.id });
  return deleted.length > 0;
}

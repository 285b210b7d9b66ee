// SQL for exports made by a job.
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { storyExports } from "../db/schema";
import { keysNamedIn, type StoredKeyReferrer } from "../db/stored-keys";

export type ExportRow = typeof storyExports.$inferSelect;

export async function insertExport(
  q: Queryable,
  values: typeof storyExports.$inferInsert,
): Promise<ExportRow> {
  const [row] = await q.insert(storyExports).values(values).returning();
  return row!;
}

export async function findExport(q: Queryable, id: string): Promise<ExportRow | undefined> {
  const [row] = await q.select().from(storyExports).where(eq(storyExports.id, id));
  return row;
}

export async function updateExport(
  q: Queryable,
  id: string,
  values: Partial<
    Pick<ExportRow, "status" | "progress" | "step" | "error" | "storageKey" | "filename" | "contentHash">
  > & {
    updatedAt: Date;
  },
): Promise<void> {
  await q.update(storyExports).set(values).where(eq(storyExports.id, id));
}

/** Like updateExport; false when the row is gone (its story was deleted meanwhile). */
export async function updateExportIfPresent(
  q: Queryable,
  id: string,
  values: Parameters<typeof updateExport>[2],
): Promise<boolean> {
  const updated = await q
    .update(storyExports)
    .set(values)
    .where(eq(storyExports.id, id))
    .returning({ id: storyExports.id });
  return updated.length > 0;
}

/** Deletes every export row of the story; the storage keys of their files. */
export async function deleteExportsOfStory(q: Queryable, storyId: string): Promise<string[]> {
  const rows = await q
    .delete(storyExports)
    .where(eq(storyExports.storyId, storyId))
    .returning({ storageKey: storyExports.storageKey });
  return rows.flatMap((row) => (row.storageKey ? [row.storageKey] : []));
}

/** The story's exports, the most recently made or served again first. */
export async function exportsOfStory(q: Queryable, storyId: string): Promise<ExportRow[]> {
  return q
    .select()
    .from(storyExports)
    .where(eq(storyExports.storyId, storyId))
    .orderBy(desc(storyExports.updatedAt), desc(storyExports.createdAt));
}

/**
 * The story's newest export made from this content hash that is finished or still being made (decision 0131):
 * what an identical request is answered with.
 */
export async function exportWithHash(
  q: Queryable,
  userId: string,
  storyId: string,
  contentHash: string,
): Promise<ExportRow | undefined> {
  const [row] = await q
    .select()
    .from(storyExports)
    .where(
      and(
        eq(storyExports.storyId, storyId),
        eq(storyExports.userId, userId),
        eq(storyExports.contentHash, contentHash),
        inArray(storyExports.status, ["queued", "running", "completed"]),
      ),
    )
    .orderBy(desc(storyExports.createdAt))
    .limit(1);
  return row;
}

export async function deleteExports(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length > 0) await q.delete(storyExports).where(inArray(storyExports.id, ids));
}

/** Exports of a story that stopped reporting (their worker died) count as failed. */
export async function failStaleExports(
  q: Queryable,
  storyId: string,
  staleBefore: Date,
  error: string,
  at: Date,
) {
  await q
    .update(storyExports)
    .set({ status: "failed", error, updatedAt: at })
    .where(
      and(
        eq(storyExports.storyId, storyId),
        inArray(storyExports.status, ["queued", "running"]),
        lt(storyExports.updatedAt, staleBefore),
      ),
    );
}

/** The stored keys an export still names: its file (the orphaned media sweep asks before it removes an object). */
export const storageKeysNamedByExports: StoredKeyReferrer = (db, owners, keys) =>
  keysNamedIn(
    db,
    [{ table: storyExports, user: storyExports.userId, column: storyExports.storageKey }],
    owners,
    keys,
  );

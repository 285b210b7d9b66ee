// SQL for clip jobs (media_clip_jobs, decision 0160): a clip being made from a picture or extended.
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { mediaClipJobs } from "../db/schema";

export type ClipJobRow = typeof mediaClipJobs.$inferSelect;
export type NewClipJob = typeof mediaClipJobs.$inferInsert;

export async function insertClipJob(q: Queryable, values: NewClipJob): Promise<ClipJobRow> {
  const [row] = await q.insert(mediaClipJobs).values(values).returning();
  return row!;
}

export async function findClipJob(q: Queryable, id: string): Promise<ClipJobRow | undefined> {
  const [row] = await q.select().from(mediaClipJobs).where(eq(mediaClipJobs.id, id));
  return row;
}

/**
 * Ends a clip job only while it is still pending; false when it had ended already (another try, the deadline),
 * so a job has one outcome and one settlement.
 */
export async function endClipJobIfPending(
  q: Queryable,
  id: string,
  patch:
    | { status: "completed"; itemId: string; endedAt: Date }
    | { status: "failed"; detail: string; endedAt: Date },
): Promise<boolean> {
  const rows = await q
    .update(mediaClipJobs)
    .set(patch)
    .where(and(eq(mediaClipJobs.id, id), eq(mediaClipJobs.status, "pending")))
    .returning({ id: mediaClipJobs.id });
  return rows.length > 0;
}

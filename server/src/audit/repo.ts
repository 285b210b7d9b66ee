// The audit log's rows (admin_audit): written by the admin console's actions, read a page at a time, and made
// anonymous when an account is deleted.
import { desc, eq, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { adminAudit } from "../db/schema";

export async function insertAudit(q: Queryable, row: Omit<typeof adminAudit.$inferInsert, "id">) {
  await q.insert(adminAudit).values(row);
}

/** Newest first, `limit` rows with ids below `before`. */
export async function auditPage(q: Queryable, before: number | undefined, limit: number) {
  return q
    .select()
    .from(adminAudit)
    .where(before === undefined ? sql`true` : lt(adminAudit.id, before))
    .orderBy(desc(adminAudit.id))
    .limit(limit);
}

/** The audit log's rows naming `userId` (as target or actor) keep what was done but no longer say who. */
export async function anonymiseAudit(q: Queryable, userId: string, label: string): Promise<void> {
  await q.update(adminAudit).set({ targetId: null, target: label }).where(eq(adminAudit.targetId, userId));
  await q.update(adminAudit).set({ actorId: null, actor: label }).where(eq(adminAudit.actorId, userId));
}

// SQL for the admin module's own tables: the install's spending caps (one row) and the audit log.
import { desc, eq, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { adminAudit, usageCaps } from "../db/schema";

export type CapsRow = Pick<
  typeof usageCaps.$inferSelect,
  "dailyDefaultTenths" | "monthlyDefaultTenths" | "installDailyTenths"
>;

const NO_CAPS: CapsRow = { dailyDefaultTenths: null, monthlyDefaultTenths: null, installDailyTenths: null };

export async function readCapsRow(q: Queryable): Promise<CapsRow> {
  const [row] = await q
    .select({
      dailyDefaultTenths: usageCaps.dailyDefaultTenths,
      monthlyDefaultTenths: usageCaps.monthlyDefaultTenths,
      installDailyTenths: usageCaps.installDailyTenths,
    })
    .from(usageCaps);
  return row ?? NO_CAPS;
}

export async function writeCapsRow(q: Queryable, caps: CapsRow, at: Date): Promise<void> {
  await q
    .insert(usageCaps)
    .values({ id: true, ...caps, updatedAt: at })
    .onConflictDoUpdate({ target: usageCaps.id, set: { ...caps, updatedAt: at } });
}

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

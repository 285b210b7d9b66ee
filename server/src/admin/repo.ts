// SQL for the admin module's own table: the install's spending caps (one row). The audit log is audit/repo.ts.
import type { Queryable } from "../db/client";
import { usageCaps } from "../db/schema";

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

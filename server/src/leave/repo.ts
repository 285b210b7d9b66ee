// SQL for leaving with your data (decision 0143): the account archive's rows, and the account's own row.
import { and, asc, desc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { accountExports } from "../db/schema";

export type AccountExportRow = typeof accountExports.$inferSelect;

export async function insertAccountExport(
  q: Queryable,
  values: typeof accountExports.$inferInsert,
): Promise<AccountExportRow> {
  const [row] = await q.insert(accountExports).values(values).returning();
  return row!;
}

export async function findAccountExport(q: Queryable, id: string): Promise<AccountExportRow | undefined> {
  const [row] = await q.select().from(accountExports).where(eq(accountExports.id, id));
  return row;
}

/** The user's archives, newest first (a user keeps very few: a new one removes the finished ones). */
export function accountExportsOf(q: Queryable, userId: string): Promise<AccountExportRow[]> {
  return q
    .select()
    .from(accountExports)
    .where(eq(accountExports.userId, userId))
    .orderBy(desc(accountExports.createdAt));
}

/** Updates the row; false when it is gone (the account was deleted meanwhile). */
export async function updateAccountExport(
  q: Queryable,
  id: string,
  values: Partial<
    Pick<
      AccountExportRow,
      "status" | "progress" | "step" | "error" | "storageKey" | "filename" | "bytes" | "expiresAt"
    >
  > & { updatedAt: Date },
): Promise<boolean> {
  const updated = await q
    .update(accountExports)
    .set(values)
    .where(eq(accountExports.id, id))
    .returning({ id: accountExports.id });
  return updated.length > 0;
}

export async function deleteAccountExports(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.delete(accountExports).where(inArray(accountExports.id, ids));
}

/** Finished archives whose time is up and whose file is still kept, the longest expired first. */
export function expiredAccountExports(q: Queryable, now: Date, limit: number): Promise<AccountExportRow[]> {
  return q
    .select()
    .from(accountExports)
    .where(
      and(
        eq(accountExports.status, "completed"),
        isNotNull(accountExports.storageKey),
        lte(accountExports.expiresAt, now),
      ),
    )
    .orderBy(asc(accountExports.expiresAt))
    .limit(limit);
}

/** The storage keys of the user's archive files. */
export async function accountExportKeys(q: Queryable, userId: string): Promise<string[]> {
  const rows = await q
    .select({ key: accountExports.storageKey })
    .from(accountExports)
    .where(and(eq(accountExports.userId, userId), isNotNull(accountExports.storageKey)));
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

// SQL for newsletter signups.
import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { newsletterSignups } from "../db/schema";

/** Inserts the address unless it is already there (case-insensitively); true when it is new. */
export async function insertSignup(db: Queryable, email: string): Promise<boolean> {
  const existing = await db
    .select({ id: newsletterSignups.id })
    .from(newsletterSignups)
    .where(sql`lower(${newsletterSignups.email}) = lower(${email})`)
    .limit(1);
  if (existing.length > 0) return false;
  const inserted = await db
    .insert(newsletterSignups)
    .values({ email })
    .onConflictDoNothing()
    .returning({ id: newsletterSignups.id });
  return inserted.length > 0;
}

export async function countSignups(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(newsletterSignups);
  return row?.n ?? 0;
}

// What the account archive (leave/export.ts, decision 0143) needs of the Studio: its conversation a
// page at a time, oldest first, from a keyset cursor on (created_at, id).
import { and, asc, count, eq, gt, or } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { studioMessages } from "../db/schema";

export type AccountStudioMessage = typeof studioMessages.$inferSelect;

/** One page of the user's Studio messages (prompts, advisor answers, batches), oldest first, after `after`. */
export async function accountStudioPage(
  q: Queryable,
  userId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<AccountStudioMessage[]> {
  const from = after
    ? or(
        gt(studioMessages.createdAt, after.createdAt),
        and(eq(studioMessages.createdAt, after.createdAt), gt(studioMessages.id, after.id)),
      )
    : undefined;
  return q
    .select()
    .from(studioMessages)
    .where(and(eq(studioMessages.userId, userId), from))
    .orderBy(asc(studioMessages.createdAt), asc(studioMessages.id))
    .limit(limit);
}

/** How many Studio messages the account has. */
export async function accountStudioCount(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(studioMessages).where(eq(studioMessages.userId, userId));
  return row?.n ?? 0;
}

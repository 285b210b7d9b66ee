// What deleting an account (leave/delete.ts, decision 0143) needs of the payments module: the account's
// paid checkout sessions, whose amounts the closed account's ledger keeps for accounting beside each purchase.
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { paymentSessions } from "../db/schema";

/** The account's paid checkouts: the session id (the ledger row's reference), provider, amount and currency. */
export async function paidCheckouts(q: Queryable, userId: string) {
  const rows = await q
    .select({
      sessionId: paymentSessions.id,
      provider: paymentSessions.provider,
      amountCents: paymentSessions.amountCents,
      currency: paymentSessions.currency,
    })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.userId, userId), eq(paymentSessions.status, "paid")));
  return rows;
}

// What leaving with your data (accounts/leave-*.ts, decision 0143) needs of the credits module: the ledger a
// page at a time for the account archive, and, when the account is deleted, its ledger kept for accounting in
// closed_account_ledger: each row's money facts (kind, amount, quantity, balance after, reference, time) with
// the account replaced by a random id, and nothing a person wrote (descriptions hold prompts and titles).
import { and, asc, count, eq, gt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { closedAccountLedger, creditAccounts, creditTransactions } from "../db/schema";

export type AccountLedgerRow = typeof creditTransactions.$inferSelect;

/** One page of the user's ledger, oldest first, after `after`. */
export async function accountLedgerPage(
  q: Queryable,
  userId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<AccountLedgerRow[]> {
  const from = after
    ? or(
        gt(creditTransactions.createdAt, after.createdAt),
        and(eq(creditTransactions.createdAt, after.createdAt), gt(creditTransactions.id, after.id)),
      )
    : undefined;
  return q
    .select()
    .from(creditTransactions)
    .where(and(eq(creditTransactions.userId, userId), from))
    .orderBy(asc(creditTransactions.createdAt), asc(creditTransactions.id))
    .limit(limit);
}

/** How many ledger rows the account has. */
export async function accountLedgerCount(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId));
  return row?.n ?? 0;
}

/** The account's balance in tenths and whether it is unlimited (none: no credit account). */
export async function accountBalance(q: Queryable, userId: string) {
  const [row] = await q
    .select({ balanceTenths: creditAccounts.balanceTenths, unlimited: creditAccounts.unlimited })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, userId));
  return row ?? null;
}

/** A purchase's payment, as the payments module knows it (by its session id, the ledger row's reference). */
export type ClosedPayment = { sessionId: string; provider: string; amountCents: number; currency: string };

/**
 * In the deleting transaction, before the user's row goes: copies the ledger's money facts under
 * `formerAccount` (one statement, however long the ledger) and adds each purchase's payment to its row.
 */
export async function closeLedger(
  q: Queryable,
  userId: string,
  formerAccount: string,
  closedAt: Date,
  payments: ClosedPayment[],
): Promise<void> {
  await q
    .insert(closedAccountLedger)
    .select(
      q
        .select({
          id: creditTransactions.id,
          formerAccount: sql<string>`${formerAccount}::uuid`.as("former_account"),
          closedAt: sql<Date>`${closedAt.toISOString()}::timestamptz`.as("closed_at"),
          transactionType: creditTransactions.transactionType,
          amountTenths: creditTransactions.amountTenths,
          quantity: creditTransactions.quantity,
          balanceAfterTenths: creditTransactions.balanceAfterTenths,
          reference: creditTransactions.reference,
          paymentProvider: sql<string | null>`null::text`.as("payment_provider"),
          paymentAmountCents: sql<number | null>`null::integer`.as("payment_amount_cents"),
          paymentCurrency: sql<string | null>`null::text`.as("payment_currency"),
          createdAt: creditTransactions.createdAt,
        })
        .from(creditTransactions)
        .where(eq(creditTransactions.userId, userId)),
    )
    // Two deletions racing: the second finds the rows kept already (and then no user row to delete).
    .onConflictDoNothing();
  for (const payment of payments) {
    await q
      .update(closedAccountLedger)
      .set({
        paymentProvider: payment.provider,
        paymentAmountCents: payment.amountCents,
        paymentCurrency: payment.currency,
      })
      .where(
        and(
          eq(closedAccountLedger.formerAccount, formerAccount),
          eq(closedAccountLedger.reference, payment.sessionId),
        ),
      );
  }
}

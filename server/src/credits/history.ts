// Reads of the credit ledger: the paginated history (GET /api/credit-history), the lifetime totals behind
// /api/subscription-details, and the balances list of `npm run admin -- list-balances`. Writes stay in
// service.ts; nothing here changes a balance.
import {
  type CreditHistoryQuery,
  type CreditHistoryResponse,
  TRANSACTION_TYPES,
} from "@storyverse/contract/billing";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { creditAccounts, creditTransactions } from "../db/schema";
import { InvalidInput } from "../platform/errors";
import { fromTenths } from "./service";

/** Newest first, paged by (created_at, id) so rows stamped in the same millisecond are neither lost nor repeated. */
export async function creditHistory(
  q: Queryable,
  userId: string,
  query: CreditHistoryQuery,
): Promise<CreditHistoryResponse> {
  const conditions = [eq(creditTransactions.userId, userId)];
  if (query.before) {
    const [cursor] = await q
      .select({ createdAt: creditTransactions.createdAt, id: creditTransactions.id })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, userId), eq(creditTransactions.id, query.before)));
    if (!cursor) throw new InvalidInput("before must be the id of one of your transactions");
    conditions.push(
      or(
        lt(creditTransactions.createdAt, cursor.createdAt),
        and(eq(creditTransactions.createdAt, cursor.createdAt), lt(creditTransactions.id, cursor.id)),
      )!,
    );
  }
  // One row more than asked tells whether another page exists.
  const rows = await q
    .select()
    .from(creditTransactions)
    .where(and(...conditions))
    .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
    .limit(query.limit + 1);
  return {
    success: true,
    has_more: rows.length > query.limit,
    transactions: rows.slice(0, query.limit).map((row) => ({
      id: row.id,
      transaction_type: row.transactionType,
      credits_amount: fromTenths(row.amountTenths),
      description: row.description,
      created_at: row.createdAt.toISOString(),
      balance_after: fromTenths(row.balanceAfterTenths),
    })),
  };
}

export type LedgerTotals = {
  /** Every credit ever added except refunds (which only give back what was spent). */
  lifetimeTenths: number;
  lastPurchaseAt: Date | null;
};

export async function ledgerTotals(q: Queryable, userId: string): Promise<LedgerTotals> {
  const [row] = await q
    .select({
      lifetime: sql<number>`coalesce(sum(${creditTransactions.amountTenths}) filter (where ${creditTransactions.amountTenths} > 0 and ${creditTransactions.transactionType} <> ${TRANSACTION_TYPES.refund}), 0)::int`,
      lastPurchase: sql<
        string | Date | null
      >`max(${creditTransactions.createdAt}) filter (where ${creditTransactions.transactionType} = ${TRANSACTION_TYPES.purchase})`,
    })
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId));
  const last = row?.lastPurchase;
  return {
    lifetimeTenths: Number(row?.lifetime ?? 0),
    // Raw aggregates come back as text on node-postgres and as Date on PGlite.
    lastPurchaseAt: last == null ? null : new Date(last),
  };
}

export type BalanceRow = { userId: string; balanceTenths: number; unlimited: boolean };

/** Every credit account's balance (for operators; the accounts module knows whose it is). */
export async function listBalances(q: Queryable): Promise<BalanceRow[]> {
  return q
    .select({
      userId: creditAccounts.userId,
      balanceTenths: creditAccounts.balanceTenths,
      unlimited: creditAccounts.unlimited,
    })
    .from(creditAccounts);
}

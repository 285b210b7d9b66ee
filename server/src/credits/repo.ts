// SQL for credit balances and the ledger. Balance changes are single conditional UPDATEs, so two
// requests can never both spend the same tenth.
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { creditAccounts, creditTransactions, unsettledCharges } from "../db/schema";
import { defineReadCache } from "../platform/read-cache";

export type AccountRow = typeof creditAccounts.$inferSelect;

/**
 * A user's account as the balance reads show it, kept per process (decision 0117). Every change to
 * `credit_accounts` is one of the writes below, and each invalidates the user's entry after its statement.
 */
const accountCache = defineReadCache<AccountRow | undefined>("credits.account", ["credit_accounts"]);

export async function insertAccount(
  q: Queryable,
  userId: string,
  balanceTenths: number,
  at: Date,
): Promise<void> {
  await q.insert(creditAccounts).values({ userId, balanceTenths, updatedAt: at });
  accountCache.invalidate(q, userId);
}

export type LedgerRow = {
  userId: string;
  transactionType: string;
  amountTenths: number;
  quantity?: number;
  balanceAfterTenths: number;
  reference?: string | null;
  description?: string;
  createdAt: Date;
};

export async function insertTransaction(q: Queryable, row: LedgerRow): Promise<void> {
  await q.insert(creditTransactions).values(row);
}

/** Inserts unless the reference was already used; false when it was (exactly-once grants and refunds). */
export async function insertTransactionOnce(
  q: Queryable,
  row: LedgerRow & { reference: string },
): Promise<boolean> {
  const inserted = await q
    .insert(creditTransactions)
    .values(row)
    .onConflictDoNothing({ target: creditTransactions.reference })
    .returning({ id: creditTransactions.id });
  return inserted.length === 1;
}

const findAccountStatement = preparedPerHandle((q) =>
  q
    .select()
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, sql.placeholder("userId")))
    .prepare("find_credit_account"),
);

/** The account as it is in the database now (what a charge's pre-check decides from). */
export async function findAccount(q: Queryable, userId: string): Promise<AccountRow | undefined> {
  const [row] = await findAccountStatement(q).execute({ userId });
  return row;
}

/** The account for display (the balance calls): kept until a write below changes it. */
export function findAccountForDisplay(q: Queryable, userId: string): Promise<AccountRow | undefined> {
  return accountCache.read(q, userId, userId, () => findAccount(q, userId));
}

/**
 * Takes `tenths` if the balance covers it (unlimited accounts are not charged).
 * Returns the account after the change, or undefined when the balance was too low.
 */
export async function debitIfCovered(q: Queryable, userId: string, tenths: number, at: Date) {
  const [row] = await q
    .update(creditAccounts)
    .set({
      balanceTenths: sql`case when ${creditAccounts.unlimited} then ${creditAccounts.balanceTenths} else ${creditAccounts.balanceTenths} - ${tenths} end`,
      updatedAt: at,
    })
    .where(
      and(
        eq(creditAccounts.userId, userId),
        sql`(${creditAccounts.unlimited} or ${creditAccounts.balanceTenths} >= ${tenths})`,
      ),
    )
    .returning({ balanceTenths: creditAccounts.balanceTenths, unlimited: creditAccounts.unlimited });
  accountCache.invalidate(q, userId);
  return row;
}

export async function credit(q: Queryable, userId: string, tenths: number, at: Date) {
  const [row] = await q
    .update(creditAccounts)
    .set({ balanceTenths: sql`${creditAccounts.balanceTenths} + ${tenths}`, updatedAt: at })
    .where(eq(creditAccounts.userId, userId))
    .returning({ balanceTenths: creditAccounts.balanceTenths, unlimited: creditAccounts.unlimited });
  accountCache.invalidate(q, userId);
  return row;
}

export async function setUnlimited(
  q: Queryable,
  userId: string,
  unlimited: boolean,
  at: Date,
): Promise<boolean> {
  const updated = await q
    .update(creditAccounts)
    .set({ unlimited, updatedAt: at })
    .where(eq(creditAccounts.userId, userId))
    .returning({ userId: creditAccounts.userId });
  accountCache.invalidate(q, userId);
  return updated.length === 1;
}

export async function ledgerSum(q: Queryable, userId: string): Promise<number> {
  const [row] = await q
    .select({ total: sql<number>`coalesce(sum(${creditTransactions.amountTenths}), 0)::int` })
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId));
  return row?.total ?? 0;
}

export type UnsettledCharge = typeof unsettledCharges.$inferSelect;

export async function insertUnsettled(
  q: Queryable,
  row: typeof unsettledCharges.$inferInsert,
): Promise<void> {
  await q.insert(unsettledCharges).values(row);
}

/**
 * Marks the charge for `paidFor` delivered, leaving only `owedTenths` to give back (the row goes when
 * nothing is owed). False when the row is gone: the sweep already refunded it, so nothing may be delivered.
 */
export async function settleUnsettled(q: Queryable, paidFor: string, owedTenths: number): Promise<boolean> {
  const where = eq(unsettledCharges.paidFor, paidFor);
  const rows =
    owedTenths > 0
      ? await q
          .update(unsettledCharges)
          .set({ refundTenths: owedTenths, delivered: true })
          .where(where)
          .returning({ paidFor: unsettledCharges.paidFor })
      : await q.delete(unsettledCharges).where(where).returning({ paidFor: unsettledCharges.paidFor });
  return rows.length === 1;
}

export async function findUnsettled(q: Queryable, paidFor: string): Promise<UnsettledCharge | undefined> {
  const [row] = await q.select().from(unsettledCharges).where(eq(unsettledCharges.paidFor, paidFor));
  return row;
}

/** Takes the row for `paidFor` out (its outcome is now in the ledger); the row taken, if it was there. */
export async function takeUnsettled(q: Queryable, paidFor: string): Promise<UnsettledCharge | undefined> {
  const [row] = await q.delete(unsettledCharges).where(eq(unsettledCharges.paidFor, paidFor)).returning();
  return row;
}

/** Charges older than `before` that were never settled, oldest first. */
export async function staleUnsettled(q: Queryable, before: Date, limit: number): Promise<UnsettledCharge[]> {
  return q
    .select()
    .from(unsettledCharges)
    .where(lt(unsettledCharges.createdAt, before))
    .orderBy(asc(unsettledCharges.createdAt))
    .limit(limit);
}

export async function referenceUsed(q: Queryable, reference: string): Promise<boolean> {
  const rows = await q
    .select({ id: creditTransactions.id })
    .from(creditTransactions)
    .where(eq(creditTransactions.reference, reference))
    .limit(1);
  return rows.length === 1;
}

/** Takes exactly `tenths` if the balance holds them, unlimited or not (an administrator's take-back). */
export async function debitExactly(q: Queryable, userId: string, tenths: number, at: Date) {
  const [row] = await q
    .update(creditAccounts)
    .set({ balanceTenths: sql`${creditAccounts.balanceTenths} - ${tenths}`, updatedAt: at })
    .where(and(eq(creditAccounts.userId, userId), sql`${creditAccounts.balanceTenths} >= ${tenths}`))
    .returning({ balanceTenths: creditAccounts.balanceTenths, unlimited: creditAccounts.unlimited });
  accountCache.invalidate(q, userId);
  return row;
}

/**
 * Tenths spent in [from, to): charges (usage_<kind>) less refunds, by one user or (userId undefined) by
 * everyone. Reads the ledger's (user, time) index, or its time index for the whole install.
 */
export async function sumSpent(q: Queryable, userId: string | undefined, from: Date, to: Date) {
  const conditions = [gte(creditTransactions.createdAt, from), lt(creditTransactions.createdAt, to)];
  if (userId) conditions.push(eq(creditTransactions.userId, userId));
  const [row] = await q
    .select({
      spent: sql<number>`coalesce(sum(case when ${creditTransactions.transactionType} like 'usage_%' or ${creditTransactions.transactionType} = 'refund' then -${creditTransactions.amountTenths} else 0 end), 0)::int`,
    })
    .from(creditTransactions)
    .where(and(...conditions));
  return Math.max(0, Number(row?.spent ?? 0));
}

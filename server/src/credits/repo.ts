// SQL for credit balances and the ledger.
import { eq } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { creditAccounts, creditTransactions } from "../db/schema";

export async function insertAccount(
  q: Queryable,
  userId: string,
  balanceTenths: number,
  at: Date,
): Promise<void> {
  await q.insert(creditAccounts).values({ userId, balanceTenths, updatedAt: at });
}

export async function insertTransaction(
  q: Queryable,
  row: {
    userId: string;
    transactionType: string;
    amountTenths: number;
    balanceAfterTenths: number;
    reference?: string;
    description?: string;
    createdAt: Date;
  },
): Promise<void> {
  await q.insert(creditTransactions).values(row);
}

export async function findAccount(q: Queryable, userId: string) {
  const [row] = await q.select().from(creditAccounts).where(eq(creditAccounts.userId, userId));
  return row;
}

// SQL for checkout sessions and billing customers. Status changes are conditional UPDATEs, so two deliveries
// of the same news (webhook and verify, or two clicks on Pay) cannot both move a session forward.
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { billingCustomers, paymentSessions } from "../db/schema";

export type PaymentSessionRow = typeof paymentSessions.$inferSelect;
export type NewPaymentSession = typeof paymentSessions.$inferInsert;
export type BillingCustomerRow = typeof billingCustomers.$inferSelect;
type Provider = PaymentSessionRow["provider"];

export async function insertPaymentSession(q: Queryable, row: NewPaymentSession): Promise<PaymentSessionRow> {
  const [inserted] = await q.insert(paymentSessions).values(row).returning();
  return inserted!;
}

export async function findPaymentSession(q: Queryable, id: string): Promise<PaymentSessionRow | undefined> {
  const [row] = await q.select().from(paymentSessions).where(eq(paymentSessions.id, id));
  return row;
}

/** The session only if it is this user's: another user's id reads as unknown. */
export async function findUserPaymentSession(
  q: Queryable,
  userId: string,
  id: string,
): Promise<PaymentSessionRow | undefined> {
  const [row] = await q
    .select()
    .from(paymentSessions)
    .where(and(eq(paymentSessions.id, id), eq(paymentSessions.userId, userId)));
  return row;
}

/** Marks a session paid (idempotent); keeps the first completion time and any customer already known. */
export async function markSessionPaid(
  q: Queryable,
  id: string,
  at: Date,
  customerId: string | null,
): Promise<void> {
  await q
    .update(paymentSessions)
    .set({
      status: "paid",
      completedAt: sql`coalesce(${paymentSessions.completedAt}, ${at})`,
      customerId: sql`coalesce(${paymentSessions.customerId}, ${customerId})`,
    })
    .where(eq(paymentSessions.id, id));
}

/** open -> cancelled or expired; a paid session never goes back. */
export async function closeOpenSession(
  q: Queryable,
  id: string,
  status: "cancelled" | "expired",
  at: Date,
): Promise<boolean> {
  const updated = await q
    .update(paymentSessions)
    .set({ status, completedAt: at })
    .where(and(eq(paymentSessions.id, id), eq(paymentSessions.status, "open")))
    .returning({ id: paymentSessions.id });
  return updated.length === 1;
}

export async function listUserPaymentSessions(
  q: Queryable,
  userId: string,
  provider: Provider,
  limit: number,
): Promise<PaymentSessionRow[]> {
  return q
    .select()
    .from(paymentSessions)
    .where(and(eq(paymentSessions.userId, userId), eq(paymentSessions.provider, provider)))
    .orderBy(desc(paymentSessions.createdAt))
    .limit(limit);
}

/** The newest paid session of this provider that names a customer (to recover a missed customer record). */
export async function latestPaidSession(
  q: Queryable,
  userId: string,
  provider: Provider,
): Promise<PaymentSessionRow | undefined> {
  const [row] = await q
    .select()
    .from(paymentSessions)
    .where(
      and(
        eq(paymentSessions.userId, userId),
        eq(paymentSessions.provider, provider),
        eq(paymentSessions.status, "paid"),
      ),
    )
    .orderBy(desc(paymentSessions.completedAt))
    .limit(1);
  return row;
}

export async function findBillingCustomer(
  q: Queryable,
  userId: string,
  provider: Provider,
): Promise<BillingCustomerRow | undefined> {
  const [row] = await q
    .select()
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)));
  return row;
}

/**
 * Records the user's customer. The first one of a provider stays (later checkouts reuse it); a customer of
 * another provider (a sandbox customer on an install that moved to Stripe) is replaced.
 */
export async function saveBillingCustomer(q: Queryable, row: BillingCustomerRow): Promise<void> {
  await q
    .insert(billingCustomers)
    .values(row)
    .onConflictDoUpdate({
      target: billingCustomers.userId,
      set: { provider: row.provider, customerId: row.customerId, createdAt: row.createdAt },
      setWhere: ne(billingCustomers.provider, row.provider),
    });
}

// The install's usage report for the admin console (decision 0150): credits spent, net of refunds, and things
// paid for, grouped in SQL by day, by account or for the whole range, and by category of usage kind (text,
// pictures, clips, speech, films). A refund counts on its own day, under the kind of the charge it gives back
// (`refund:<id>` names `charge:<id>`), as the caps count spending (decision 0140). Never reads a row into
// JavaScript one by one: each query answers at most days x categories or accounts x categories rows. The totals by
// day and for the range also count the ledger rows deleted accounts left (decision 0150).
import { USAGE_CATEGORIES, type UsageCategory } from "@storyverse/contract/admin";
import { TRANSACTION_TYPES, USAGE_TRANSACTION_PREFIX } from "@storyverse/contract/billing";
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, alias } from "drizzle-orm/pg-core";
import type { Queryable } from "../db/client";
import { closedAccountLedger, creditTransactions } from "../db/schema";
import { fromTenths } from "./service";

export type UsageBucket = "day" | "user" | "all";

export interface UsageCell {
  bucket: string;
  category: UsageCategory;
  credits: number;
  uses: number;
}

// Written into the statement's text, not bound: the grouped expressions must read the same in SELECT and
// GROUP BY (the statement groups by position too).
const PREFIX = sql.raw(`'${USAGE_TRANSACTION_PREFIX}'`);
const PREFIX_LENGTH = sql.raw(String(USAGE_TRANSACTION_PREFIX.length));
const AFTER_PREFIX = sql.raw(String(USAGE_TRANSACTION_PREFIX.length + 1));

/**
 * A ledger the report reads: the live accounts' transactions, or the rows a deleted account left behind
 * (`closed_account_ledger`, decision 0143), which keep the same money facts without the account.
 */
type Ledger = {
  transactionType: AnyPgColumn;
  amountTenths: AnyPgColumn;
  quantity: AnyPgColumn;
  reference: AnyPgColumn;
  createdAt: AnyPgColumn;
  /** The account a row is of: the live account, or the deleted one's former id. */
  account: AnyPgColumn;
};

/** The report's SQL over one ledger (and its own rows again, to find a refund's charge). */
function reportOver(t: Ledger, charges: Ledger) {
  /** The usage kind a row spends on: its own for a charge, its charge's for a refund. */
  const usageKind = sql`case when left(${t.transactionType}, ${PREFIX_LENGTH}) = ${PREFIX}
    then substr(${t.transactionType}, ${AFTER_PREFIX})
    else substr(${charges.transactionType}, ${AFTER_PREFIX}) end`;
  /** Which chart a usage kind belongs to; the CSV and the charts use these names. */
  const category = sql<UsageCategory>`case
    when ${usageKind} in ('chat', 'advisor') then 'text'
    when ${usageKind} like 'image%' or ${usageKind} = 'studio_image' then 'pictures'
    when ${usageKind} = 'video' then 'clips'
    when ${usageKind} in ('speech', 'transcription') then 'speech'
    when ${usageKind} = 'film' then 'films'
    else 'other' end`;
  const isUsage = sql`left(${t.transactionType}, ${PREFIX_LENGTH}) = ${PREFIX}`;
  const isSpending = sql`(${isUsage} or ${t.transactionType} = ${TRANSACTION_TYPES.refund})`;
  return {
    category,
    netTenths: sql<number>`coalesce(sum(-${t.amountTenths}), 0)::int`,
    uses: sql<number>`coalesce(sum(${t.quantity}) filter (where ${isUsage}), 0)::int`,
    day: sql<string>`to_char(${t.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
    account: sql<string>`${t.account}::text`,
    spendingIn(from: Date, to: Date) {
      return and(gte(t.createdAt, from), lt(t.createdAt, to), isSpending)!;
    },
    /** The charge a refund gives back (same account, `refund:<id>` for `charge:<id>`). */
    chargeOfRefund: and(
      eq(t.transactionType, TRANSACTION_TYPES.refund),
      eq(charges.account, t.account),
      sql`${charges.reference} = 'charge:' || substr(${t.reference}, 8)`,
    )!,
  };
}

function pick(table: Omit<Ledger, "account">): Omit<Ledger, "account"> {
  const { transactionType, amountTenths, quantity, reference, createdAt } = table;
  return { transactionType, amountTenths, quantity, reference, createdAt };
}

const live = creditTransactions;
const liveCharges = alias(creditTransactions, "charges");
const closed = closedAccountLedger;
const closedCharges = alias(closedAccountLedger, "closed_charges");
const liveReport = reportOver(
  { ...pick(live), account: live.userId },
  { ...pick(liveCharges), account: liveCharges.userId },
);
const closedReport = reportOver(
  { ...pick(closed), account: closed.formerAccount },
  { ...pick(closedCharges), account: closedCharges.formerAccount },
);

function bucketOf(bucket: UsageBucket, report: typeof liveReport): SQL<string> {
  if (bucket === "day") return report.day;
  if (bucket === "user") return report.account;
  return sql<string>`'all'`;
}

function liveSpendingIn(from: Date, to: Date, userId: string | undefined, users?: string[]) {
  const conditions = [liveReport.spendingIn(from, to)];
  if (userId) conditions.push(eq(live.userId, userId));
  if (users) conditions.push(inArray(live.userId, users));
  return and(...conditions);
}

/** The accounts that spent most in [from, to), at most `limit`, most first. */
async function topSpenders(q: Queryable, from: Date, to: Date, limit: number): Promise<string[]> {
  const rows = await q
    .select({ userId: live.userId, net: liveReport.netTenths, uses: liveReport.uses })
    .from(live)
    .where(liveSpendingIn(from, to, undefined))
    .groupBy(live.userId)
    .orderBy(desc(liveReport.netTenths), desc(liveReport.uses), live.userId)
    .limit(limit);
  return rows.map((row) => row.userId);
}

type Row = { bucket: unknown; category: string; net: unknown; uses: unknown };

/**
 * Credits (net of refunds) and uses in [from, to), grouped by `bucket` and category, grouped in SQL.
 * For `user`, only the `maxUsers` accounts that spent most. The install's totals (by day and overall) also count
 * what deleted accounts spent while they existed; a report by account or of one account covers live accounts.
 */
export async function usageCells(
  q: Queryable,
  options: { from: Date; to: Date; bucket: UsageBucket; userId?: string | undefined; maxUsers: number },
): Promise<UsageCell[]> {
  const { from, to, bucket, userId } = options;
  const users = bucket === "user" && !userId ? await topSpenders(q, from, to, options.maxUsers) : undefined;
  if (users && users.length === 0) return [];
  const liveRows: Row[] = await q
    .select({
      bucket: bucketOf(bucket, liveReport),
      category: liveReport.category,
      net: liveReport.netTenths,
      uses: liveReport.uses,
    })
    .from(live)
    .leftJoin(liveCharges, liveReport.chargeOfRefund)
    .where(liveSpendingIn(from, to, userId, users))
    .groupBy(sql.raw("1"), sql.raw("2"));
  const closedRows: Row[] =
    bucket === "user" || userId
      ? []
      : await q
          .select({
            bucket: bucketOf(bucket, closedReport),
            category: closedReport.category,
            net: closedReport.netTenths,
            uses: closedReport.uses,
          })
          .from(closed)
          .leftJoin(closedCharges, closedReport.chargeOfRefund)
          .where(closedReport.spendingIn(from, to))
          .groupBy(sql.raw("1"), sql.raw("2"));
  const cells = new Map<string, UsageCell>();
  for (const row of [...liveRows, ...closedRows]) {
    const category = (USAGE_CATEGORIES as readonly string[]).includes(row.category)
      ? (row.category as UsageCategory)
      : "other";
    const key = `${String(row.bucket)}\u0000${category}`;
    const cell = cells.get(key) ?? { bucket: String(row.bucket), category, credits: 0, uses: 0 };
    cell.credits = fromTenths(Math.round(cell.credits * 10) + Number(row.net));
    cell.uses += Number(row.uses);
    cells.set(key, cell);
  }
  return [...cells.values()].filter((cell) => cell.credits !== 0 || cell.uses !== 0);
}

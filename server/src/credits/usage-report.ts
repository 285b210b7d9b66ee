// The install's usage report for the admin console (decision 0150): credits spent, net of refunds, and things
// paid for, grouped in SQL by day, by account or for the whole range, and by category of usage kind (text,
// pictures, clips, speech, films). A refund counts on its own day, under the kind of the charge it gives back
// (`refund:<id>` names `charge:<id>`), as the caps count spending (decision 0140). Never reads a row into
// JavaScript one by one: each query answers at most days x categories or accounts x categories rows.
import { USAGE_CATEGORIES, type UsageCategory } from "@storyverse/contract/admin";
import { TRANSACTION_TYPES, USAGE_TRANSACTION_PREFIX } from "@storyverse/contract/billing";
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "../db/client";
import { creditTransactions } from "../db/schema";
import { fromTenths } from "./service";

export type UsageBucket = "day" | "user" | "all";

export interface UsageCell {
  bucket: string;
  category: UsageCategory;
  credits: number;
  uses: number;
}

const t = creditTransactions;
const charges = alias(creditTransactions, "charges");
// Written into the statement's text, not bound: the grouped expressions must read the same in SELECT and
// GROUP BY (the statement groups by position too).
const PREFIX = sql.raw(`'${USAGE_TRANSACTION_PREFIX}'`);
const PREFIX_LENGTH = sql.raw(String(USAGE_TRANSACTION_PREFIX.length));
const AFTER_PREFIX = sql.raw(String(USAGE_TRANSACTION_PREFIX.length + 1));

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
const netTenths = sql<number>`coalesce(sum(-${t.amountTenths}), 0)::int`;
const uses = sql<number>`coalesce(sum(${t.quantity}) filter (where ${isUsage}), 0)::int`;

function bucketOf(bucket: UsageBucket): SQL<string> {
  if (bucket === "day") return sql<string>`to_char(${t.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  if (bucket === "user") return sql<string>`${t.userId}::text`;
  return sql<string>`'all'`;
}

function spendingIn(from: Date, to: Date, userId: string | undefined, users?: string[]) {
  const conditions = [gte(t.createdAt, from), lt(t.createdAt, to), isSpending];
  if (userId) conditions.push(eq(t.userId, userId));
  if (users) conditions.push(inArray(t.userId, users));
  return and(...conditions);
}

/** The charge a refund gives back (same account, `refund:<id>` for `charge:<id>`). */
const chargeOfRefund = and(
  eq(t.transactionType, TRANSACTION_TYPES.refund),
  eq(charges.userId, t.userId),
  sql`${charges.reference} = 'charge:' || substr(${t.reference}, 8)`,
);

/** The accounts that spent most in [from, to), at most `limit`, most first. */
async function topSpenders(q: Queryable, from: Date, to: Date, limit: number): Promise<string[]> {
  const rows = await q
    .select({ userId: t.userId, net: netTenths, uses })
    .from(t)
    .where(spendingIn(from, to, undefined))
    .groupBy(t.userId)
    .orderBy(desc(netTenths), desc(uses), t.userId)
    .limit(limit);
  return rows.map((row) => row.userId);
}

/**
 * Credits (net of refunds) and uses in [from, to), grouped by `bucket` and category, grouped in SQL.
 * For `user`, only the `maxUsers` accounts that spent most.
 */
export async function usageCells(
  q: Queryable,
  options: { from: Date; to: Date; bucket: UsageBucket; userId?: string | undefined; maxUsers: number },
): Promise<UsageCell[]> {
  const { from, to, bucket, userId } = options;
  const users = bucket === "user" && !userId ? await topSpenders(q, from, to, options.maxUsers) : undefined;
  if (users && users.length === 0) return [];
  const key = bucketOf(bucket);
  const rows = await q
    .select({ bucket: key, category, net: netTenths, uses })
    .from(t)
    .leftJoin(charges, chargeOfRefund)
    .where(spendingIn(from, to, userId, users))
    .groupBy(sql.raw("1"), sql.raw("2"));
  return rows
    .map((row) => ({
      bucket: String(row.bucket),
      category: (USAGE_CATEGORIES as readonly string[]).includes(row.category) ? row.category : "other",
      credits: fromTenths(Number(row.net)),
      uses: Number(row.uses),
    }))
    .filter((cell) => cell.credits !== 0 || cell.uses !== 0);
}

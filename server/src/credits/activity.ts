// "Activity This Month" (GET /api/monthly-activity): what a user did in the current calendar month, in UTC.
// Counts come from records that outlive their sources: the append-only ledger (a deleted story keeps its
// charges) and the gallery (media survive their story); stories_created counts stories that still exist.
//  - chat_interactions: usage_* ledger rows except transcription, i.e. every charged AI request (a main or
//    story chat turn in any mode, an advisor message, a Studio batch). Unlimited users log 0-credit rows,
//    so they are counted too.
//  - images_generated / videos_generated: gallery items of that kind (a video turn's scene image is one).
//  - total_credits_used: credits charged minus credits refunded, never below 0, decimals kept.
import {
  type MonthlyActivity,
  TRANSACTION_TYPES,
  USAGE_TRANSACTION_PREFIX,
} from "@storyverse/contract/billing";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { creditTransactions } from "../db/schema";
import { mediaMadeBetween } from "../media/service";
import { storiesCreatedBetween } from "../stories/service";
import { fromTenths } from "./service";

/** The calendar month (UTC) that contains `at`: [start, end). */
export function utcMonth(at: Date): { start: Date; end: Date; label: string } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
    label: `${year}-${String(month + 1).padStart(2, "0")}`,
  };
}

export async function monthlyActivity(db: Db, userId: string, now: Date): Promise<MonthlyActivity> {
  const { start, end, label } = utcMonth(now);
  const type = creditTransactions.transactionType;
  const isUsage = sql`left(${type}, ${USAGE_TRANSACTION_PREFIX.length}) = ${USAGE_TRANSACTION_PREFIX}`;

  const [ledger] = await db
    .select({
      interactions: sql<number>`count(*) filter (where ${isUsage} and ${type} <> ${`${USAGE_TRANSACTION_PREFIX}transcription`})::int`,
      chargedTenths: sql<number>`coalesce(sum(-${creditTransactions.amountTenths}) filter (where ${isUsage}), 0)::int`,
      refundedTenths: sql<number>`coalesce(sum(${creditTransactions.amountTenths}) filter (where ${type} = ${TRANSACTION_TYPES.refund}), 0)::int`,
    })
    .from(creditTransactions)
    .where(
      and(
        eq(creditTransactions.userId, userId),
        gte(creditTransactions.createdAt, start),
        lt(creditTransactions.createdAt, end),
      ),
    );

  // The gallery and the stories are other modules' tables: ask their services.
  const media = await mediaMadeBetween({ db }, userId, start, end);
  const storiesCreated = await storiesCreatedBetween({ db }, userId, start, end);

  const usedTenths = Math.max(0, Number(ledger?.chargedTenths ?? 0) - Number(ledger?.refundedTenths ?? 0));
  return {
    chat_interactions: Number(ledger?.interactions ?? 0),
    images_generated: media.images,
    videos_generated: media.videos,
    stories_created: storiesCreated,
    total_credits_used: fromTenths(usedTenths),
    month: label,
  };
}

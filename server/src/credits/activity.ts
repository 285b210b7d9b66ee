// "Activity This Month" (GET /api/monthly-activity): what a user did in the current calendar month, in UTC,
// counted from the append-only ledger by kind, so the tiles agree with the Credit History below them (a
// deleted story keeps its charges). A charge made through payFor carries `charge:<id>` and its refund
// `refund:<id>`; what a refund gave back is taken out of the counts:
//  - chat_interactions: narrator turns (usage_chat, usage_image, usage_video: a turn in any mode of a story or
//    Free play) and Studio advisor messages (usage_advisor). Studio image batches are not chats. A turn
//    refunded whole (nothing delivered) is not counted.
//  - images_generated: images paid for and delivered: an image-mode turn's picture, each image of a Studio
//    batch (usage_studio_image). A video turn's scene image is part of its video, not counted here.
//  - videos_generated: video-mode turns whose video was delivered.
//  - total_credits_used: credits charged minus credits refunded, never below 0, decimals kept.
//  - stories_created: stories made this month that still exist (asked of the stories service).
// Unlimited users are charged 0 and so never refunded: their requests count as made.
import {
  type MonthlyActivity,
  STUDIO_IMAGE_USAGE,
  TRANSACTION_TYPES,
  USAGE_TRANSACTION_PREFIX,
} from "@storyverse/contract/billing";
import { creditCost } from "@storyverse/contract/credits";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "../db/client";
import { creditTransactions } from "../db/schema";
import { fromTenths, toTenths } from "./service";

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

/** One charge of the month with what its refund (if any) gave back. */
export interface ChargeRow {
  usage: string;
  quantity: number;
  chargedTenths: number;
  refundedTenths: number;
}

type Counts = Pick<MonthlyActivity, "chat_interactions" | "images_generated" | "videos_generated">;

const NARRATOR_TURNS = new Set(["chat", "image", "video"]);

/** What one charge adds to the tiles, net of its refund. */
export function countCharge(row: ChargeRow): Counts {
  const { usage, quantity, chargedTenths, refundedTenths } = row;
  const none = { chat_interactions: 0, images_generated: 0, videos_generated: 0 };
  // Refunded whole: nothing was delivered.
  if (chargedTenths > 0 && refundedTenths >= chargedTenths) return none;
  // Each media unit not delivered is refunded at least part of its price (a turn keeps the text's 0.5).
  const priceKind = usage === STUDIO_IMAGE_USAGE ? "image" : usage;
  const unitTenths = toTenths(creditCost(priceKind, 1));
  const undelivered =
    chargedTenths > 0 && refundedTenths > 0 ? Math.min(quantity, Math.ceil(refundedTenths / unitTenths)) : 0;
  const delivered = Math.max(0, quantity - undelivered);
  return {
    chat_interactions: NARRATOR_TURNS.has(usage) || usage === "advisor" ? 1 : 0,
    images_generated: usage === "image" || usage === STUDIO_IMAGE_USAGE ? delivered : 0,
    videos_generated: usage === "video" ? delivered : 0,
  };
}

/** How many stories the player created in [start, end): the stories module's count, handed in by the root. */
export type StoriesCreated = (db: Queryable, userId: string, start: Date, end: Date) => Promise<number>;

export async function monthlyActivity(
  db: Queryable,
  userId: string,
  now: Date,
  storiesCreatedBetween: StoriesCreated,
): Promise<MonthlyActivity> {
  const { start, end, label } = utcMonth(now);
  const type = creditTransactions.transactionType;
  const inMonth = and(
    eq(creditTransactions.userId, userId),
    gte(creditTransactions.createdAt, start),
    lt(creditTransactions.createdAt, end),
  );
  const isUsage = sql`left(${type}, ${USAGE_TRANSACTION_PREFIX.length}) = ${USAGE_TRANSACTION_PREFIX}`;

  // Each usage row of the month with the refund of the same id (whenever it came).
  const refunds = alias(creditTransactions, "refunds");
  const charges = await db
    .select({
      type,
      quantity: creditTransactions.quantity,
      amountTenths: creditTransactions.amountTenths,
      refundedTenths: sql<number>`coalesce(${refunds.amountTenths}, 0)::int`,
    })
    .from(creditTransactions)
    .leftJoin(
      refunds,
      and(
        eq(refunds.userId, creditTransactions.userId),
        eq(refunds.transactionType, TRANSACTION_TYPES.refund),
        sql`${refunds.reference} = 'refund:' || substr(${creditTransactions.reference}, 8)`,
      ),
    )
    .where(and(inMonth, isUsage, sql`${type} <> ${`${USAGE_TRANSACTION_PREFIX}transcription`}`));

  const [money] = await db
    .select({
      chargedTenths: sql<number>`coalesce(sum(-${creditTransactions.amountTenths}) filter (where ${isUsage}), 0)::int`,
      refundedTenths: sql<number>`coalesce(sum(${creditTransactions.amountTenths}) filter (where ${type} = ${TRANSACTION_TYPES.refund}), 0)::int`,
    })
    .from(creditTransactions)
    .where(inMonth);

  const counts: Counts = { chat_interactions: 0, images_generated: 0, videos_generated: 0 };
  for (const row of charges) {
    const add = countCharge({
      usage: row.type.slice(USAGE_TRANSACTION_PREFIX.length),
      quantity: Number(row.quantity),
      chargedTenths: -Number(row.amountTenths),
      refundedTenths: Number(row.refundedTenths),
    });
    counts.chat_interactions += add.chat_interactions;
    counts.images_generated += add.images_generated;
    counts.videos_generated += add.videos_generated;
  }

  // The stories are another module's table: its count is handed in (app.ts composes it).
  const storiesCreated = await storiesCreatedBetween(db, userId, start, end);
  const usedTenths = Math.max(0, Number(money?.chargedTenths ?? 0) - Number(money?.refundedTenths ?? 0));
  return {
    ...counts,
    stories_created: storiesCreated,
    total_credits_used: fromTenths(usedTenths),
    month: label,
  };
}

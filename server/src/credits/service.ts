// Credits: balances in tenths with an append-only ledger. This module owns every change to a balance:
// each change writes the balance and one ledger row in the same transaction, and the balance never goes
// below zero (a conditional update, plus a CHECK constraint as the last line of defence).
import { NEW_ACCOUNT_CREDITS } from "@storyverse/contract/accounts";
import { creditCost, type QuotaInfo, UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import type { CreditsEvent } from "@storyverse/contract/events";
import type { Db, Queryable } from "../db/client";
import { recordEvent } from "../events/service";
import { HttpError } from "../http/errors";
import {
  credit,
  debitIfCovered,
  findAccount,
  insertAccount,
  insertTransaction,
  insertTransactionOnce,
} from "./repo";

export const toTenths = (credits: number) => Math.round(credits * 10);
export const fromTenths = (tenths: number) => tenths / 10;

export class InsufficientCredits extends HttpError {
  constructor(quotaInfo: QuotaInfo) {
    super(
      402,
      `Insufficient credits: this costs ${quotaInfo.cost} and you have ${quotaInfo.remaining}. Top up to continue creating.`,
      { quota_exceeded: true, quota_info: quotaInfo },
    );
  }
}

/** Opens a new user's account with the free signup credits; call inside the registration transaction. */
export async function openAccountWithSignupBonus(q: Queryable, userId: string, at: Date): Promise<void> {
  const tenths = toTenths(NEW_ACCOUNT_CREDITS);
  await insertAccount(q, userId, tenths, at);
  await insertTransaction(q, {
    userId,
    transactionType: "signup_bonus",
    amountTenths: tenths,
    balanceAfterTenths: tenths,
    description: `${NEW_ACCOUNT_CREDITS} free credits for joining`,
    createdAt: at,
  });
}

/** Remaining credits as the API reports them: a number with decimals kept, or -1 for unlimited. */
export async function remainingCredits(q: Queryable, userId: string): Promise<number> {
  const account = await findAccount(q, userId);
  if (!account) return 0;
  return account.unlimited ? UNLIMITED_CREDITS : fromTenths(account.balanceTenths);
}

/** The balance as the event stream reports it. */
export async function balanceOf(q: Queryable, userId: string): Promise<CreditsEvent> {
  const account = await findAccount(q, userId);
  return {
    remaining: account?.unlimited ? UNLIMITED_CREDITS : fromTenths(account?.balanceTenths ?? 0),
    unlimited: account?.unlimited ?? false,
  };
}

export type Charge = { userId: string; chargedTenths: number; quotaInfo: QuotaInfo };

/**
 * Takes the price of `quantity` of `kind` before any provider is called. Throws InsufficientCredits (402)
 * when the balance does not cover it. Unlimited users are not charged, but their usage is still logged.
 */
export async function charge(
  db: Db,
  userId: string,
  kind: string,
  quantity: number,
  at: Date,
  description: string,
): Promise<Charge> {
  const cost = creditCost(kind, quantity);
  const tenths = toTenths(cost);
  return db.transaction(async (tx) => {
    const after = await debitIfCovered(tx, userId, tenths, at);
    if (!after) {
      const account = await findAccount(tx, userId);
      throw new InsufficientCredits({
        remaining: account ? fromTenths(account.balanceTenths) : 0,
        unlimited: false,
        cost,
        charged: 0,
      });
    }
    const chargedTenths = after.unlimited ? 0 : tenths;
    await insertTransaction(tx, {
      userId,
      transactionType: `usage_${kind}`,
      amountTenths: -chargedTenths,
      balanceAfterTenths: after.balanceTenths,
      description,
      createdAt: at,
    });
    // The user's open tabs hear of the new balance when this commits.
    if (chargedTenths > 0) await recordEvent(tx, { userId, kind: "credits", at });
    return {
      userId,
      chargedTenths,
      quotaInfo: {
        remaining: after.unlimited ? UNLIMITED_CREDITS : fromTenths(after.balanceTenths),
        unlimited: after.unlimited,
        cost,
        charged: fromTenths(chargedTenths),
      },
    };
  });
}

class AlreadyRecorded extends Error {}

/**
 * Adds `tenths` and its ledger row once per `reference`; false when the reference was already used.
 * The balance is raised first so the ledger row carries the true balance after it; a duplicate reference
 * rolls the whole transaction back.
 */
async function addOnce(
  db: Db,
  row: {
    userId: string;
    tenths: number;
    transactionType: string;
    reference: string;
    at: Date;
    description: string;
  },
): Promise<boolean> {
  if (row.tenths <= 0) return false;
  try {
    return await db.transaction(async (tx) => {
      const after = await credit(tx, row.userId, row.tenths, row.at);
      if (!after) return false;
      const recorded = await insertTransactionOnce(tx, {
        userId: row.userId,
        transactionType: row.transactionType,
        amountTenths: row.tenths,
        balanceAfterTenths: after.balanceTenths,
        reference: row.reference,
        description: row.description,
        createdAt: row.at,
      });
      if (!recorded) throw new AlreadyRecorded();
      await recordEvent(tx, { userId: row.userId, kind: "credits", at: row.at });
      return true;
    });
  } catch (error) {
    if (error instanceof AlreadyRecorded) return false;
    throw error;
  }
}

/** Gives back part of a charge, once per reference (a retried job cannot refund twice). */
export function refund(
  db: Db,
  userId: string,
  tenths: number,
  reference: string,
  at: Date,
  description: string,
) {
  return addOnce(db, { userId, tenths, transactionType: "refund", reference, at, description });
}

/** Adds purchased or granted credits once per reference (a payment session id). */
export function grant(
  db: Db,
  userId: string,
  tenths: number,
  transactionType: string,
  reference: string,
  at: Date,
  description: string,
) {
  return addOnce(db, { userId, tenths, transactionType, reference, at, description });
}

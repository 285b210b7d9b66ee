// Credits: balances in tenths with an append-only ledger. This module owns every change to a balance:
// each change writes the balance and one ledger row in the same transaction, and the balance never goes
// below zero (a conditional update, plus a CHECK constraint as the last line of defence).
import { NEW_ACCOUNT_CREDITS } from "@storyverse/contract/accounts";
import { creditCost, type QuotaInfo, UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import type { CreditsEvent } from "@storyverse/contract/events";
import type { Queryable } from "../db/client";
import { recordEvent } from "../events";
import { DomainError, Unavailable } from "../platform/errors";
import { metrics } from "../platform/metrics";
import {
  credit,
  debitExactly,
  debitIfCovered,
  findAccount,
  findAccountForDisplay,
  findUnsettled,
  insertAccount,
  insertTransaction,
  insertTransactionOnce,
  insertUnsettled,
  referenceUsed,
  settleUnsettled,
  setUnlimited,
  staleUnsettled,
  sumSpent,
  takeUnsettled,
} from "./repo";

export const toTenths = (credits: number) => Math.round(credits * 10);
export const fromTenths = (tenths: number) => tenths / 10;

export class InsufficientCredits extends DomainError {
  constructor(quotaInfo: QuotaInfo) {
    super(
      "insufficient_credits",
      `Insufficient credits: this costs ${quotaInfo.cost} and you have ${quotaInfo.remaining}. Top up to continue creating.`,
      { extra: { quota_exceeded: true, quota_info: quotaInfo } },
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
  const account = await findAccountForDisplay(q, userId);
  if (!account) return 0;
  return account.unlimited ? UNLIMITED_CREDITS : fromTenths(account.balanceTenths);
}

/** The balance as the event stream reports it. */
export async function balanceOf(q: Queryable, userId: string): Promise<CreditsEvent> {
  const account = await findAccountForDisplay(q, userId);
  return {
    remaining: account?.unlimited ? UNLIMITED_CREDITS : fromTenths(account?.balanceTenths ?? 0),
    unlimited: account?.unlimited ?? false,
  };
}

export type Charge = { userId: string; chargedTenths: number; quotaInfo: QuotaInfo };

/** The charge for this work was refunded by the sweep before the work could be delivered. */
export class ChargeLapsed extends Unavailable {
  constructor() {
    super("This took too long and was cancelled. Your credits were returned; please try again.");
  }
}

/**
 * Takes the price of `quantity` of `kind` before any provider is called. Throws InsufficientCredits (402)
 * when the balance does not cover it. Unlimited users are not charged, but their usage is still logged.
 */
export async function charge(
  db: Queryable,
  userId: string,
  kind: string,
  quantity: number,
  at: Date,
  description: string,
  /** The id of what is paid for: the charge stays "unsettled" under it until delivered or refunded. */
  paidFor?: string,
  /** The ledger's usage kind when it differs from the price kind (a Studio batch is priced as image). */
  usage?: string,
): Promise<Charge> {
  const cost = creditCost(kind, quantity);
  const tenths = toTenths(cost);
  const paid = await db.transaction(async (tx) => {
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
      transactionType: `usage_${usage ?? kind}`,
      amountTenths: -chargedTenths,
      quantity,
      // Pairs with its refund, `refund:<id>`, so activity can tell what a refund gave back.
      reference: paidFor ? chargeReference(paidFor) : null,
      balanceAfterTenths: after.balanceTenths,
      description,
      createdAt: at,
    });
    if (chargedTenths > 0 && paidFor) {
      await insertUnsettled(tx, { paidFor, userId, refundTenths: chargedTenths, description, createdAt: at });
    }
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
  metrics.charged(kind, fromTenths(paid.chargedTenths));
  return paid;
}

/** The ledger reference of the charge for `id` (its refund is `refund:<id>`). */
export const chargeReference = (id: string) => `charge:${id}`;

class AlreadyRecorded extends Error {}

/**
 * Adds `tenths` and its ledger row once per `reference`; false when the reference was already used.
 * The balance is raised first so the ledger row carries the true balance after it; a duplicate reference
 * rolls the whole transaction back.
 */
async function addOnce(
  db: Queryable,
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
export async function refund(
  db: Queryable,
  userId: string,
  tenths: number,
  reference: string,
  at: Date,
  description: string,
): Promise<boolean> {
  const given = await addOnce(db, { userId, tenths, transactionType: "refund", reference, at, description });
  if (given) metrics.refunded(fromTenths(tenths));
  return given;
}

/** Adds purchased or granted credits once per reference (a payment session id). */
export function grant(
  db: Queryable,
  userId: string,
  tenths: number,
  transactionType: string,
  reference: string,
  at: Date,
  description: string,
) {
  return addOnce(db, { userId, tenths, transactionType, reference, at, description });
}

/**
 * Records, inside the delivering transaction, that the work paid for as `paidFor` was delivered, with
 * `undeliveredTenths` of it still to give back. Throws ChargeLapsed (rolling the delivery back) when the
 * sweep refunded the charge first: a charge ends delivered or refunded, never both.
 */
export async function settleCharge(
  q: Queryable,
  paid: Charge,
  paidFor: string,
  undeliveredTenths: number,
): Promise<void> {
  if (paid.chargedTenths <= 0) return;
  if (!(await settleUnsettled(q, paidFor, Math.max(0, undeliveredTenths)))) throw new ChargeLapsed();
}

/** The unsettled row of `paidFor`, if its charge has not been settled for good. */
export async function unsettledCharge(q: Queryable, paidFor: string) {
  return findUnsettled(q, paidFor);
}

/** Forgets the unsettled row of `paidFor` once its refund (if any) is in the ledger. */
export async function forgetUnsettled(q: Queryable, paidFor: string): Promise<void> {
  await takeUnsettled(q, paidFor);
}

/**
 * Refunds what charges left unsettled for longer than `olderThanMs` still owe: the whole charge when the
 * process died between the charge and the delivery, the undelivered part when it died after. Each row is
 * taken out in the same transaction as its refund, so two sweeping processes refund it once; a refund
 * already in the ledger (the request refunded, then died) just clears the row. Returns how many it refunded.
 */
export async function sweepUnsettledCharges(db: Queryable, now: Date, olderThanMs: number): Promise<number> {
  const stale = await staleUnsettled(db, new Date(now.getTime() - olderThanMs), 100);
  let refunded = 0;
  for (const row of stale) {
    const reference = `refund:${row.paidFor}`;
    const gaveBack = await db.transaction(async (tx) => {
      const taken = await takeUnsettled(tx, row.paidFor);
      if (!taken || taken.refundTenths <= 0 || (await referenceUsed(tx, reference))) return 0;
      const after = await credit(tx, taken.userId, taken.refundTenths, now);
      if (!after) return 0;
      await insertTransaction(tx, {
        userId: taken.userId,
        transactionType: "refund",
        amountTenths: taken.refundTenths,
        balanceAfterTenths: after.balanceTenths,
        reference,
        description: taken.delivered
          ? "Refund: part of the work could not be delivered"
          : "Refund: the work was interrupted before it could be delivered",
        createdAt: now,
      });
      await recordEvent(tx, { userId: taken.userId, kind: "credits", at: now });
      return taken.refundTenths;
    });
    if (gaveBack > 0) {
      refunded++;
      metrics.refunded(fromTenths(gaveBack));
    }
  }
  return refunded;
}

/** Credits spent in [from, to) in tenths, net of refunds: one user's, or the install's (userId undefined). */
export function spentBetween(db: Queryable, userId: string | undefined, from: Date, to: Date) {
  return sumSpent(db, userId, from, to);
}

/**
 * An administrator takes `tenths` back (a negative grant), once per reference; false when the balance does
 * not hold that much. The ledger row is what the player sees in their history.
 */
export async function takeBack(
  db: Queryable,
  userId: string,
  tenths: number,
  transactionType: string,
  reference: string,
  at: Date,
  description: string,
): Promise<boolean> {
  if (tenths <= 0) return false;
  return db.transaction(async (tx) => {
    const after = await debitExactly(tx, userId, tenths, at);
    if (!after) return false;
    await insertTransaction(tx, {
      userId,
      transactionType,
      amountTenths: -tenths,
      balanceAfterTenths: after.balanceTenths,
      reference,
      description,
      createdAt: at,
    });
    await recordEvent(tx, { userId, kind: "credits", at });
    return true;
  });
}

/** Switches unlimited credits on or off (usage is still logged); false when the user has no account. */
export function setUnlimitedCredits(db: Queryable, userId: string, unlimited: boolean, at: Date) {
  return setUnlimited(db, userId, unlimited, at);
}

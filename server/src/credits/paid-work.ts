// Paid work, the one way every chargeable request runs (main chat, story chat, Studio batches, advisor):
// check the price is covered before any expensive preparation, check the spending caps (admin/caps.ts, handed
// in through the context),
// charge, deliver, and give back what was not delivered. Every refund is keyed by what it refunds (a message
// or batch id), and the ledger accepts one refund per key, so a retried or raced refund (a job retry, a
// stale-timeout poll, a story deletion) can never pay out twice.
import { creditCost } from "@storyverse/contract/credits";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { isTransientDatabaseError } from "../db/transient";
import { Busy, Unavailable } from "../platform/errors";
import { findAccount } from "./repo";
import {
  type Charge,
  charge,
  forgetUnsettled,
  fromTenths,
  InsufficientCredits,
  refund,
  settleCharge,
  toTenths,
  unsettledCharge,
} from "./service";

/** The ledger reference of the (single) refund for the message or batch `id`. */
export const refundReference = (id: string) => `refund:${id}`;

/** What a refund needs; paid work also needs the spending caps. */
type LedgerContext = Pick<AppContext, "db" | "clock" | "log">;
type PaidContext = LedgerContext & Pick<AppContext, "spendingCaps">;

export type PaidRequest = {
  userId: string;
  /** A price kind: chat, image, video, advisor. */
  kind: string;
  /** The ledger's usage kind when it is not the price kind (Studio batches: studio_image). */
  usage?: string;
  quantity: number;
  /** The ledger text of the charge. */
  description: string;
  /** The id of what is paid for (the answer message or batch); refunds are keyed by it. */
  paidFor: string;
  /** The ledger text of a refund. */
  refundDescription: string;
};

/** What deliver hands back: its result, and how much of the charge it could not deliver (0 = all of it). */
export type Delivery<T> = { result: T; undeliveredTenths?: number; refundDescription?: string };

/**
 * Call inside the transaction that commits the delivery, with what was not delivered: the charge and the
 * delivery then commit together as "delivered", and a delivery racing the stale-charge sweep rolls back
 * (ChargeLapsed) instead of being both delivered and refunded.
 */
export type Settle = (tx: Queryable, undeliveredTenths?: number) => Promise<void>;

/**
 * What paid work asks of the ledger, each step one statement or transaction of credits/service.ts: the database's
 * (`databaseLedger`), or an in-memory one whose steps can fail at will (the money rules' fast tests).
 */
export type PaidLedger = {
  /** Refuses a capped player (admin/caps.ts) before anything is charged. */
  assertUnderCaps(userId: string, tenths: number): Promise<void>;
  /** Takes the price and records the charge as unsettled under `request.paidFor`, in one transaction. */
  charge(request: PaidRequest, at: Date): Promise<Charge>;
  /** Marks the charge delivered (keeping `undeliveredTenths` owed) in the delivery's transaction `tx`. */
  settle(tx: Queryable, paid: Charge, paidFor: string, undeliveredTenths: number): Promise<void>;
  /** What the charge's unsettled row still owes (0 or none when it is settled whole or gone). */
  owed(paidFor: string): Promise<number>;
  /** Gives back `tenths` under `reference`, at most once per reference; true if this call gave them. */
  refund(userId: string, tenths: number, reference: string, at: Date, description: string): Promise<boolean>;
  /** Forgets the charge's unsettled row once its refund (if any) is in the ledger. */
  forget(paidFor: string): Promise<void>;
};

/** The ledger in the database. */
export const databaseLedger = (ctx: PaidContext): PaidLedger => ({
  assertUnderCaps: (userId, tenths) => ctx.spendingCaps(ctx, userId, tenths),
  charge: (request, at) =>
    charge(
      ctx.db,
      request.userId,
      request.kind,
      request.quantity,
      at,
      request.description,
      request.paidFor,
      request.usage,
    ),
  settle: (tx, paid, paidFor, undeliveredTenths) => settleCharge(tx, paid, paidFor, undeliveredTenths),
  owed: async (paidFor) => (await unsettledCharge(ctx.db, paidFor))?.refundTenths ?? 0,
  ...databaseRefunds(ctx),
  forget: (paidFor) => forgetUnsettled(ctx.db, paidFor),
});

/** The ledger's refunds in the database: all a refund after the work needs. */
const databaseRefunds = (ctx: LedgerContext): Pick<PaidLedger, "refund"> => ({
  refund: (userId, tenths, reference, at, description) =>
    refund(ctx.db, userId, tenths, reference, at, description),
});

/**
 * A 402 before any work when the balance cannot cover the price, so a user with no credits never makes the
 * server decode, store or send anything. Only a pre-check: the charge itself stays the atomic guard.
 */
export async function assertCovers(
  ctx: Pick<AppContext, "db">,
  userId: string,
  kind: string,
  quantity: number,
): Promise<void> {
  const cost = creditCost(kind, quantity);
  const account = await findAccount(ctx.db, userId);
  if (account?.unlimited) return;
  const balance = account?.balanceTenths ?? 0;
  if (balance < toTenths(cost)) {
    throw new InsufficientCredits({ remaining: fromTenths(balance), unlimited: false, cost, charged: 0 });
  }
}

/**
 * Charges, runs `deliver`, and settles: if deliver throws, the whole charge goes back; otherwise whatever
 * it reports undelivered goes back. Either way at most one refund, keyed by `paidFor`.
 */
export async function payFor<T>(
  ctx: PaidContext,
  request: PaidRequest,
  deliver: (paid: Charge, settle: Settle) => Promise<Delivery<T>>,
  ledger: PaidLedger = databaseLedger(ctx),
): Promise<{ result: T; paid: Charge; refundedTenths: number }> {
  // A capped player is refused here, before the charge and before deliver calls any vendor.
  await ledger.assertUnderCaps(request.userId, toTenths(creditCost(request.kind, request.quantity)));
  let paid: Charge;
  try {
    paid = await ledger.charge(request, ctx.clock.now());
  } catch (error) {
    // A charge whose commit was lost with its connection left its unsettled row: the sweep returns it.
    if (isTransientDatabaseError(error)) throw busy(ctx, error, request, "not taken");
    throw error;
  }
  let settled = false;
  // Only a settlement in a transaction that committed counts; see the catch below.
  const settle: Settle = async (tx, undeliveredTenths = 0) => {
    await ledger.settle(tx, paid, request.paidFor, undeliveredTenths);
    settled = true;
  };
  let delivery: Delivery<T>;
  try {
    delivery = await deliver(paid, settle);
  } catch (error) {
    // Under load the delivering transaction can lose to the database (a deadlock, too many clients): the
    // user is told to try again and what became of the credits, never a bare 500.
    const transient = isTransientDatabaseError(error);
    let owed: number;
    try {
      owed = await refundOwed(ctx, ledger, paid, request);
    } catch (refundError) {
      // The charge's unsettled row is still there, so the sweep gives the credits back later.
      if (transient && isTransientDatabaseError(refundError))
        throw busy(ctx, error, request, "returned later");
      throw refundError;
    }
    if (transient) {
      const credits =
        paid.chargedTenths <= 0 ? "not taken" : owed === paid.chargedTenths ? "returned" : "unknown";
      throw busy(ctx, error, request, credits);
    }
    throw error;
  }
  const refundedTenths = Math.min(paid.chargedTenths, Math.max(0, delivery.undeliveredTenths ?? 0));
  // A delivery with no transaction of its own settles here (its outcome is already stored).
  if (!settled) await settle(ctx.db, refundedTenths);
  if (refundedTenths > 0) {
    // The work was delivered (its settlement committed): whatever happens to the refund, the answer says
    // delivered. A refund that cannot be written now stays owed in the charge's unsettled row, which the
    // sweep refunds later (once, keyed like this one); failing the request would invite a second paid try.
    try {
      await refundPaid(
        ctx,
        paid,
        refundedTenths,
        request.paidFor,
        delivery.refundDescription ?? request.refundDescription,
        ledger,
      );
    } catch (error) {
      ctx.log.error(
        { err: error, userId: paid.userId, paidFor: request.paidFor, tenths: refundedTenths },
        "undelivered part not refunded now; left to the unsettled-charge sweep",
      );
      return { result: delivery.result, paid, refundedTenths: 0 };
    }
    await ledger.forget(request.paidFor).catch((error: Error) => {
      // The refund is in the ledger: a row left behind is only cleared by the sweep, never paid twice.
      ctx.log.warn({ err: error, paidFor: request.paidFor }, "refunded charge's row left for the sweep");
    });
  }
  return { result: delivery.result, paid, refundedTenths };
}

/**
 * The charge's row says what a failure owes: all of it when nothing was delivered (a delivering transaction
 * that rolled back took its settlement with it), the undelivered part when the delivery committed, nothing
 * when the row is gone (delivered whole, or the sweep refunded it).
 */
async function refundOwed(
  ctx: LedgerContext,
  ledger: PaidLedger,
  paid: Charge,
  request: PaidRequest,
): Promise<number> {
  const owed = paid.chargedTenths <= 0 ? 0 : await ledger.owed(request.paidFor);
  if (owed > 0) {
    await refundPaid(ctx, paid, owed, request.paidFor, request.refundDescription, ledger);
    // With the refund in the ledger, a row left behind is only cleared by the sweep, never paid twice.
    await ledger.forget(request.paidFor).catch((error: Error) => {
      if (!isTransientDatabaseError(error)) throw error;
      ctx.log.warn({ err: error, paidFor: request.paidFor }, "refunded charge's row left for the sweep");
    });
  }
  return owed;
}

function busy(
  ctx: LedgerContext,
  error: unknown,
  request: PaidRequest,
  credits: ConstructorParameters<typeof BusyTryAgain>[0],
): BusyTryAgain {
  // An error for the operator (the database is short of connections or meets deadlocks), not for the user.
  ctx.log.error(
    { err: error, userId: request.userId, paidFor: request.paidFor, credits },
    "paid work refused: the database could not finish it",
  );
  return new BusyTryAgain(credits);
}

/** Gives back `tenths` of the charge for `paidFor`, once whatever happens next. */
export async function refundPaid(
  ctx: LedgerContext,
  paid: Pick<Charge, "userId">,
  tenths: number,
  paidFor: string,
  description: string,
  ledger: Pick<PaidLedger, "refund"> = databaseRefunds(ctx),
): Promise<boolean> {
  if (tenths <= 0) return false;
  try {
    return await ledger.refund(paid.userId, tenths, refundReference(paidFor), ctx.clock.now(), description);
  } catch (error) {
    // The database itself is failing: the ledger cannot take the refund now. Leave a trail to settle by hand.
    ctx.log.error({ err: error, userId: paid.userId, paidFor, tenths }, "refund could not be recorded");
    throw error;
  }
}

/**
 * The database could not finish the paid work now (a deadlock, a serialization failure, too many clients, a
 * dropped connection): a 503 saying what became of the credits, never a bare 500.
 */
class BusyTryAgain extends Unavailable {
  constructor(credits: "not taken" | "returned" | "returned later" | "unknown") {
    super(
      {
        "not taken": "The server is too busy to do this right now; no credits were kept. Please try again.",
        returned:
          "The server is too busy to finish this right now. Your credits were returned; please try again.",
        "returned later":
          "The server is too busy to finish this right now. Your credits will be returned automatically; please try again.",
        // The connection was lost after the delivery may have committed.
        unknown:
          "The server is too busy to answer right now. Reload to see whether it went through before trying again.",
      }[credits],
      { retryAfterSeconds: 5 },
    );
  }
}

/** Heavy paid requests (uploads decoded, a vendor held for a whole batch) one user may have running at once. */
export const MAX_HEAVY_REQUESTS_PER_USER = 2;
const TOO_MANY_HEAVY_DETAIL = `You already have ${MAX_HEAVY_REQUESTS_PER_USER} image requests in progress. Please wait for one to finish.`;

const heavyInFlight = new Map<string, number>();

/**
 * Takes one of the user's heavy-request slots now and returns its release (safe to call twice); a request
 * beyond the cap gets a 429 before anything is decoded or charged. Counted per process (each API process
 * has its own cap).
 */
export function takeHeavySlot(userId: string): () => void {
  const inFlight = heavyInFlight.get(userId) ?? 0;
  if (inFlight >= MAX_HEAVY_REQUESTS_PER_USER) throw new Busy(TOO_MANY_HEAVY_DETAIL);
  heavyInFlight.set(userId, inFlight + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (heavyInFlight.get(userId) ?? 1) - 1;
    if (left <= 0) heavyInFlight.delete(userId);
    else heavyInFlight.set(userId, left);
  };
}

/**
 * Runs `work` holding one of the user's heavy-request slots, unless the request already holds one (the
 * upload gate takes it before a large body is read, see heavy-upload-gate.ts).
 */
export async function withHeavySlot<T>(
  userId: string,
  work: () => Promise<T>,
  options: { slotHeld?: boolean } = {},
): Promise<T> {
  if (options.slotHeld) return work();
  const release = takeHeavySlot(userId);
  try {
    return await work();
  } finally {
    release();
  }
}

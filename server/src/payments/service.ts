// Billing: checkout sessions for the credit packs, crediting a paid session exactly once, the billing portal,
// and the subscription details of the Credits page. Provider-neutral: Stripe and the sandbox sit behind
// PaymentProvider.
//
// Exactly once: a paid session can be reported by the webhook, by verify-session, or (sandbox) by Pay, in any
// order, concurrently and repeatedly. Each report calls settle(), whose credits.grant() uses the session id as
// the ledger's unique reference, so only the first report adds credits and the others change nothing.
import {
  BILLING_ACCOUNT_SETTING_UP_MESSAGE,
  BILLING_PORTAL_PENDING_MESSAGE,
  BILLING_TYPE,
  CREDIT_PACKS,
  type CreateCheckoutResponse,
  type CreditPack,
  findPack,
  type ManageBillingResponse,
  PAYMENT_RETURN_NAV,
  type SubscriptionDetails,
  TRANSACTION_TYPES,
  type VerifySessionResponse,
} from "@storyverse/contract/billing";
import type { AppContext } from "../context";
import { fromTenths, grant, ledgerTotals, remainingCredits, toTenths } from "../credits";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import type { PaymentProvider, ProviderSession } from "./provider";
import {
  closeOpenSession,
  findBillingCustomer,
  findPaymentSession,
  findUserPaymentSession,
  insertPaymentSession,
  latestPaidSession,
  listUserPaymentSessions,
  markSessionPaid,
  type PaymentSessionRow,
  saveBillingCustomer,
} from "./repo";
import { newSandboxCustomerId } from "./sandbox-provider";

export type PaymentsContext = Pick<AppContext, "db" | "clock" | "config" | "log"> & {
  provider: PaymentProvider;
};

/** Where the browser comes back to: the app's root with the query string the web handles as a payment return. */
export function returnUrls(config: Pick<AppContext["config"], "appUrl">) {
  return {
    success: `${config.appUrl}/?payment=success&type=credits&session_id={CHECKOUT_SESSION_ID}&nav=${PAYMENT_RETURN_NAV}`,
    cancel: `${config.appUrl}/?payment=cancelled&nav=${PAYMENT_RETURN_NAV}`,
    portal: `${config.appUrl}/?nav=${PAYMENT_RETURN_NAV}`,
  };
}

export const packName = (packId: string) => findPack(packId)?.name ?? "Credit pack";

export async function createCheckout(
  ctx: PaymentsContext,
  userId: string,
  input: { price_id: string; credits_amount?: number | undefined },
): Promise<CreateCheckoutResponse> {
  const pack = findPack(input.price_id);
  if (!pack) {
    throw new InvalidInput(
      `Unknown price_id: choose one of ${CREDIT_PACKS.map((known) => known.price_id).join(", ")}`,
    );
  }
  if (input.credits_amount !== undefined && input.credits_amount !== pack.credits) {
    throw new InvalidInput(
      `credits_amount does not match the ${pack.name}, which has ${pack.credits} credits`,
    );
  }
  const customer = await findBillingCustomer(ctx.db, userId, ctx.provider.kind);
  const urls = returnUrls(ctx.config);
  const created = await ctx.provider.createCheckout({
    userId,
    pack,
    successUrl: urls.success,
    cancelUrl: urls.cancel,
    customerId: customer?.customerId ?? null,
  });
  await insertPaymentSession(ctx.db, {
    id: created.id,
    userId,
    provider: ctx.provider.kind,
    packId: pack.id,
    credits: pack.credits,
    amountCents: pack.price_usd * 100,
    currency: "usd",
    status: "open",
    customerId: customer?.customerId ?? null,
    createdAt: ctx.clock.now(),
  });
  return { checkout_url: created.url, session_id: created.id };
}

/**
 * Credits a paid session (once, by its id) and records it as paid with its customer. Safe to call any number
 * of times from anywhere; true only for the call that added the credits.
 */
async function settle(
  ctx: PaymentsContext,
  row: PaymentSessionRow,
  customerId: string | null,
  via: "webhook" | "verify-session" | "sandbox",
): Promise<boolean> {
  const now = ctx.clock.now();
  const granted = await grant(
    ctx.db,
    row.userId,
    toTenths(row.credits),
    TRANSACTION_TYPES.purchase,
    row.id,
    now,
    `${packName(row.packId)}: ${row.credits} credits`,
  );
  await markSessionPaid(ctx.db, row.id, now, customerId);
  if (customerId) {
    await saveBillingCustomer(ctx.db, {
      userId: row.userId,
      provider: row.provider,
      customerId,
      createdAt: now,
    });
  }
  if (granted) {
    ctx.log.info({ sessionId: row.id, userId: row.userId, credits: row.credits, via }, "purchase credited");
  }
  return granted;
}

/** The provider's record must name the same user and pack as ours; anything else is not our purchase. */
function sameSession(row: PaymentSessionRow, remote: ProviderSession): boolean {
  return (remote.userId ?? row.userId) === row.userId && (remote.packId ?? row.packId) === row.packId;
}

async function purchaseResult(ctx: PaymentsContext, row: PaymentSessionRow): Promise<VerifySessionResponse> {
  return {
    success: true,
    type: "credits",
    plan_name: packName(row.packId),
    // The pack's credits on every call: the caller learns what the purchase gave, not which call gave it.
    credits_added: row.credits,
    remaining: await remainingCredits(ctx.db, row.userId),
  };
}

export async function verifySession(
  ctx: PaymentsContext,
  userId: string,
  sessionId: string,
): Promise<VerifySessionResponse> {
  const row = await findUserPaymentSession(ctx.db, userId, sessionId);
  if (!row) throw new NotFound("Payment session not found");
  // Paid is only recorded after the grant, so a paid row needs no second look at the provider.
  if (row.status === "paid") return purchaseResult(ctx, row);
  if (row.status === "cancelled")
    throw new InvalidInput("This checkout was cancelled, so no credits were added.");
  if (row.provider !== ctx.provider.kind) {
    throw new InvalidInput(
      `This checkout was made with the ${row.provider} payment provider, which is no longer in use.`,
    );
  }
  const remote = await ctx.provider.retrieveSession(row.id);
  if (!remote || !sameSession(row, remote)) {
    ctx.log.error({ sessionId: row.id, remote }, "payment session unknown to the provider or not ours");
    throw new NotFound("Payment session not found");
  }
  if (!remote.paid) {
    if (remote.status === "expired") {
      await closeOpenSession(ctx.db, row.id, "expired", ctx.clock.now());
      throw new InvalidInput("This checkout expired before it was paid, so no credits were added.");
    }
    throw new InvalidInput("This payment has not been completed, so no credits were added yet.");
  }
  await settle(ctx, row, remote.customerId, "verify-session");
  return purchaseResult(ctx, row);
}

/** A verified webhook. Always answers 200 once the signature is good, so the provider stops retrying. */
export async function handleWebhook(
  ctx: PaymentsContext,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true }> {
  const event = ctx.provider.parseWebhook(rawBody, signature, ctx.clock.now());
  if (event.kind === "session_paid") {
    const row = await findPaymentSession(ctx.db, event.session.id);
    if (!row || row.provider !== ctx.provider.kind) {
      // Not a checkout this app created (another app on the same Stripe account): nothing to credit.
      ctx.log.warn({ sessionId: event.session.id }, "webhook for an unknown checkout session: ignored");
    } else if (!sameSession(row, event.session)) {
      ctx.log.error(
        { sessionId: row.id, remote: event.session },
        "webhook disagrees with our session: ignored",
      );
    } else {
      await settle(ctx, row, event.session.customerId, "webhook");
    }
  } else if (event.kind === "session_expired") {
    await closeOpenSession(ctx.db, event.sessionId, "expired", ctx.clock.now());
  }
  return { received: true };
}

export async function manageBilling(ctx: PaymentsContext, userId: string): Promise<ManageBillingResponse> {
  let customerId = (await findBillingCustomer(ctx.db, userId, ctx.provider.kind))?.customerId;
  if (!customerId) {
    const paid = await latestPaidSession(ctx.db, userId, ctx.provider.kind);
    if (!paid) {
      return { success: false, portal_url: null, fallback: true, message: BILLING_PORTAL_PENDING_MESSAGE };
    }
    // Bought, but the customer was not recorded yet (e.g. the provider reported it late): ask once more.
    customerId = paid.customerId ?? (await ctx.provider.retrieveSession(paid.id))?.customerId ?? undefined;
    if (!customerId) {
      return {
        success: false,
        portal_url: null,
        fallback: true,
        message: BILLING_ACCOUNT_SETTING_UP_MESSAGE,
      };
    }
    await saveBillingCustomer(ctx.db, {
      userId,
      provider: ctx.provider.kind,
      customerId,
      createdAt: ctx.clock.now(),
    });
  }
  const portalUrl = await ctx.provider.createPortal({
    customerId,
    userId,
    returnUrl: returnUrls(ctx.config).portal,
  });
  return { success: true, portal_url: portalUrl, fallback: false };
}

export async function subscriptionDetails(
  ctx: PaymentsContext,
  userId: string,
): Promise<SubscriptionDetails> {
  const [remaining, totals, customer] = await Promise.all([
    remainingCredits(ctx.db, userId),
    ledgerTotals(ctx.db, userId),
    findBillingCustomer(ctx.db, userId, ctx.provider.kind),
  ]);
  return {
    billing_type: BILLING_TYPE,
    remaining,
    lifetime_credits: fromTenths(totals.lifetimeTenths),
    last_top_up_at: totals.lastPurchaseAt?.toISOString() ?? null,
    has_billing_account: customer !== undefined,
  };
}

// --- The sandbox's own checkout and portal pages ---

/** The pages exist only while the sandbox is the provider, and never in production (double guard). */
function requireSandbox(ctx: PaymentsContext): void {
  if (ctx.provider.kind !== "sandbox" || ctx.config.appEnv === "production") {
    throw new NotFound("There is no sandbox checkout on this server");
  }
}

export type SandboxCheckout = { session: PaymentSessionRow; pack: CreditPack | undefined };

export async function sandboxCheckout(ctx: PaymentsContext, sessionId: string): Promise<SandboxCheckout> {
  requireSandbox(ctx);
  const session = await findPaymentSession(ctx.db, sessionId);
  if (session?.provider !== "sandbox") throw new NotFound("This checkout does not exist");
  return { session, pack: findPack(session.packId) };
}

/** Pay: credits granted and the session paid; a second Pay just returns to the app. Returns the redirect. */
export async function paySandbox(ctx: PaymentsContext, sessionId: string): Promise<string> {
  const { session } = await sandboxCheckout(ctx, sessionId);
  if (session.status === "cancelled" || session.status === "expired") {
    throw new Conflict("This checkout was cancelled. Start a new one from the Credits page.");
  }
  const customer = await findBillingCustomer(ctx.db, session.userId, "sandbox");
  // Paying an already paid session is harmless: settle() grants by the session id, once.
  await settle(ctx, session, customer?.customerId ?? newSandboxCustomerId(), "sandbox");
  return returnUrls(ctx.config).success.replace("{CHECKOUT_SESSION_ID}", session.id);
}

/** Cancel: an open session is closed; the browser returns to the app either way. */
export async function cancelSandbox(ctx: PaymentsContext, sessionId: string): Promise<string> {
  const { session } = await sandboxCheckout(ctx, sessionId);
  await closeOpenSession(ctx.db, session.id, "cancelled", ctx.clock.now());
  return returnUrls(ctx.config).cancel;
}

/** The purchases shown on the sandbox portal for the user its signed link names. */
export async function sandboxPortal(ctx: PaymentsContext, userId: string) {
  requireSandbox(ctx);
  const sessions = await listUserPaymentSessions(ctx.db, userId, "sandbox", 50);
  return { sessions, returnUrl: returnUrls(ctx.config).portal };
}

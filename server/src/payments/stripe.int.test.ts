// Stripe through the real SDK against the local fake: the checkout request on the wire, verify-session,
// signed webhooks, exactly-once crediting under a 50-way race, replays, tampering and the billing portal.
import {
  BILLING_ACCOUNT_SETTING_UP_MESSAGE,
  BILLING_PORTAL_PENDING_MESSAGE,
} from "@storyverse/contract/billing";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { parseStripeForm, type StripeFake, startStripeFake } from "../../test/fakes/stripe-fake";
import { creditTransactions, paymentSessions } from "../db/schema";

let stripe: StripeFake;
let t: TestApp;
beforeAll(async () => {
  stripe = await startStripeFake();
  t = await createTestApp({ env: stripe.env });
});
afterAll(async () => {
  await t.cleanup();
  await stripe.close();
});
beforeEach(() => {
  stripe.reset();
});

async function checkout(user: TestUser, priceId = "pack_pro") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/payments/create-checkout-session",
    headers: bearer(user.token),
    payload: { price_id: priceId, purchase_type: "credits" },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { checkout_url: string; session_id: string };
}

const verify = (user: TestUser, sessionId: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/payments/verify-session",
    headers: bearer(user.token),
    payload: { session_id: sessionId },
  });

const deliver = (event: { payload: string; signature: string }) =>
  t.app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": event.signature },
    payload: event.payload,
  });

const balance = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining as number;

async function purchaseRows(userId: string) {
  return t.ctx.db
    .select()
    .from(creditTransactions)
    .where(and(eq(creditTransactions.userId, userId), eq(creditTransactions.transactionType, "purchase")));
}

describe("Stripe checkout", () => {
  it("creates the session exactly as providers.md describes, and records it open", async () => {
    const user = await createUser(t);
    const { checkout_url, session_id } = await checkout(user, "pack_expert");
    expect(session_id).toMatch(/^cs_test_/);
    expect(checkout_url).toBe(`${stripe.origin}/c/pay/${session_id}`);

    const [request] = stripe.requests.filter((r) => r.path === "/v1/checkout/sessions");
    expect(request?.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(request?.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    const form = new URLSearchParams(request!.body.toString("utf8"));
    expect(Object.fromEntries(form)).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "5000",
      "line_items[0][price_data][product_data][name]": "Expert Pack",
      "line_items[0][quantity]": "1",
      success_url:
        "http://app.test/?payment=success&type=credits&session_id={CHECKOUT_SESSION_ID}&nav=manage-subscription",
      cancel_url: "http://app.test/?payment=cancelled&nav=manage-subscription",
      client_reference_id: user.userId,
      "metadata[pack]": "expert",
      "metadata[user_id]": user.userId,
      customer_creation: "always",
    });
    expect(form.has("customer")).toBe(false);

    const [row] = await t.ctx.db.select().from(paymentSessions).where(eq(paymentSessions.id, session_id));
    expect(row).toMatchObject({
      userId: user.userId,
      provider: "stripe",
      packId: "expert",
      credits: 600,
      amountCents: 5000,
      status: "open",
    });
  });

  it("an unpaid session grants nothing; once paid, verify-session grants it", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user);
    const early = await verify(user, session_id);
    expect(early.statusCode).toBe(400);
    expect(early.json().detail).toMatch(/not been completed/);

    // A bank payment: the session completes but the money is not there yet.
    stripe.completeSession(session_id, "unpaid");
    expect(
      (
        await deliver(stripe.signedEvent("checkout.session.completed", stripe.sessions.get(session_id)))
      ).json(),
    ).toEqual({ received: true });
    expect((await verify(user, session_id)).statusCode).toBe(400);
    expect(await balance(user)).toBe(15);

    stripe.completeSession(session_id, "paid");
    const paid = await verify(user, session_id);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({
      success: true,
      type: "credits",
      plan_name: "Pro Pack",
      credits_added: 275,
      remaining: 290,
    });
    // The async success webhook arrives later: nothing more.
    const late = await deliver(
      stripe.signedEvent("checkout.session.async_payment_succeeded", stripe.sessions.get(session_id)),
    );
    expect(late.statusCode).toBe(200);
    expect(await balance(user)).toBe(290);
    expect(await purchaseRows(user.userId)).toHaveLength(1);
  });

  it("50 concurrent webhook and verify-session deliveries for one paid session grant it once", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user);
    const session = stripe.completeSession(session_id, "paid");
    const deliveries = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? deliver(stripe.signedEvent("checkout.session.completed", session))
        : verify(user, session_id),
    );
    const results = await Promise.all(deliveries);
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    for (const res of results.filter((_, i) => i % 2 === 1)) expect(res.json().credits_added).toBe(275);

    const rows = await purchaseRows(user.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountTenths: 2750, balanceAfterTenths: 2900, reference: session_id });
    expect(await balance(user)).toBe(290);

    // A replay of the very same delivery, later, adds nothing either.
    const replay = stripe.signedEvent("checkout.session.completed", session);
    expect((await deliver(replay)).statusCode).toBe(200);
    expect((await deliver(replay)).statusCode).toBe(200);
    expect(await balance(user)).toBe(290);

    const [row] = await t.ctx.db.select().from(paymentSessions).where(eq(paymentSessions.id, session_id));
    expect(row).toMatchObject({ status: "paid", customerId: session.customer });
  });

  it("a webhook alone credits the purchase (the buyer never came back)", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user, "pack_starter");
    const res = await deliver(
      stripe.signedEvent("checkout.session.completed", stripe.completeSession(session_id)),
    );
    expect(res.json()).toEqual({ received: true });
    expect(await balance(user)).toBe(115);
    // Other routes keep their JSON parsing: the raw-body parser is the webhook's alone.
    const json = await t.app.inject({
      method: "POST",
      url: "/api/payments/verify-session",
      headers: { ...bearer(user.token), "content-type": "application/octet-stream" },
      payload: Buffer.from(JSON.stringify({ session_id })),
    });
    expect(json.statusCode).toBe(415);
    // verify-session afterwards reports the purchase without asking Stripe again.
    stripe.reset();
    expect((await verify(user, session_id)).json()).toMatchObject({ credits_added: 100, remaining: 115 });
    expect(stripe.requests).toHaveLength(0);
  });

  it("rejects a tampered, missing, foreign-secret or stale signature with 400, granting nothing", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user);
    const session = stripe.completeSession(session_id);
    const event = stripe.signedEvent("checkout.session.completed", session);

    const tampered = await deliver({
      ...event,
      payload: event.payload.replace('"pack":"pro"', '"pack":"expert"'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual({ detail: "Invalid webhook signature", code: "invalid_request" });

    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json" },
      payload: event.payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().detail).toContain("Stripe-Signature");

    const foreign = stripe.signedEvent("checkout.session.completed", session, {
      secret: "whsec_someone_else",
    });
    expect((await deliver(foreign)).statusCode).toBe(400);

    const stale = stripe.signedEvent("checkout.session.completed", session, {
      timestamp: Math.floor(t.clock.now().getTime() / 1000) - 301,
    });
    expect((await deliver(stale)).statusCode).toBe(400);

    // Re-serialised JSON (same content, other bytes) is not what was signed either.
    const reformatted = JSON.stringify(JSON.parse(event.payload), null, 2);
    expect((await deliver({ ...event, payload: reformatted })).statusCode).toBe(400);

    expect(await balance(user)).toBe(15);
    expect(await purchaseRows(user.userId)).toHaveLength(0);
  });

  it("answers 200 to events it does not handle and to sessions it did not create, granting nothing", async () => {
    const user = await createUser(t);
    const ignored = await deliver(
      stripe.signedEvent("customer.created", { id: "cus_123", object: "customer" }),
    );
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toEqual({ received: true });

    // A paid session from another app on the same Stripe account, even one naming our user.
    const foreign = await deliver(
      stripe.signedEvent("checkout.session.completed", {
        id: "cs_test_not_ours",
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        client_reference_id: user.userId,
        metadata: { pack: "expert", user_id: user.userId },
        customer: "cus_elsewhere",
      }),
    );
    expect(foreign.statusCode).toBe(200);
    expect(await balance(user)).toBe(15);

    // Our session, but the event names someone else: not credited to anyone.
    const other = await createUser(t);
    const { session_id } = await checkout(user);
    const session = { ...stripe.completeSession(session_id), client_reference_id: other.userId };
    session.metadata = { ...session.metadata, user_id: other.userId };
    expect((await deliver(stripe.signedEvent("checkout.session.completed", session))).statusCode).toBe(200);
    expect(await balance(user)).toBe(15);
    expect(await balance(other)).toBe(15);
  });

  it("an expired session is recorded expired and never credited", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user);
    const expired = await deliver(
      stripe.signedEvent("checkout.session.expired", stripe.expireSession(session_id)),
    );
    expect(expired.statusCode).toBe(200);
    const res = await verify(user, session_id);
    expect(res.statusCode).toBe(400);
    const [row] = await t.ctx.db.select().from(paymentSessions).where(eq(paymentSessions.id, session_id));
    expect(row?.status).toBe("expired");
  });

  it("another user's session id is a 404 and asks Stripe nothing", async () => {
    const owner = await createUser(t);
    const thief = await createUser(t);
    const { session_id } = await checkout(owner);
    stripe.completeSession(session_id);
    stripe.reset();
    const res = await verify(thief, session_id);
    expect(res.statusCode).toBe(404);
    expect(stripe.requests).toHaveLength(0);
    expect(await balance(thief)).toBe(15);
  });

  it("Stripe failing or refusing the key is a 502 with a plain message, and records nothing", async () => {
    const user = await createUser(t);
    stripe.failNext(
      { status: 401, message: "Invalid API Key provided: sk_test_****" },
      "/v1/checkout/sessions",
    );
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/payments/create-checkout-session",
      headers: bearer(user.token),
      payload: { price_id: "pack_pro" },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().detail).not.toContain("sk_");
    const rows = await t.ctx.db.select().from(paymentSessions).where(eq(paymentSessions.userId, user.userId));
    expect(rows).toHaveLength(0);
  });

  it("the wire format of the fake matches the SDK's encoding of nested fields", () => {
    expect(parseStripeForm("a[b][0][c]=1&a[b][1][c]=2&d=x")).toEqual({
      a: { b: [{ c: "1" }, { c: "2" }] },
      d: "x",
    });
  });
});

describe("manage billing with Stripe", () => {
  it("without a purchase: the portal is being set up; after one: Stripe's portal for the customer", async () => {
    const user = await createUser(t);
    const manage = () =>
      t.app.inject({ method: "POST", url: "/api/subscription/manage-billing", headers: bearer(user.token) });
    expect((await manage()).json()).toEqual({
      success: false,
      portal_url: null,
      fallback: true,
      message: BILLING_PORTAL_PENDING_MESSAGE,
    });

    const { session_id } = await checkout(user);
    const session = stripe.completeSession(session_id);
    await verify(user, session_id);
    stripe.reset();
    const opened = await manage();
    expect(opened.json()).toEqual({
      success: true,
      portal_url: expect.stringMatching(new RegExp(`^${stripe.origin}/p/session/bps_`)),
      fallback: false,
    });
    const [portalRequest] = stripe.requests;
    expect(portalRequest?.path).toBe("/v1/billing_portal/sessions");
    expect(Object.fromEntries(new URLSearchParams(portalRequest!.body.toString("utf8")))).toEqual({
      customer: session.customer,
      return_url: "http://app.test/?nav=manage-subscription",
    });

    // The next checkout reuses the customer instead of creating another.
    stripe.reset();
    await checkout(user, "pack_starter");
    const form = new URLSearchParams(stripe.requests[0]!.body.toString("utf8"));
    expect(form.get("customer")).toBe(session.customer);
    expect(form.has("customer_creation")).toBe(false);

    const details = await t.app.inject({
      method: "GET",
      url: "/api/subscription-details",
      headers: bearer(user.token),
    });
    expect(details.json()).toMatchObject({
      has_billing_account: true,
      remaining: 290,
      lifetime_credits: 290,
    });
  });

  it("paid but Stripe has not reported a customer yet: 'Setting up your billing account'", async () => {
    const user = await createUser(t);
    const { session_id } = await checkout(user);
    const session = stripe.completeSession(session_id);
    // Stripe creates the customer a moment after the payment: the webhook we got did not name it yet.
    const withoutCustomer = { ...session, customer: null };
    await deliver(stripe.signedEvent("checkout.session.completed", withoutCustomer));
    stripe.sessions.set(session_id, { ...session, customer: null });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/subscription/manage-billing",
      headers: bearer(user.token),
    });
    expect(res.json()).toEqual({
      success: false,
      portal_url: null,
      fallback: true,
      message: BILLING_ACCOUNT_SETTING_UP_MESSAGE,
    });
    // Once Stripe knows it, Manage Billing finds it without any other help.
    stripe.sessions.set(session_id, session);
    const retry = await t.app.inject({
      method: "POST",
      url: "/api/subscription/manage-billing",
      headers: bearer(user.token),
    });
    expect(retry.json()).toMatchObject({ success: true, fallback: false });
  });
});

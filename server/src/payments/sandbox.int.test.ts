// The sandbox provider end to end through the app: create -> checkout page -> Pay -> payment return ->
// verify-session -> balance and history; Cancel; second Pay; the portal; and the production guard.
import { BILLING_PORTAL_PENDING_MESSAGE, PAYMENT_CANCELLED_MESSAGE } from "@storyverse/contract/billing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { buildApp } from "../app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

async function createCheckout(user: TestUser, payload: Record<string, unknown>) {
  return t.app.inject({
    method: "POST",
    url: "/api/payments/create-checkout-session",
    headers: bearer(user.token),
    payload,
  });
}

async function verify(user: TestUser, sessionId: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/payments/verify-session",
    headers: bearer(user.token),
    payload: { session_id: sessionId },
  });
}

const formPost = (url: string) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });

const balance = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining as number;

/** The path of an absolute URL on our app (inject takes paths). */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe("sandbox checkout", () => {
  it("buys the Pro Pack: page marked as a sandbox, Pay returns like Stripe, 275 credits added once", async () => {
    const user = await createUser(t);
    const created = await createCheckout(user, {
      price_id: "pack_pro",
      purchase_type: "credits",
      credits_amount: 275,
    });
    expect(created.statusCode).toBe(200);
    const { checkout_url, session_id } = created.json();
    expect(session_id).toMatch(/^cs_sandbox_[a-f0-9]{32}$/);
    expect(checkout_url).toBe(`http://app.test/sandbox/checkout/${session_id}`);

    const page = await t.app.inject({ method: "GET", url: pathOf(checkout_url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("Sandbox — no card is charged");
    expect(page.body).toContain("Pro Pack");
    expect(page.body).toContain("$25.00");
    expect(page.body).toContain("275 credits");
    expect(page.body).toContain(`<form method="post" action="/sandbox/checkout/${session_id}/pay">`);
    // The app's CSP (no inline script or style) holds on this page too.
    expect(page.body).not.toMatch(/<script|style=|<style/);
    expect(String(page.headers["content-security-policy"])).toContain("script-src 'self'");
    const css = await t.app.inject({ method: "GET", url: "/sandbox/checkout.css" });
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toContain("text/css");
    // The app's font stack and primary gradient, light and dark by the system's preference.
    expect(css.body).toContain('font-family: "Inter Variable", ui-sans-serif');
    expect(css.body).toContain("linear-gradient(135deg, #7c3aed 0%, #9333ea 50%, #a21caf 100%)");
    expect(css.body).toContain("@media (prefers-color-scheme: dark)");

    t.clock.advance(60_000);
    const paid = await formPost(`/sandbox/checkout/${session_id}/pay`);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(
      `http://app.test/?payment=success&type=credits&session_id=${session_id}&nav=manage-subscription`,
    );
    expect(await balance(user)).toBe(15 + 275);

    const verified = await verify(user, session_id);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      success: true,
      type: "credits",
      plan_name: "Pro Pack",
      credits_added: 275,
      remaining: 290,
    });
    // Again (a reload of the return page): same report, nothing added.
    expect((await verify(user, session_id)).json().credits_added).toBe(275);
    // A second Pay (back button, double click) returns to the app and adds nothing.
    expect((await formPost(`/sandbox/checkout/${session_id}/pay`)).statusCode).toBe(303);
    expect(await balance(user)).toBe(290);

    const history = await t.app.inject({
      method: "GET",
      url: "/api/credit-history",
      headers: bearer(user.token),
    });
    const transactions = history.json().transactions;
    expect(transactions[0]).toMatchObject({
      transaction_type: "purchase",
      credits_amount: 275,
      balance_after: 290,
      description: "Pro Pack: 275 credits",
    });
    expect(
      transactions.filter((row: { transaction_type: string }) => row.transaction_type === "purchase"),
    ).toHaveLength(1);

    const paidPage = await t.app.inject({ method: "GET", url: `/sandbox/checkout/${session_id}` });
    expect(paidPage.body).toContain("This checkout is paid");
    expect(paidPage.body).not.toContain("/pay");

    const details = await t.app.inject({
      method: "GET",
      url: "/api/subscription-details",
      headers: bearer(user.token),
    });
    expect(details.json()).toEqual({
      billing_type: "pay_as_you_go",
      remaining: 290,
      lifetime_credits: 290,
      last_top_up_at: t.clock.now().toISOString(),
      has_billing_account: true,
    });
  });

  it("Cancel returns to the app with payment=cancelled; the session can no longer be paid or verified", async () => {
    const user = await createUser(t);
    const { session_id } = (await createCheckout(user, { price_id: "pack_starter" })).json();
    const cancelled = await formPost(`/sandbox/checkout/${session_id}/cancel`);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe("http://app.test/?payment=cancelled&nav=manage-subscription");

    const page = await t.app.inject({ method: "GET", url: `/sandbox/checkout/${session_id}` });
    expect(page.body).toContain(PAYMENT_CANCELLED_MESSAGE);
    const pay = await formPost(`/sandbox/checkout/${session_id}/pay`);
    expect(pay.statusCode).toBe(409);
    expect(pay.headers["content-type"]).toContain("text/html");
    const verified = await verify(user, session_id);
    expect(verified.statusCode).toBe(400);
    expect(verified.json().detail).toContain("cancelled");
    expect(await balance(user)).toBe(15);
  });

  it("an unpaid session adds nothing on verify", async () => {
    const user = await createUser(t);
    const { session_id } = (await createCheckout(user, { price_id: "pack_expert" })).json();
    const verified = await verify(user, session_id);
    expect(verified.statusCode).toBe(400);
    expect(verified.json().detail).toMatch(/not been completed/);
    expect(await balance(user)).toBe(15);
  });

  it("another user's session is a 404 and grants nothing to either", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const { session_id } = (await createCheckout(owner, { price_id: "pack_pro" })).json();
    await formPost(`/sandbox/checkout/${session_id}/pay`);
    const res = await verify(other, session_id);
    expect(res.statusCode).toBe(404);
    expect(await balance(other)).toBe(15);
    expect(await balance(owner)).toBe(290);
  });

  it("validates the request: cs_ prefix, known price_id, matching credits_amount, authentication", async () => {
    const user = await createUser(t);
    const notCs = await verify(user, "sess_123");
    expect(notCs.statusCode).toBe(400);
    expect(notCs.json().detail).toContain("cs_");
    expect((await verify(user, "cs_doesnotexist")).statusCode).toBe(404);

    const unknown = await createCheckout(user, { price_id: "price_free_money" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toContain("Unknown price_id");
    const mismatch = await createCheckout(user, { price_id: "pack_starter", credits_amount: 1000 });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().detail).toContain("100 credits");
    const subscription = await createCheckout(user, { price_id: "pack_pro", purchase_type: "subscription" });
    expect(subscription.statusCode).toBe(400);

    for (const [method, url, payload] of [
      ["POST", "/api/payments/create-checkout-session", { price_id: "pack_pro" }],
      ["POST", "/api/payments/verify-session", { session_id: "cs_x" }],
      ["POST", "/api/subscription/manage-billing", undefined],
      ["GET", "/api/subscription-details", undefined],
      ["GET", "/api/credit-history", undefined],
      ["GET", "/api/monthly-activity", undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it("unknown sandbox pages are HTML 404s, not the web app", async () => {
    const res = await t.app.inject({ method: "GET", url: "/sandbox/checkout/cs_sandbox_nothere" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("Checkout not found");
    expect((await t.app.inject({ method: "GET", url: "/sandbox/checkout/<script>" })).statusCode).toBe(404);
  });

  it("the sandbox has no webhook", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain("PAYMENT_PROVIDER=sandbox");
  });
});

describe("manage billing in the sandbox", () => {
  it("says the portal is being set up before the first purchase, then opens the sandbox portal", async () => {
    const user = await createUser(t);
    const manage = () =>
      t.app.inject({ method: "POST", url: "/api/subscription/manage-billing", headers: bearer(user.token) });
    expect((await manage()).json()).toEqual({
      success: false,
      portal_url: null,
      fallback: true,
      message: BILLING_PORTAL_PENDING_MESSAGE,
    });
    const details = await t.app.inject({
      method: "GET",
      url: "/api/subscription-details",
      headers: bearer(user.token),
    });
    expect(details.json()).toMatchObject({
      has_billing_account: false,
      last_top_up_at: null,
      lifetime_credits: 15,
    });

    const { session_id } = (await createCheckout(user, { price_id: "pack_starter" })).json();
    await formPost(`/sandbox/checkout/${session_id}/pay`);
    const opened = (await manage()).json();
    expect(opened).toMatchObject({ success: true, fallback: false });
    expect(opened.portal_url).toMatch(/^http:\/\/app\.test\/sandbox\/portal\//);

    const portal = await t.app.inject({ method: "GET", url: pathOf(opened.portal_url) });
    expect(portal.statusCode).toBe(200);
    expect(portal.body).toContain("Sandbox — no card is charged");
    expect(portal.body).toContain("Starter Pack");
    expect(portal.body).toContain('href="http://app.test/?nav=manage-subscription"');

    // A forged or expired link shows nothing.
    const forged = pathOf(opened.portal_url).replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await t.app.inject({ method: "GET", url: forged })).statusCode).toBe(404);
    t.clock.advance(2 * 60 * 60 * 1000);
    expect((await t.app.inject({ method: "GET", url: pathOf(opened.portal_url) })).statusCode).toBe(404);
  });
});

describe("production guard", () => {
  it("serves no sandbox page, even if a sandbox config slipped past the config check", async () => {
    const user = await createUser(t);
    const { session_id } = (await createCheckout(user, { price_id: "pack_pro" })).json();
    // Config refuses PAYMENT_PROVIDER=sandbox with APP_ENV=production; build such an app by hand anyway.
    await expect(
      buildApp({
        config: { ...t.config, appEnv: "production" },
        database: t.database,
        jobs: t.jobs,
        providers: t.providers,
        storage: t.storage,
        clock: t.clock,
        webDistDir: t.webDistDir,
        logger: false,
      }),
    ).rejects.toThrow(/PAYMENT_PROVIDER=stripe/);
    // And the pages themselves refuse when the environment says production.
    const { sandboxCheckout } = await import("./service");
    const { createSandboxProvider } = await import("./sandbox-provider");
    const provider = createSandboxProvider({ config: t.config, db: t.ctx.db, clock: t.clock });
    await expect(
      sandboxCheckout({ ...t.ctx, config: { ...t.config, appEnv: "production" }, provider }, session_id),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});

// Whatever reaches the billing endpoints (arbitrary JSON, arbitrary bytes, even correctly signed events of any
// shape) the answer is a 2xx or 4xx with a JSON `detail`, never a 5xx, and no credits appear from nowhere.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type StripeFake, startStripeFake } from "../../test/fakes/stripe-fake";

let sandbox: TestApp;
let stripeApp: TestApp;
let stripe: StripeFake;
let sandboxUser: TestUser;
let stripeUser: TestUser;
beforeAll(async () => {
  stripe = await startStripeFake();
  [sandbox, stripeApp] = await Promise.all([createTestApp(), createTestApp({ env: stripe.env })]);
  [sandboxUser, stripeUser] = await Promise.all([createUser(sandbox), createUser(stripeApp)]);
});
afterAll(async () => {
  await Promise.all([sandbox.cleanup(), stripeApp.cleanup()]);
  await stripe.close();
});

function expectClean(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  label: string,
) {
  expect(res.statusCode, `${label} -> ${res.body}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(String(res.headers["content-type"])).toContain("application/json");
    expect(typeof JSON.parse(res.body).detail).toBe("string");
  }
}

const balance = async (t: TestApp, user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining as number;

const authenticated = [
  "/api/payments/create-checkout-session",
  "/api/payments/verify-session",
  "/api/subscription/manage-billing",
];

describe("fuzzing the billing endpoints", () => {
  it.each(authenticated)("POST %s with arbitrary JSON never fails with a 5xx", async (url) => {
    for (const [t, user] of [
      [sandbox, sandboxUser],
      [stripeApp, stripeUser],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (value) => {
          const res = await t.app.inject({
            method: "POST",
            url,
            headers: { ...bearer(user.token), "content-type": "application/json" },
            payload: JSON.stringify(value),
          });
          expectClean(res, `${url} ${JSON.stringify(value)}`);
        }),
        { numRuns: 40 },
      );
    }
  });

  it("field-shaped checkout and verify bodies never fail with a 5xx", async () => {
    const field = fc.oneof(
      fc.string(),
      fc.jsonValue(),
      fc.constantFrom("pack_pro", "starter", "cs_", "cs_test_x", "cs_sandbox_0", 275, -1, 1e308),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { price_id: field, purchase_type: field, credits_amount: field, session_id: field },
          { requiredKeys: [] },
        ),
        async (body) => {
          for (const url of authenticated.slice(0, 2)) {
            const res = await stripeApp.app.inject({
              method: "POST",
              url,
              headers: bearer(stripeUser.token),
              payload: body,
            });
            expectClean(res, `${url} ${JSON.stringify(body)}`);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the webhook answers arbitrary bytes and signatures with a 4xx, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        fc.constantFrom(
          "application/json",
          "text/plain",
          "application/octet-stream",
          "application/x-www-form-urlencoded",
          undefined,
        ),
        async (bytes, signature, contentType) => {
          for (const t of [sandbox, stripeApp]) {
            const res = await t.app.inject({
              method: "POST",
              url: "/api/payments/webhook",
              headers: {
                ...(contentType === undefined ? {} : { "content-type": contentType }),
                ...(signature === undefined ? {} : { "stripe-signature": signature }),
              },
              payload: Buffer.from(bytes),
            });
            expectClean(res, `webhook ${signature}`);
            expect(res.statusCode).toBeGreaterThanOrEqual(400);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("correctly signed events of any shape never fail with a 5xx and never credit anyone", async () => {
    const sessionLike = fc.record(
      {
        id: fc.oneof(fc.string(), fc.constant("cs_test_unknown"), fc.jsonValue()),
        object: fc.constant("checkout.session"),
        status: fc.oneof(fc.constantFrom("open", "complete", "expired"), fc.jsonValue()),
        payment_status: fc.oneof(fc.constant("paid"), fc.jsonValue()),
        client_reference_id: fc.oneof(fc.constant(stripeUser.userId), fc.jsonValue()),
        metadata: fc.oneof(
          fc.record({ pack: fc.constantFrom("pro", "expert"), user_id: fc.string() }),
          fc.jsonValue(),
        ),
        customer: fc.oneof(fc.constant("cus_x"), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    const before = await balance(stripeApp, stripeUser);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "checkout.session.completed",
          "checkout.session.async_payment_succeeded",
          "checkout.session.expired",
          "invoice.paid",
        ),
        fc.oneof(sessionLike, fc.jsonValue()),
        async (type, object) => {
          const event = stripe.signedEvent(type, object);
          const res = await stripeApp.app.inject({
            method: "POST",
            url: "/api/payments/webhook",
            headers: { "content-type": "application/json", "stripe-signature": event.signature },
            payload: event.payload,
          });
          expectClean(res, `${type} ${event.payload}`);
        },
      ),
      { numRuns: 100 },
    );
    // Signed JSON that is not an event at all.
    for (const value of [null, 1, "x", [], { type: 5 }, { type: "checkout.session.completed" }]) {
      const payload = JSON.stringify(value);
      const signature = (await import("stripe")).default.webhooks.generateTestHeaderString({
        payload,
        secret: stripe.webhookSecret,
      });
      const res = await stripeApp.app.inject({
        method: "POST",
        url: "/api/payments/webhook",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        payload,
      });
      expectClean(res, payload);
    }
    expect(await balance(stripeApp, stripeUser)).toBe(before);
  });

  it("sandbox pages answer arbitrary ids with 4xx HTML, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }),
        fc.constantFrom("", "/pay", "/cancel"),
        async (id, action) => {
          const res = await sandbox.app.inject({
            method: action ? "POST" : "GET",
            url: `/sandbox/checkout/${encodeURIComponent(id)}${action}`,
            ...(action
              ? { headers: { "content-type": "application/x-www-form-urlencoded" }, payload: "a=1" }
              : {}),
          });
          expect(res.statusCode, `${id}${action} -> ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    expect(await balance(sandbox, sandboxUser)).toBe(15);
  });
});

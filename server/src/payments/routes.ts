// HTTP for billing: checkout, verify-session, manage-billing and subscription-details for the signed-in
// user; the provider's webhook, which reads its body as raw bytes in its own encapsulated scope (the
// signature covers the exact bytes, so JSON parsing must not touch them); and the sandbox's HTML pages
// (sandbox-routes.ts).
import {
  createCheckoutRequestSchema,
  createCheckoutResponseSchema,
  manageBillingResponseSchema,
  subscriptionDetailsSchema,
  verifySessionRequestSchema,
  verifySessionResponseSchema,
  webhookResponseSchema,
} from "@storyverse/contract/billing";
import { errorBodySchema } from "@storyverse/contract/errors";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import type { RateLimitRule } from "../platform/rate-limit";
import { createPaymentProvider } from "./create-provider";
import { sandboxRoutes } from "./sandbox-routes";
import * as payments from "./service";

const tags = ["billing"];
/** Stripe's events are a few KB; anything near this is not Stripe. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

const MINUTE = 60_000;
const limits = {
  // Each checkout is a call to the payment provider: a loop in a client must not flood it.
  checkout: { name: "checkout-user", limit: 30, windowMs: 10 * MINUTE },
  verify: { name: "verify-payment-user", limit: 120, windowMs: MINUTE },
  portal: { name: "billing-portal-user", limit: 30, windowMs: 10 * MINUTE },
} satisfies Record<string, RateLimitRule>;

export const paymentRoutes: RouteModule<RouteModuleOptions & { webDistDir: string }> = async (
  app,
  { ctx, kit, webDistDir },
) => {
  const provider = createPaymentProvider(ctx);
  const pctx: payments.PaymentsContext = { ...ctx, provider };

  app.get(
    "/api/subscription-details",
    {
      schema: {
        tags,
        summary: "Billing type, balance, lifetime credits, last top-up",
        response: { 200: subscriptionDetailsSchema, 429: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => payments.subscriptionDetails(pctx, currentUser(request).id),
  );

  app.post(
    "/api/payments/create-checkout-session",
    {
      schema: {
        tags,
        summary: "Start paying for a credit pack; the browser goes to checkout_url",
        body: createCheckoutRequestSchema,
        response: { 200: createCheckoutResponseSchema, 429: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(limits.checkout, userId);
      return payments.createCheckout(pctx, userId, request.body);
    },
  );

  app.post(
    "/api/payments/verify-session",
    {
      schema: {
        tags,
        summary: "After the payment return: credit a paid session (once) and report the purchase",
        description:
          "Credits are added once per session, by this call or the webhook, whichever comes first; " +
          "credits_added is the pack's credits on every successful call. An unpaid session is a 400 and adds nothing.",
        body: verifySessionRequestSchema,
        response: {
          200: verifySessionResponseSchema,
          404: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(limits.verify, userId);
      return payments.verifySession(pctx, userId, request.body.session_id);
    },
  );

  app.post(
    "/api/subscription/manage-billing",
    {
      schema: {
        tags,
        summary: "A billing portal link, or fallback with a message when there is no billing account yet",
        response: { 200: manageBillingResponseSchema, 429: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(limits.portal, userId);
      return payments.manageBilling(pctx, userId);
    },
  );

  // Encapsulated: the raw-bytes parser below applies to this route only; every other route keeps JSON.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/payments/webhook",
      {
        config: { public: true },
        schema: {
          tags,
          summary: "Payment provider events (Stripe-Signature checked on the raw body)",
          response: { 200: webhookResponseSchema, 400: errorBodySchema, 413: errorBodySchema },
        },
      },
      async (request) => {
        const signature = request.headers["stripe-signature"];
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return payments.handleWebhook(pctx, body, typeof signature === "string" ? signature : undefined);
      },
    );
  });

  await app.register(sandboxRoutes, { ctx: pctx, webDistDir });
};

// Stripe Checkout through the official SDK (../shared/providers.md "Stripe"): one-time payment sessions with
// inline price_data, the session lookup, the billing portal, and webhook verification on the raw bytes.
import Stripe from "stripe";
import { z } from "zod";
import type { PaymentsConfig } from "../config";
import type { Logger } from "../context";
import {
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderUnavailable,
  type ProviderSession,
  WebhookRejected,
} from "./provider";

/** Stripe's own default; an older signature is treated as a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

type StripeSettings = Extract<PaymentsConfig, { provider: "stripe" }>;

export function createStripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    ...(settings.apiBase ?? {}),
    // A hung vendor must not hold a checkout request forever; the SDK retries idempotently on its own.
    timeout: 20_000,
    maxNetworkRetries: 2,
    telemetry: false,
    appInfo: { name: "Storyverse" },
  });
}

/**
 * The fields of a checkout session we act on. Webhook bodies are checked against it even when correctly
 * signed: a signature proves who sent the bytes, not that they have the shape this code expects.
 */
const sessionSchema = z.object({
  id: z.string().min(1),
  status: z.string().nullish(),
  payment_status: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  customer: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
});
const eventSchema = z.object({ type: z.string(), data: z.object({ object: z.unknown() }) });

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

function toProviderSession(session: z.infer<typeof sessionSchema>): ProviderSession {
  const customer = session.customer;
  return {
    id: session.id,
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    paid: session.payment_status === "paid",
    userId: text(session.client_reference_id) ?? text(session.metadata?.user_id),
    packId: text(session.metadata?.pack),
    customerId: customer == null ? null : typeof customer === "string" ? customer : customer.id,
  };
}

/** Logs what Stripe said (for the operator) and answers the user without vendor internals. */
function unavailable(log: Logger, action: string, error: unknown): PaymentProviderUnavailable {
  const stripeError = error instanceof Stripe.errors.StripeError ? error : undefined;
  log.error(
    {
      err: error,
      stripe: stripeError && {
        type: stripeError.type,
        code: stripeError.code,
        statusCode: stripeError.statusCode,
        requestId: stripeError.requestId,
      },
    },
    `stripe: ${action} failed`,
  );
  return new PaymentProviderUnavailable();
}

export function createStripeProvider(settings: StripeSettings, log: Logger): PaymentProvider {
  const stripe = createStripeClient(settings);

  return {
    kind: "stripe",

    async createCheckout(input) {
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "payment",
        line_items: [
          {
            price_data: {
              currency: "usd",
              unit_amount: input.pack.price_usd * 100,
              product_data: {
                name: input.pack.name,
                description: `${input.pack.credits} Storyverse credits, never expire`,
              },
            },
            quantity: 1,
          },
        ],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: input.userId,
        metadata: { pack: input.pack.id, user_id: input.userId },
        // A returning buyer keeps one customer (one billing portal); a first purchase creates it.
        ...(input.customerId ? { customer: input.customerId } : { customer_creation: "always" as const }),
      };
      try {
        const session = await stripe.checkout.sessions.create(params);
        if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
        return { id: session.id, url: session.url };
      } catch (error) {
        throw unavailable(log, "create checkout session", error);
      }
    },

    async retrieveSession(id) {
      try {
        return toProviderSession(sessionSchema.parse(await stripe.checkout.sessions.retrieve(id)));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
          return undefined;
        }
        throw unavailable(log, "retrieve checkout session", error);
      }
    },

    async createPortal({ customerId, returnUrl }) {
      try {
        const portal = await stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl,
        });
        return portal.url;
      } catch (error) {
        throw unavailable(log, "create billing portal session", error);
      }
    },

    parseWebhook(rawBody, signature, receivedAt): PaymentEvent {
      if (!signature) throw new WebhookRejected("Missing Stripe-Signature header");
      let verified: unknown;
      try {
        verified = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          receivedAt.getTime(),
        );
      } catch (error) {
        // The reason (bad signature, timestamp outside the tolerance) is for the log, not the caller.
        log.warn({ err: error }, "stripe: webhook rejected");
        throw new WebhookRejected(
          error instanceof Stripe.errors.StripeSignatureVerificationError
            ? "Invalid webhook signature"
            : "Malformed webhook body",
        );
      }
      const event = eventSchema.safeParse(verified);
      if (!event.success) throw new WebhookRejected("Malformed webhook body");
      const { type } = event.data;
      if (
        type !== "checkout.session.completed" &&
        type !== "checkout.session.async_payment_succeeded" &&
        type !== "checkout.session.expired"
      ) {
        return { kind: "ignored", type };
      }
      const parsed = sessionSchema.safeParse(event.data.data.object);
      if (!parsed.success) {
        log.warn(
          { type, issues: parsed.error.issues },
          "stripe: signed event without a usable session: ignored",
        );
        return { kind: "ignored", type };
      }
      const session = toProviderSession(parsed.data);
      if (type === "checkout.session.expired") return { kind: "session_expired", sessionId: session.id };
      // A completed session can still be waiting for a bank payment: only "paid" is credited.
      return session.paid ? { kind: "session_paid", session } : { kind: "ignored", type };
    },
  };
}

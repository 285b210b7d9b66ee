// The seam between the billing service and whoever takes the money: Stripe Checkout in production, the
// app's own sandbox page locally. The service never sees a vendor type; it sees these few shapes.
import type { CreditPack } from "@storyverse/contract/billing";
import { InvalidInput, ProviderFailed } from "../platform/errors";

export type PaymentProviderKind = "stripe" | "sandbox";

export type CheckoutInput = {
  userId: string;
  pack: CreditPack;
  /** May contain Stripe's `{CHECKOUT_SESSION_ID}` template, which the provider fills in. */
  successUrl: string;
  cancelUrl: string;
  /** The provider's customer for this user, when one exists (so purchases share one billing account). */
  customerId: string | null;
};

/** The provider's view of one checkout session. */
export type ProviderSession = {
  id: string;
  status: "open" | "complete" | "expired";
  /** Money has arrived (Stripe's payment_status === "paid"). */
  paid: boolean;
  /** client_reference_id (or metadata.user_id) as the provider recorded it. */
  userId: string | null;
  /** metadata.pack as the provider recorded it. */
  packId: string | null;
  customerId: string | null;
};

/** A verified webhook, reduced to what the service acts on. */
export type PaymentEvent =
  | { kind: "session_paid"; session: ProviderSession }
  | { kind: "session_expired"; sessionId: string }
  | { kind: "ignored"; type: string };

export type PaymentProvider = {
  readonly kind: PaymentProviderKind;
  createCheckout: (input: CheckoutInput) => Promise<{ id: string; url: string }>;
  /** undefined when the provider does not know the id. */
  retrieveSession: (id: string) => Promise<ProviderSession | undefined>;
  /** A URL of the provider's billing portal for this customer, which returns to `returnUrl`. */
  createPortal: (input: { customerId: string; userId: string; returnUrl: string }) => Promise<string>;
  /**
   * Checks the signature on the raw request bytes and parses the event; throws WebhookRejected.
   * `receivedAt` is the app clock's now, so the replay tolerance follows it.
   */
  parseWebhook: (rawBody: Buffer, signature: string | undefined, receivedAt: Date) => PaymentEvent;
};

/** A webhook that is unsigned, signed with another secret, tampered with or too old. */
export class WebhookRejected extends InvalidInput {}

/** The provider failed or refused; the log has its own words, the user gets these. */
export class PaymentProviderUnavailable extends ProviderFailed {
  constructor(detail = "The payment service is not available right now. Please try again in a moment.") {
    super(detail);
  }
}

// Credit packs and the billing API (checkout, payment return, billing portal, history, monthly activity): the
// packs are defined here once, for the server's checkout and the web's Top Up cards.
import { z } from "zod";

export const CREDIT_PACKS = [
  {
    id: "starter",
    price_id: "pack_starter",
    name: "Starter Pack",
    price_usd: 10,
    credits: 100,
    bonus_credits: 0,
  },
  { id: "pro", price_id: "pack_pro", name: "Pro Pack", price_usd: 25, credits: 275, bonus_credits: 25 },
  {
    id: "expert",
    price_id: "pack_expert",
    name: "Expert Pack",
    price_usd: 50,
    credits: 600,
    bonus_credits: 100,
  },
] as const;
export type CreditPack = (typeof CREDIT_PACKS)[number];

export const findPack = (priceId: string): CreditPack | undefined =>
  CREDIT_PACKS.find((pack) => pack.price_id === priceId || pack.id === priceId);

export const BILLING_TYPE = "pay_as_you_go";
export const BILLING_TYPE_LABEL = "Pay as you go";
export const PAYMENT_CANCELLED_MESSAGE = "Payment was cancelled. You can try again anytime.";
/** Checkout session ids of both providers start with this; the web ignores a payment return without one. */
export const CHECKOUT_SESSION_PREFIX = "cs_";
/** Manage Billing for someone who has never bought a pack: there is no billing account yet. */
export const BILLING_PORTAL_PENDING_MESSAGE =
  "Your billing portal is being set up: it opens after your first credit purchase.";
/** Manage Billing right after a purchase, before the provider has reported the new billing account. */
export const BILLING_ACCOUNT_SETTING_UP_MESSAGE = "Setting up your billing account. Please try again.";

/** Ledger transaction types beside usage_<kind> (credits module) that the billing pages name. */
export const TRANSACTION_TYPES = {
  signupBonus: "signup_bonus",
  purchase: "purchase",
  adminGrant: "admin_grant",
  /** An administrator took credits back (a negative grant, with its reason). */
  adminTakeBack: "admin_take_back",
  refund: "refund",
} as const;
/** Every charge is logged as usage_<kind> (usage_chat, usage_image, usage_video, usage_advisor ...). */
export const USAGE_TRANSACTION_PREFIX = "usage_";
/** The usage kind of a Studio image batch: priced as images, kept apart from story turns in the ledger. */
export const STUDIO_IMAGE_USAGE = "studio_image";

/** The `nav` value both providers send the browser back with: it opens the Credits page. */
export const PAYMENT_RETURN_NAV = "manage-subscription";

// --- GET /api/credit-history ---

export const CREDIT_HISTORY_DEFAULT_LIMIT = 50;
export const CREDIT_HISTORY_MAX_LIMIT = 100;

export const creditHistoryQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, `limit must be between 1 and ${CREDIT_HISTORY_MAX_LIMIT}`)
    .max(CREDIT_HISTORY_MAX_LIMIT, `limit must be between 1 and ${CREDIT_HISTORY_MAX_LIMIT}`)
    .default(CREDIT_HISTORY_DEFAULT_LIMIT),
  before: z.uuid("before must be the id of a transaction from an earlier page").optional(),
});
export type CreditHistoryQuery = z.infer<typeof creditHistoryQuerySchema>;

export const creditTransactionSchema = z.object({
  id: z.string(),
  transaction_type: z
    .string()
    .describe("signup_bonus, purchase, admin_grant, refund, or usage_<kind> (usage_chat, usage_image ...)"),
  credits_amount: z
    .number()
    .describe("Signed, in credits, decimals kept: +275 for a Pro Pack, -0.5 for a chat"),
  description: z.string(),
  created_at: z.string(),
  balance_after: z.number().describe("The balance in credits right after this transaction"),
});
export type CreditTransaction = z.infer<typeof creditTransactionSchema>;

export const creditHistoryResponseSchema = z.object({
  success: z.literal(true),
  transactions: z.array(creditTransactionSchema).describe("Newest first"),
  has_more: z.boolean().describe("True when older transactions exist: pass the last id as `before`"),
});
export type CreditHistoryResponse = z.infer<typeof creditHistoryResponseSchema>;

// --- GET /api/monthly-activity ---

export const monthlyActivitySchema = z.object({
  chat_interactions: z
    .number()
    .int()
    .describe("Charged AI requests this month (chat turns in any mode, advisor)"),
  images_generated: z.number().int(),
  videos_generated: z.number().int(),
  stories_created: z.number().int(),
  total_credits_used: z.number().describe("Credits spent this month, net of refunds, decimals kept"),
  month: z.string().describe("The calendar month counted, in UTC, as YYYY-MM"),
});
export type MonthlyActivity = z.infer<typeof monthlyActivitySchema>;

// --- GET /api/subscription-details ---

export const subscriptionDetailsSchema = z.object({
  billing_type: z.literal(BILLING_TYPE),
  remaining: z.number().describe("-1 means unlimited"),
  lifetime_credits: z
    .number()
    .describe("Every credit ever added: signup bonus, purchases, grants (not refunds)"),
  last_top_up_at: z.string().nullable().describe("When the last pack was bought, or null"),
  has_billing_account: z.boolean().describe("True once the payment provider knows a customer for this user"),
});
export type SubscriptionDetails = z.infer<typeof subscriptionDetailsSchema>;

// --- POST /api/payments/create-checkout-session ---

export const createCheckoutRequestSchema = z.object({
  price_id: z.string().min(1, "price_id is required").max(100).describe("A pack's price_id (or id)"),
  purchase_type: z
    .enum(["credits"], { error: "purchase_type must be credits: only one-time credit packs are sold" })
    .default("credits"),
  credits_amount: z.number().positive().optional().describe("When given, must equal the pack's credits"),
});
export type CreateCheckoutRequest = z.input<typeof createCheckoutRequestSchema>;

export const createCheckoutResponseSchema = z.object({
  checkout_url: z.string().describe("Where the browser goes to pay"),
  session_id: z.string().describe("cs_..."),
});
export type CreateCheckoutResponse = z.infer<typeof createCheckoutResponseSchema>;

// --- POST /api/payments/verify-session ---

export const verifySessionRequestSchema = z.object({
  session_id: z
    .string()
    .max(255, "session_id is too long")
    .regex(/^cs_[A-Za-z0-9_]+$/, "session_id must be a checkout session id starting with cs_"),
});
export type VerifySessionRequest = z.infer<typeof verifySessionRequestSchema>;

export const verifySessionResponseSchema = z.object({
  success: z.literal(true),
  type: z.literal("credits"),
  plan_name: z.string().describe("The pack's name, e.g. Pro Pack"),
  credits_added: z
    .number()
    .describe("The pack's credits; the same on every call, whether this call or an earlier one added them"),
  remaining: z.number().describe("The balance after the purchase (-1 means unlimited)"),
});
export type VerifySessionResponse = z.infer<typeof verifySessionResponseSchema>;

// --- POST /api/subscription/manage-billing ---

export const manageBillingResponseSchema = z.object({
  success: z.boolean(),
  portal_url: z.string().nullable(),
  fallback: z.boolean().describe("True when there is no portal to open yet; `message` says why"),
  message: z.string().optional(),
});
export type ManageBillingResponse = z.infer<typeof manageBillingResponseSchema>;

// --- POST /api/payments/webhook ---

export const webhookResponseSchema = z.object({ received: z.literal(true) });

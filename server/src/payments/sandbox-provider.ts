// The sandbox payment provider (the local default): checkout sessions live only in our payment_sessions table
// and are paid on the app's own page (/sandbox/checkout/:id), where no card is charged. It mirrors Stripe's
// shape (cs_ ids, the same return URLs, a billing portal) so the web app cannot tell the two apart.
// Never available with APP_ENV=production: config refuses it, and createSandboxProvider refuses again.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import type { Queryable } from "../db/client";
import type { Clock } from "../platform/clock";
import type { PaymentProvider, ProviderSession } from "./provider";
import { WebhookRejected } from "./provider";
import { findBillingCustomer, findPaymentSession } from "./repo";

export const SANDBOX_SESSION_PREFIX = "cs_sandbox_";
export const SANDBOX_CUSTOMER_PREFIX = "cus_sandbox_";
/** A portal link works for an hour, like a Stripe portal session's short life. */
const PORTAL_LINK_TTL_SECONDS = 60 * 60;

export const newSandboxSessionId = () => `${SANDBOX_SESSION_PREFIX}${randomBytes(16).toString("hex")}`;
export const newSandboxCustomerId = () => `${SANDBOX_CUSTOMER_PREFIX}${randomBytes(8).toString("hex")}`;

export const sandboxCheckoutPath = (sessionId: string) => `/sandbox/checkout/${sessionId}`;

type SandboxContext = {
  config: Pick<Config, "appUrl" | "appEnv" | "sessionSecret">;
  db: Queryable;
  clock: Clock;
};

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`sandbox-portal:${payload}`).digest("base64url");
}

/** A link to the sandbox portal that names the user, signed and expiring (the page has no bearer token). */
export function portalToken(ctx: SandboxContext, userId: string): string {
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + PORTAL_LINK_TTL_SECONDS;
  const payload = `${userId}.${expires}`;
  return `${payload}.${sign(ctx.config.sessionSecret, payload)}`;
}

/** The user a portal token was made for, or undefined when it is forged, malformed or expired. */
export function readPortalToken(ctx: SandboxContext, token: string): string | undefined {
  const [userId, expires, signature] = token.split(".");
  if (!userId || !expires || !signature || !/^\d+$/.test(expires)) return undefined;
  const expected = Buffer.from(sign(ctx.config.sessionSecret, `${userId}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if (Number(expires) * 1000 < ctx.clock.now().getTime()) return undefined;
  return userId;
}

export function createSandboxProvider(ctx: SandboxContext): PaymentProvider {
  if (ctx.config.appEnv === "production") {
    throw new Error(
      "The sandbox payment provider is refused when APP_ENV=production (set PAYMENT_PROVIDER=stripe)",
    );
  }
  return {
    kind: "sandbox",

    async createCheckout() {
      const id = newSandboxSessionId();
      return { id, url: `${ctx.config.appUrl}${sandboxCheckoutPath(id)}` };
    },

    async retrieveSession(id): Promise<ProviderSession | undefined> {
      const row = await findPaymentSession(ctx.db, id);
      if (row?.provider !== "sandbox") return undefined;
      const customer = await findBillingCustomer(ctx.db, row.userId, "sandbox");
      return {
        id: row.id,
        status: row.status === "paid" ? "complete" : row.status === "open" ? "open" : "expired",
        paid: row.status === "paid",
        userId: row.userId,
        packId: row.packId,
        customerId: row.customerId ?? customer?.customerId ?? null,
      };
    },

    async createPortal({ userId }) {
      return `${ctx.config.appUrl}/sandbox/portal/${portalToken(ctx, userId)}`;
    },

    parseWebhook() {
      throw new WebhookRejected(
        "No payment webhooks are accepted: the sandbox (PAYMENT_PROVIDER=sandbox) settles purchases on its own checkout page",
      );
    },
  };
}

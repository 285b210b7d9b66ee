// Picks the payment provider from configuration (PAYMENT_PROVIDER), like createProviders does for the AI.
import type { AppContext } from "../context";
import type { PaymentProvider } from "./provider";
import { createSandboxProvider } from "./sandbox-provider";
import { createStripeProvider } from "./stripe-provider";

export function createPaymentProvider(
  ctx: Pick<AppContext, "config" | "db" | "clock" | "log">,
): PaymentProvider {
  const settings = ctx.config.payments;
  return settings.provider === "stripe"
    ? createStripeProvider(settings, ctx.log)
    : createSandboxProvider({ config: ctx.config, db: ctx.db, clock: ctx.clock });
}

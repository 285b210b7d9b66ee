// Rate limits on the account endpoints (per client address, and per account where one is named).
import type { RateLimitRule } from "../platform/rate-limit";

const MINUTE = 60_000;

export const accountLimits = {
  loginPerAddress: { name: "login-address", limit: 30, windowMs: 15 * MINUTE },
  loginPerAccount: { name: "login-account", limit: 10, windowMs: 15 * MINUTE },
  registerPerAddress: { name: "register-address", limit: 10, windowMs: 60 * MINUTE },
  availabilityPerAddress: { name: "availability-address", limit: 120, windowMs: MINUTE },
  forgotPerAddress: { name: "forgot-address", limit: 10, windowMs: 60 * MINUTE },
  forgotPerAccount: { name: "forgot-account", limit: 5, windowMs: 60 * MINUTE },
  resendPerAddress: { name: "resend-address", limit: 10, windowMs: 60 * MINUTE },
  resendPerAccount: { name: "resend-account", limit: 5, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimitRule>;

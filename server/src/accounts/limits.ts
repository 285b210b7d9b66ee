// Rate limits on the account endpoints: per client address, and per account where one is named. Account
// buckets are keyed so that a stranger cannot spend the owner's allowance: sign-in counts failures per user
// id, and mail requests count per account and address together. Addresses are counted by bucket (an IPv6
// /64 is one address; see platform/rate-limit.ts).
import type { RateLimitRule } from "../platform/rate-limit";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const accountLimits = {
  loginPerAddress: { name: "login-address", limit: 30, windowMs: 15 * MINUTE },
  /** Wrong passwords for one account (by user id, whether named by email or username). */
  loginFailuresPerAccount: { name: "login-failures-account", limit: 10, windowMs: 15 * MINUTE },
  /**
   * The same failure count, at a second threshold: past it the account refuses every address that has not
   * signed in to it within `loginKnownAddress`'s window (or used a reset link for it), whatever its own
   * record. Guessers holding many addresses (many /64s) then get this many tries a window in all.
   */
  loginFailuresPerAccountStrangers: {
    name: "login-failures-account",
    limit: 50,
    windowMs: 15 * MINUTE,
    detail: (wait) =>
      `This account has had too many wrong passwords. Please sign in from a device you have used before, wait ${wait}, or reset your password.`,
  },
  /** Addresses that signed in to an account (or reset its password), keyed by user id and address. */
  loginKnownAddress: { name: "login-known-address", limit: 1, windowMs: 14 * DAY },
  /** Wrong sign-ins from one address; an address with none may still try a locked account. */
  loginFailuresPerAddress: { name: "login-failures-address", limit: 30, windowMs: 15 * MINUTE },
  registerPerAddress: { name: "register-address", limit: 10, windowMs: 60 * MINUTE },
  availabilityPerAddress: { name: "availability-address", limit: 120, windowMs: MINUTE },
  forgotPerAddress: { name: "forgot-address", limit: 10, windowMs: 60 * MINUTE },
  forgotPerAccountAndAddress: { name: "forgot-account-address", limit: 5, windowMs: 60 * MINUTE },
  /** Mails actually sent per account; over it the answer stays the same and the last link stays live. */
  forgotMailsPerAccount: { name: "forgot-mails-account", limit: 10, windowMs: 60 * MINUTE },
  /**
   * Mails to one account however many addresses ask: once the per-account allowance is spent, an address
   * asking for the first time still gets its mail (the owner, locked out by strangers), up to this cap.
   */
  mailsPerAccountHardCap: { name: "mails-account-cap", limit: 30, windowMs: 60 * MINUTE },
  resendPerAddress: { name: "resend-address", limit: 10, windowMs: 60 * MINUTE },
  resendPerAccountAndAddress: { name: "resend-account-address", limit: 5, windowMs: 60 * MINUTE },
  resendMailsPerAccount: { name: "resend-mails-account", limit: 10, windowMs: 60 * MINUTE },
  /** Link checks: each one is a database lookup, and a reset also costs a password hash. */
  resetPerAddress: { name: "reset-address", limit: 20, windowMs: 15 * MINUTE },
  verifyPerAddress: { name: "verify-address", limit: 30, windowMs: 15 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/** The per-address rules, which the operator scales by `ADDRESS_LIMITS_FACTOR` (sign-ups have their own). */
const perAddressRules = [
  "loginPerAddress",
  "loginFailuresPerAddress",
  "availabilityPerAddress",
  "forgotPerAddress",
  "resendPerAddress",
  "resetPerAddress",
  "verifyPerAddress",
] as const;

export type AccountLimits = typeof accountLimits;

/** The account limits with each per-address allowance multiplied by `factor`. */
export function accountLimitsFor(factor: number): AccountLimits {
  const scaled = { ...accountLimits };
  for (const key of perAddressRules)
    scaled[key] = { ...accountLimits[key], limit: accountLimits[key].limit * factor };
  return scaled;
}

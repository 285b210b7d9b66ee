// The words of sign-in by OIDC (decision 0147): a refusal said in the app's own words, picked by the landing's
// `reason` and `code` (the fragment's text is never shown: anyone could put words in a link), and a refused
// link password.
import type { OidcRefusal } from "@storyverse/contract/accounts";
import { ApiError } from "../../lib/api-errors";
import { authErrorMessage } from "./auth-rules";

/** When the server has not said (an old server or a provider that answered nothing), this stands. */
export const PROVIDER_FALLBACK_NAME = "single sign-on";

const REFUSALS: Record<OidcRefusal, (name: string) => string> = {
  provider_error: (name) => `${name} did not sign you in. Please try again.`,
  state_mismatch: () =>
    "This sign-in was not started in this browser, or it took too long. Please try again from this page.",
  untrusted_answer: (name) =>
    `${name}'s answer could not be verified, so you were not signed in. Please try again.`,
  domain_not_allowed: (name) =>
    `Signing in with ${name} is open to some email domains only, and your account's is not one of them.`,
  email_unverified: (name) =>
    `${name} has not confirmed your email address, so it cannot be used to sign in here. Confirm it with ${name} first.`,
  registration_off: (name) =>
    `There is no Storyverse account for your email address, and new accounts cannot be opened by signing in with ${name}. Please ask the site's administrator.`,
};

export const DISABLED_ACCOUNT_MESSAGE =
  "This account has been disabled. Please contact the site's administrator.";

/** Why a sign-in by OIDC was refused, in words a person can act on. */
export function refusalMessage(reason: string | null, code: string | null, providerName: string): string {
  if (code === "account_disabled") return DISABLED_ACCOUNT_MESSAGE;
  const words = reason !== null && Object.hasOwn(REFUSALS, reason) ? REFUSALS[reason as OidcRefusal] : null;
  return words ? words(providerName) : `Signing in with ${providerName} did not work. Please try again.`;
}

/** A refused link: a wrong password in the link's own words, else the server's detail. */
export function linkErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) {
    return "That is not this account's password. Please try again.";
  }
  return authErrorMessage(error);
}

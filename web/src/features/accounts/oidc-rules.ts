// The words of sign-in by OIDC (decision 0147): a refusal said in the app's own words, picked by the landing's
// `reason` and `code` (the fragment's text is never shown: anyone could put words in a link), and a refused
// link password. All in the interface's language (decision 0155).
import { OIDC_REFUSALS, type OidcRefusal } from "@storyverse/contract/accounts";
import { i18n } from "../../i18n/i18n";
import { ApiError } from "../../lib/api-errors";
import { authErrorMessage } from "./auth-rules";

/** When the server has not said (an old server or a provider that answered nothing), this stands. */
export const providerFallbackName = (): string => i18n.t("accounts:oidc.providerFallbackName");

function isRefusal(reason: string | null): reason is OidcRefusal {
  return reason !== null && (OIDC_REFUSALS as readonly string[]).includes(reason);
}

export const disabledAccountMessage = (): string => i18n.t("accounts:oidc.accountDisabled");

/** Why a sign-in by OIDC was refused, in words a person can act on. */
export function refusalMessage(reason: string | null, code: string | null, providerName: string): string {
  if (code === "account_disabled") return disabledAccountMessage();
  const name = providerName;
  return isRefusal(reason)
    ? i18n.t(`accounts:oidc.refusals.${reason}`, { name })
    : i18n.t("accounts:oidc.refusals.fallback", { name });
}

/** A refused link: a wrong password in the link's own words, else the server's detail. */
export function linkErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return i18n.t("accounts:oidc.wrongLinkPassword");
  return authErrorMessage(error);
}

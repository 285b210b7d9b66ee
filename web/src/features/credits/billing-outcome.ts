// What Manage Billing does with the server's answer: go to the portal, say why
// there is none yet, or report the failure, in the interface's language (the server's words through
// translateServerMessage).
import {
  BILLING_ACCOUNT_SETTING_UP_MESSAGE,
  BILLING_PORTAL_PENDING_MESSAGE,
  type ManageBillingResponse,
} from "@storyverse/contract/billing";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";

export type BillingOutcome =
  | { kind: "redirect"; url: string }
  /** No portal yet: 'billing portal being set up' or 'Setting up your billing account. Please try again.' */
  | { kind: "notice"; message: string }
  | { kind: "error"; message: string };

export function manageBillingOutcome(response: ManageBillingResponse): BillingOutcome {
  if (response.success && response.portal_url) return { kind: "redirect", url: response.portal_url };
  if (response.fallback) {
    return {
      kind: "notice",
      message: translateServerMessage(response.message || BILLING_PORTAL_PENDING_MESSAGE),
    };
  }
  if (response.success) {
    return { kind: "notice", message: translateServerMessage(BILLING_ACCOUNT_SETTING_UP_MESSAGE) };
  }
  const reason = response.message
    ? translateServerMessage(response.message)
    : i18n.t("credits:billing.noAnswer");
  return { kind: "error", message: i18n.t("credits:billing.portalFailed", { message: reason }) };
}

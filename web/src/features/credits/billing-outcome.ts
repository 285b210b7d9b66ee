// What Manage Billing does with the server's answer: go to the portal, say why
// there is none yet, or report the failure.
import {
  BILLING_ACCOUNT_SETTING_UP_MESSAGE,
  BILLING_PORTAL_PENDING_MESSAGE,
  type ManageBillingResponse,
} from "@storyverse/contract/billing";

export type BillingOutcome =
  | { kind: "redirect"; url: string }
  /** No portal yet: 'billing portal being set up' or 'Setting up your billing account. Please try again.' */
  | { kind: "notice"; message: string }
  | { kind: "error"; message: string };

export function manageBillingOutcome(response: ManageBillingResponse): BillingOutcome {
  if (response.success && response.portal_url) return { kind: "redirect", url: response.portal_url };
  if (response.fallback) {
    return { kind: "notice", message: response.message || BILLING_PORTAL_PENDING_MESSAGE };
  }
  if (response.success) return { kind: "notice", message: BILLING_ACCOUNT_SETTING_UP_MESSAGE };
  return {
    kind: "error",
    message: `Unable to access billing portal: ${response.message || "the billing portal did not answer"}`,
  };
}

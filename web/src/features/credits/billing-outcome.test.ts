import {
  BILLING_ACCOUNT_SETTING_UP_MESSAGE,
  BILLING_PORTAL_PENDING_MESSAGE,
} from "@storyverse/contract/billing";
import { describe, expect, it } from "vitest";
import { manageBillingOutcome } from "./billing-outcome";
import { safeRedirectUrl } from "./components/redirect";

describe("Manage Billing", () => {
  it("goes to the portal when there is one", () => {
    expect(
      manageBillingOutcome({ success: true, portal_url: "https://billing.example/p/1", fallback: false }),
    ).toEqual({
      kind: "redirect",
      url: "https://billing.example/p/1",
    });
  });

  it("says the portal is being set up when there is no billing account yet", () => {
    expect(BILLING_PORTAL_PENDING_MESSAGE).toContain("billing portal is being set up");
    expect(
      manageBillingOutcome({
        success: false,
        portal_url: null,
        fallback: true,
        message: BILLING_PORTAL_PENDING_MESSAGE,
      }),
    ).toEqual({ kind: "notice", message: BILLING_PORTAL_PENDING_MESSAGE });
    expect(manageBillingOutcome({ success: false, portal_url: null, fallback: true })).toEqual({
      kind: "notice",
      message: BILLING_PORTAL_PENDING_MESSAGE,
    });
    expect(
      manageBillingOutcome({
        success: false,
        portal_url: null,
        fallback: true,
        message: BILLING_ACCOUNT_SETTING_UP_MESSAGE,
      }),
    ).toEqual({ kind: "notice", message: "Setting up your billing account. Please try again." });
  });

  it("reports a refusal as 'Unable to access billing portal: {message}'", () => {
    expect(
      manageBillingOutcome({ success: false, portal_url: null, fallback: false, message: "Stripe is down" }),
    ).toEqual({
      kind: "error",
      message: "Unable to access billing portal: Stripe is down",
    });
  });
});

describe("safeRedirectUrl", () => {
  it("follows http(s) only", () => {
    expect(safeRedirectUrl("https://checkout.stripe.com/c/pay/cs_1", "http://app.test")).toBe(
      "https://checkout.stripe.com/c/pay/cs_1",
    );
    expect(safeRedirectUrl("/sandbox/checkout/cs_1", "http://app.test")).toBe(
      "http://app.test/sandbox/checkout/cs_1",
    );
    expect(safeRedirectUrl("javascript:alert(1)", "http://app.test")).toBeNull();
    expect(safeRedirectUrl("data:text/html,hi", "http://app.test")).toBeNull();
  });
});

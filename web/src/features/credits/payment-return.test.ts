import {
  PAYMENT_RETURN_NAV as CONTRACT_NAV,
  CHECKOUT_SESSION_PREFIX as CONTRACT_PREFIX,
} from "@storyverse/contract/billing";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT_SESSION_PREFIX,
  captureStartupPaymentReturn,
  isCheckoutSessionId,
  PAYMENT_RETURN_NAV,
  parsePaymentReturn,
  resetPaymentReturnForTests,
  restorePendingPaymentReturn,
  stripPaymentReturnParams,
  takePendingPaymentReturn,
} from "./payment-return";

const SUCCESS = "?payment=success&type=credits&session_id=cs_test_a1B2&nav=manage-subscription";
const CANCELLED = "?payment=cancelled&nav=manage-subscription";

describe("parsePaymentReturn", () => {
  it("reads a paid return with its checkout session", () => {
    expect(parsePaymentReturn(SUCCESS)).toEqual({
      kind: "success",
      sessionId: "cs_test_a1B2",
      type: "credits",
    });
  });

  it("defaults the type to credits", () => {
    expect(parsePaymentReturn("?payment=success&session_id=cs_1")).toEqual({
      kind: "success",
      sessionId: "cs_1",
      type: "credits",
    });
  });

  it("refuses a session id that does not start with cs_", () => {
    for (const id of [
      "",
      "pi_123",
      "CS_123",
      "xcs_1",
      "cs_",
      "cs_a/../b",
      "cs_<script>",
      `cs_${"a".repeat(300)}`,
    ]) {
      expect(parsePaymentReturn(`?payment=success&session_id=${encodeURIComponent(id)}`)).toEqual({
        kind: "invalid-session",
      });
    }
    expect(parsePaymentReturn("?payment=success")).toEqual({ kind: "invalid-session" });
  });

  it("reads a cancelled return", () => {
    expect(parsePaymentReturn(CANCELLED)).toEqual({ kind: "cancelled" });
    expect(parsePaymentReturn("?payment=cancelled")).toEqual({ kind: "cancelled" });
  });

  it("opens the Credits page for nav=manage-subscription alone (back from the billing portal)", () => {
    expect(parsePaymentReturn("?nav=manage-subscription")).toEqual({ kind: "open" });
    expect(parsePaymentReturn("?payment=weird")).toEqual({ kind: "open" });
  });

  it("ignores any other query string", () => {
    expect(parsePaymentReturn("")).toBeNull();
    expect(parsePaymentReturn("?token=abc")).toBeNull();
    expect(parsePaymentReturn("?nav=stories")).toBeNull();
  });
});

describe("isCheckoutSessionId", () => {
  it("accepts the ids both providers make", () => {
    expect(isCheckoutSessionId("cs_test_a1B2c3")).toBe(true);
    expect(isCheckoutSessionId("cs_live_Zz9")).toBe(true);
    expect(isCheckoutSessionId("cs_sandbox_0123abcd")).toBe(true);
  });

  it("refuses everything else", () => {
    expect(isCheckoutSessionId(null)).toBe(false);
    expect(isCheckoutSessionId(undefined)).toBe(false);
    expect(isCheckoutSessionId("sub_123")).toBe(false);
    expect(isCheckoutSessionId("cs_ 1")).toBe(false);
  });

  it("mirrors the contract's constants", () => {
    expect(CHECKOUT_SESSION_PREFIX).toBe(CONTRACT_PREFIX);
    expect(PAYMENT_RETURN_NAV).toBe(CONTRACT_NAV);
  });
});

describe("stripPaymentReturnParams", () => {
  it("removes payment, type, session_id and nav, and keeps the rest", () => {
    expect(stripPaymentReturnParams(SUCCESS)).toBe("");
    expect(stripPaymentReturnParams(`${SUCCESS}&utm=mail`)).toBe("?utm=mail");
    expect(stripPaymentReturnParams("")).toBe("");
  });
});

describe("captureStartupPaymentReturn", () => {
  it("takes the return out of the address bar, onto the Credits page, and keeps it for the tab", () => {
    window.history.replaceState({ kept: 1 }, "", `/${SUCCESS}#top`);
    expect(captureStartupPaymentReturn()).toBe(true);
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      "/subscription#top",
    );
    expect(window.history.state).toEqual({ kept: 1 });
    expect(sessionStorage.getItem("paymentReturn")).toBe(SUCCESS);
    // Once per page load: a second call (StrictMode renders twice) gives the first answer.
    expect(captureStartupPaymentReturn()).toBe(true);

    expect(takePendingPaymentReturn()).toEqual({
      kind: "success",
      sessionId: "cs_test_a1B2",
      type: "credits",
    });
    // Handled once: a reload, or a second shell, finds nothing.
    expect(takePendingPaymentReturn()).toBeNull();
    expect(sessionStorage.getItem("paymentReturn")).toBeNull();
  });

  it("keeps the return across a reload before sign-in (session storage)", () => {
    window.history.replaceState(null, "", `/${CANCELLED}`);
    captureStartupPaymentReturn();
    // A reload on the sign-in screen: the module's memory is gone, the tab's session storage is not.
    resetPaymentReturnForTests({ keepTab: true });
    window.history.replaceState(null, "", "/auth");
    expect(captureStartupPaymentReturn()).toBe(false);
    expect(takePendingPaymentReturn()).toEqual({ kind: "cancelled" });
  });

  it("says the page was not opened by a payment return for nav only, and leaves other addresses alone", () => {
    window.history.replaceState(null, "", "/?nav=manage-subscription");
    expect(captureStartupPaymentReturn()).toBe(false);
    expect(window.location.pathname).toBe("/subscription");
    expect(window.location.search).toBe("");
    expect(takePendingPaymentReturn()).toEqual({ kind: "open" });
  });

  it("does nothing for an ordinary address", () => {
    window.history.replaceState(null, "", "/verify-email?token=abc");
    expect(captureStartupPaymentReturn()).toBe(false);
    expect(`${window.location.pathname}${window.location.search}`).toBe("/verify-email?token=abc");
    expect(takePendingPaymentReturn()).toBeNull();
  });

  it("can put a paid return back for the next sign-in", () => {
    restorePendingPaymentReturn("cs_test_9", "credits");
    expect(takePendingPaymentReturn()).toEqual({ kind: "success", sessionId: "cs_test_9", type: "credits" });
  });
});

import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/api-errors";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { renderApp, SIGNED_IN } from "../../../test/render-app";
import { takePendingPaymentReturn } from "../payment-return";
import { handlePaymentReturn, type PaymentReturnHandlers, paymentSuccessMessage } from "./use-payment-return";

const PAID = {
  success: true,
  type: "credits",
  plan_name: "Pro Pack",
  credits_added: 275,
  remaining: 290,
} as const;

function handlers(verify?: PaymentReturnHandlers["verify"]) {
  return {
    navigate: vi.fn(),
    showError: vi.fn(),
    showSuccess: vi.fn(),
    refresh: vi.fn(async () => {}),
    ...(verify ? { verify } : {}),
  } satisfies PaymentReturnHandlers;
}

describe("handlePaymentReturn", () => {
  it("verifies a paid session, says what it added and refreshes the balance with the new one", async () => {
    const verify = vi.fn(async () => PAID);
    const h = handlers(verify);
    await handlePaymentReturn({ kind: "success", sessionId: "cs_test_1", type: "credits" }, h);
    expect(h.navigate).toHaveBeenCalledWith("subscription");
    expect(verify).toHaveBeenCalledWith("cs_test_1");
    expect(h.showSuccess).toHaveBeenCalledWith(
      "Payment successful! Pro Pack: 275 credits added to your account.",
    );
    expect(h.refresh).toHaveBeenCalledWith({ remaining: 290, unlimited: false });
    expect(h.showError).not.toHaveBeenCalled();
  });

  it("shows the cancelled message and verifies nothing", async () => {
    const verify = vi.fn();
    const h = handlers(verify);
    await handlePaymentReturn({ kind: "cancelled" }, h);
    expect(h.navigate).toHaveBeenCalledWith("subscription");
    expect(h.showError).toHaveBeenCalledWith("Payment was cancelled. You can try again anytime.");
    expect(verify).not.toHaveBeenCalled();
  });

  it("verifies nothing when the session id does not start with cs_", async () => {
    const verify = vi.fn();
    const h = handlers(verify);
    await handlePaymentReturn({ kind: "invalid-session" }, h);
    expect(verify).not.toHaveBeenCalled();
    expect(h.showError).toHaveBeenCalledWith(
      "This payment return has no valid checkout session, so there was nothing to verify.",
    );
  });

  it("only opens the Credits page when back from the billing portal", async () => {
    const h = handlers();
    await handlePaymentReturn({ kind: "open" }, h);
    expect(h.navigate).toHaveBeenCalledWith("subscription");
    expect(h.showError).not.toHaveBeenCalled();
    expect(h.showSuccess).not.toHaveBeenCalled();
  });

  it("asks for a refresh when verification failed in a way the purchase may still have gone through", async () => {
    for (const error of [
      new ApiError(0, "Network connection error."),
      new ApiError(502, "Bad Gateway", false),
    ]) {
      const h = handlers(vi.fn(async () => Promise.reject(error)));
      await handlePaymentReturn({ kind: "success", sessionId: "cs_1", type: "credits" }, h);
      expect(h.showError).toHaveBeenCalledWith("Please refresh the page to update your account information.");
      expect(h.refresh).toHaveBeenCalledWith();
    }
  });

  it("shows the server's reason when it looked and said no", async () => {
    const refusal = new ApiError(
      400,
      "This payment has not been completed, so no credits were added yet.",
      true,
    );
    const h = handlers(vi.fn(async () => Promise.reject(refusal)));
    await handlePaymentReturn({ kind: "success", sessionId: "cs_1", type: "credits" }, h);
    expect(h.showError).toHaveBeenCalledWith(refusal.detail);
  });

  it("keeps the return for after the next sign-in when the session had ended", async () => {
    const h = handlers(vi.fn(async () => Promise.reject(new ApiError(401, "Session expired", true))));
    await handlePaymentReturn({ kind: "success", sessionId: "cs_again", type: "credits" }, h);
    expect(h.showError).not.toHaveBeenCalled();
    expect(takePendingPaymentReturn()).toEqual({ kind: "success", sessionId: "cs_again", type: "credits" });
  });

  it("keeps decimals and the singular in the success message", () => {
    expect(paymentSuccessMessage({ plan_name: "Gift", credits_added: 1 })).toBe(
      "Payment successful! Gift: 1 credit added to your account.",
    );
  });
});

function billingServer(extra: Record<string, (call: FetchCall) => Response> = {}) {
  let balance = 15;
  const routes: Record<string, (call: FetchCall) => Response> = {
    "GET /api/user/verify": () =>
      json({
        valid: true,
        user_id: "u1",
        email: "ada@example.com",
        username: "ada",
        email_verified: true,
        credits_remaining: 15,
        created_at: "2025-01-01T00:00:00.000Z",
      }),
    "GET /api/credit-balance": () => json({ remaining: balance, unlimited: false }),
    "POST /api/payments/verify-session": () => {
      balance = 290;
      return json(PAID);
    },
    ...extra,
  };
  return mockFetch((call) => {
    const route = routes[`${call.method} ${call.path.split("?")[0]}`];
    return route ? route(call) : json({ detail: "Not found" }, 404);
  });
}

// The views are lazy chunks transformed on first use: give the first render room on a busy machine.
const FIRST_RENDER = { timeout: 15_000 };

describe("the payment return in the app", { timeout: 30_000 }, () => {
  it("opens the Credits page, verifies once, shows the credits added and clears the query string", async () => {
    const calls = billingServer();
    renderApp("/?payment=success&type=credits&session_id=cs_test_abc&nav=manage-subscription", SIGNED_IN);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Manage Credits" }, FIRST_RENDER),
    ).toBeTruthy();
    expect(
      await screen.findByText("Payment successful! Pro Pack: 275 credits added to your account."),
    ).toBeTruthy();
    expect(`${window.location.pathname}${window.location.search}`).toBe("/subscription");
    const verifies = calls.filter((call) => call.path === "/api/payments/verify-session");
    expect(verifies).toHaveLength(1);
    expect(verifies[0]?.body).toEqual({ session_id: "cs_test_abc" });
    // The top bar follows the purchase.
    const bar = screen.getByRole("banner");
    await waitFor(() => expect(bar.textContent).toContain("290"));
  });

  it("shows the cancelled message on the Credits page", async () => {
    const calls = billingServer();
    renderApp("/?payment=cancelled&nav=manage-subscription", SIGNED_IN);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Manage Credits" }, FIRST_RENDER),
    ).toBeTruthy();
    expect(await screen.findByText("Payment was cancelled. You can try again anytime.")).toBeTruthy();
    expect(window.location.search).toBe("");
    expect(calls.some((call) => call.path === "/api/payments/verify-session")).toBe(false);
  });

  it("waits for the sign-in when the visitor is signed out, then opens the Credits page and verifies", async () => {
    const calls = billingServer({
      "POST /api/login": () =>
        json({
          access_token: "fresh-token",
          token_type: "bearer",
          user_id: "u1",
          email: "ada@example.com",
          username: "ada",
          requires_verification: false,
          email_verified: true,
          credits_remaining: 15,
        }),
      "GET /api/health": () => json({ status: "ok" }),
    });
    renderApp("/?payment=success&type=credits&session_id=cs_test_late&nav=manage-subscription");
    // Signed out: the sign-in screen, and the address no longer carries the return.
    expect(await screen.findByRole("heading", { name: "Welcome to Storyverse" }, FIRST_RENDER)).toBeTruthy();
    expect(window.location.search).toBe("");
    expect(calls.some((call) => call.path === "/api/payments/verify-session")).toBe(false);

    // The form shows once the server has said which sign-in it offers (decision 0147).
    fireEvent.change(await screen.findByLabelText("Email or username"), { target: { value: "ada" } });
    fireEvent.change(screen.getByLabelText("Password", { exact: true }), { target: { value: "secret-1" } });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));

    expect(
      await screen.findByRole("heading", { level: 1, name: "Manage Credits" }, FIRST_RENDER),
    ).toBeTruthy();
    expect(
      await screen.findByText("Payment successful! Pro Pack: 275 credits added to your account."),
    ).toBeTruthy();
    expect(calls.filter((call) => call.path === "/api/payments/verify-session")).toHaveLength(1);
    expect(sessionStorage.getItem("paymentReturn")).toBeNull();
  });
});

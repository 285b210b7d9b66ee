import { act, fireEvent, render, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers } from "../../../test/render-app";
import { resetVerifyEmailCache } from "../api/verify-email";
import { EmailVerificationScreen, type EmailVerificationScreenProps } from "./email-verification-screen";

beforeEach(() => {
  resetVerifyEmailCache();
});

function renderScreen(props: Partial<EmailVerificationScreenProps> = {}) {
  const handlers = {
    token: null,
    pendingEmail: "ada@example.com",
    onVerified: vi.fn(),
    onDone: vi.fn(),
    onBackToLogin: vi.fn(),
    onBackToHome: vi.fn(),
    ...props,
  };
  render(
    <StrictMode>
      <Providers>
        <EmailVerificationScreen {...handlers} />
      </Providers>
    </StrictMode>,
  );
  return handlers;
}

describe("email verification screen", () => {
  it("pending: shows the address, resends the mail and goes back to login", async () => {
    const calls = mockFetch(() =>
      json({ success: true, message: "Verification email sent! Please check your inbox." }),
    );
    const { onBackToLogin } = renderScreen();
    expect(screen.getByRole("heading", { name: "Check Your Email" })).toBeTruthy();
    expect(screen.getByText("ada@example.com")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Resend Verification Email" }));
    expect(await screen.findByText("Verification email sent! Please check your inbox.")).toBeTruthy();
    expect(calls[0]).toMatchObject({
      path: "/api/resend-verification",
      method: "POST",
      body: { email: "ada@example.com" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Back to Login" }));
    expect(onBackToLogin).toHaveBeenCalledOnce();
  });

  it("pending: says so when the resend fails or there is no address", async () => {
    mockFetch(() => json({ detail: "Internal server error" }, 500));
    renderScreen();
    fireEvent.click(screen.getByRole("button", { name: "Resend Verification Email" }));
    expect(await screen.findByText("Failed to send verification email. Please try again.")).toBeTruthy();
  });

  it("pending without an address asks to register again", () => {
    const calls = mockFetch(() => json({}));
    renderScreen({ pendingEmail: null });
    fireEvent.click(screen.getByRole("button", { name: "Resend Verification Email" }));
    expect(screen.getByText("No email address found. Please try registering again.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("verifies a token once, even under StrictMode, then goes home after 3 seconds", async () => {
    vi.useFakeTimers();
    const calls = mockFetch(() =>
      json({ success: true, message: "Email verified successfully! You can now log in." }),
    );
    const { onVerified, onDone } = renderScreen({ token: "t0k3n" });
    expect(screen.getByRole("heading", { name: "Verifying your email" })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("Email verified successfully! You can now log in.")).toBeTruthy();
    expect(calls.map((call) => call.path)).toEqual(["/api/verify-email/t0k3n"]);
    expect(onVerified).toHaveBeenCalledOnce();
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(onDone).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("opened in the browser that signed up: hands the session on, with no sign-in to lead to (decision 0153)", async () => {
    vi.useFakeTimers();
    const session = {
      access_token: "s3ss10n",
      token_type: "bearer",
      user_id: "u1",
      email: "ada@example.com",
      username: "ada",
      requires_verification: false,
      email_verified: true,
      credits_remaining: 15,
    };
    mockFetch(() =>
      json({
        success: true,
        message: "Email verified successfully! You're signed in.",
        email: "ada@example.com",
        session,
      }),
    );
    const { onVerified, onDone } = renderScreen({ token: "t0k3n" });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(onVerified).toHaveBeenCalledWith(session);
    expect(screen.queryByText("Email verified successfully! You can now log in.")).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(onDone).not.toHaveBeenCalled();
  });

  it("shows the server's reason for a bad link, with resend and back to login", async () => {
    mockFetch(() => json({ detail: "This verification link has expired. Please request a new one." }, 400));
    renderScreen({ token: "old" });
    expect(
      await screen.findByText("This verification link has expired. Please request a new one."),
    ).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Verification failed" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Resend Verification Email" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Back to Login" })).toBeTruthy();
  });

  it("falls back to the spec's words without a reason, and names a network failure", async () => {
    mockFetch(() => new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
    renderScreen({ token: "a" });
    expect(await screen.findByText("Email verification failed. The link may be expired.")).toBeTruthy();
  });

  it("names a network failure", async () => {
    mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    renderScreen({ token: "b" });
    expect(await screen.findByText("Email verification failed. Please try again.")).toBeTruthy();
  });
});

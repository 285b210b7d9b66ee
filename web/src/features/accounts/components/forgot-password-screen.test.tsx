import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers } from "../../../test/render-app";
import { ForgotPasswordScreen, type ForgotPasswordScreenProps } from "./forgot-password-screen";

function renderScreen(props: Partial<ForgotPasswordScreenProps> = {}) {
  const handlers = {
    token: null,
    onTokenSpent: vi.fn(),
    onDone: vi.fn(),
    onBackToLogin: vi.fn(),
    onBackToHome: vi.fn(),
    ...props,
  };
  render(
    <Providers>
      <ForgotPasswordScreen {...handlers} />
    </Providers>,
  );
  return handlers;
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

describe("forgot password: email, sent, reset, success", () => {
  it("asks for an address, then always shows the sent step", async () => {
    const calls = mockFetch(() => json({ success: true, message: "whatever" }));
    renderScreen();
    expect(screen.getByRole("heading", { name: "Reset Your Password" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(screen.getByText("Please enter your email address")).toBeTruthy();
    expect(calls).toHaveLength(0);

    type("Email address", "ada@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(
      await screen.findByText(
        "If an account exists with ada@example.com, we've sent a password reset link to your inbox.",
      ),
    ).toBeTruthy();
    expect(screen.getByText(/expires in 1 hour/)).toBeTruthy();
    expect(calls[0]).toMatchObject({ path: "/api/forgot-password", body: { email: "ada@example.com" } });

    fireEvent.click(screen.getByRole("button", { name: "Send Another Reset Email" }));
    expect(screen.getByRole("heading", { name: "Reset Your Password" })).toBeTruthy();
    expect((screen.getByLabelText("Email address") as HTMLInputElement).value).toBe("ada@example.com");
  });

  it("shows the sent step even when the server refuses", async () => {
    mockFetch(() => json({ detail: "Internal server error" }, 500));
    renderScreen();
    type("Email address", "ghost@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Send Reset Link" }));
    expect(await screen.findByText(/If an account exists with ghost@example.com/)).toBeTruthy();
  });

  it("opens at the reset step with a token and checks the new password", async () => {
    const calls = mockFetch(() =>
      json({ success: true, message: "Your password has been reset. You can now sign in with it." }),
    );
    const { onTokenSpent } = renderScreen({ token: "r3set" });
    expect(screen.getByRole("heading", { name: "Choose a New Password" })).toBeTruthy();
    const reset = () => fireEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    reset();
    expect(screen.getByText("Please enter and confirm your new password")).toBeTruthy();
    type("New password", "abc");
    type("Confirm new password", "abc");
    reset();
    expect(screen.getByText("Password must be at least 6 characters long")).toBeTruthy();
    type("Confirm new password", "abcdefg");
    type("New password", "abcdefh");
    reset();
    expect(screen.getByText("Passwords do not match")).toBeTruthy();
    expect(calls).toHaveLength(0);

    type("New password", "abcdefg");
    reset();
    expect(await screen.findByRole("heading", { name: "Password Reset" })).toBeTruthy();
    expect(screen.getByText("Your password has been reset. You can now sign in with it.")).toBeTruthy();
    expect(calls[0]).toMatchObject({
      path: "/api/reset-password",
      body: { token: "r3set", password: "abcdefg" },
    });
    expect(onTokenSpent).toHaveBeenCalled();
  });

  it("shows the server's reason when a link fails, or the fallback", async () => {
    mockFetch(() => json({ detail: "This reset link has expired. Please request a new one." }, 400));
    renderScreen({ token: "old" });
    type("New password", "abcdefg");
    type("Confirm new password", "abcdefg");
    fireEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText("This reset link has expired. Please request a new one.")).toBeTruthy();

    mockFetch(() => new Response("", { status: 500 }));
    fireEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(
      await screen.findByText("Password reset failed. The link may be expired or invalid."),
    ).toBeTruthy();
  });

  it("goes to the root 3 seconds after success", async () => {
    vi.useFakeTimers();
    mockFetch(() => json({ success: true, message: "Done." }));
    const { onDone } = renderScreen({ token: "t" });
    type("New password", "abcdefg");
    type("Confirm new password", "abcdefg");
    fireEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole("heading", { name: "Password Reset" })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(onDone).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onDone).toHaveBeenCalledOnce();
  });
});

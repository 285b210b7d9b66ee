import type { AuthResponse } from "@storyverse/contract/accounts";
import { describe, expect, it } from "vitest";
import { setLanguage } from "../../i18n/i18n";
import { ApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_ERROR_MESSAGE } from "../../lib/api-errors";
import {
  authErrorMessage,
  authOutcome,
  availabilityErrorMessage,
  availabilityMessage,
  availabilityTone,
  EMPTY_AUTH_FORM,
  isCheckable,
  resendErrorMessage,
  resetErrorMessage,
  validateAuthForm,
  validateNewPassword,
  validateResetEmail,
  verifyErrorMessage,
} from "./auth-rules";

const filled = { username: "ada", email: "ada@example.com", password: "secret1", confirmPassword: "secret1" };

describe("register validation", () => {
  it("requires every field", () => {
    for (const field of ["username", "email", "password", "confirmPassword"] as const) {
      expect(validateAuthForm("register", { ...filled, [field]: "  " })).toBe("Please fill in all fields");
    }
  });

  it("asks for 6 characters, then for matching passwords", () => {
    expect(validateAuthForm("register", { ...filled, password: "12345", confirmPassword: "12345" })).toBe(
      "Password must be at least 6 characters",
    );
    expect(validateAuthForm("register", { ...filled, confirmPassword: "secret2" })).toBe(
      "Passwords do not match",
    );
    expect(validateAuthForm("register", filled)).toBeNull();
  });

  it("applies the contract's rules for names before anything is sent", () => {
    expect(validateAuthForm("register", { ...filled, username: "ad" })).toBe(
      "Username must be at least 3 characters",
    );
    expect(validateAuthForm("register", { ...filled, username: "ada lovelace" })).toBe(
      "Username may only contain letters, digits, _, . and -",
    );
    expect(validateAuthForm("register", { ...filled, email: "ada@" })).toBe(
      "Please enter a valid email address",
    );
  });

  it("needs only a login and a password to sign in", () => {
    expect(validateAuthForm("signin", EMPTY_AUTH_FORM)).toBe(
      "Please enter your email or username and your password",
    );
    expect(validateAuthForm("signin", { ...EMPTY_AUTH_FORM, email: "ada", password: "x" })).toBeNull();
  });
});

describe("password reset validation", () => {
  it("checks the email step", () => {
    expect(validateResetEmail(" ")).toBe("Please enter your email address");
    expect(validateResetEmail("nope")).toBe("Please enter a valid email address");
    expect(validateResetEmail("ada@example.com")).toBeNull();
  });

  it("checks the new password", () => {
    expect(validateNewPassword("", "abcdef")).toBe("Please enter and confirm your new password");
    expect(validateNewPassword("abcdef", "")).toBe("Please enter and confirm your new password");
    expect(validateNewPassword("abc", "abc")).toBe("Password must be at least 6 characters long");
    expect(validateNewPassword("abcdef", "abcdeg")).toBe("Passwords do not match");
    expect(validateNewPassword("abcdef", "abcdef")).toBeNull();
  });
});

describe("availability messages", () => {
  it("asks about usernames from 3 characters and emails with an at-sign", () => {
    expect(isCheckable("username", "ad")).toBe(false);
    expect(isCheckable("username", " ad ")).toBe(false);
    expect(isCheckable("username", "ada")).toBe(true);
    expect(isCheckable("email", "ada.example.com")).toBe(false);
    expect(isCheckable("email", "ada@")).toBe(true);
  });

  it("shows the server's message, or the spec's defaults", () => {
    expect(availabilityMessage("username", "ada", { available: true, message: "Free!" }).text).toBe("Free!");
    expect(availabilityMessage("username", "ada", { available: true })).toEqual({
      text: "Username 'ada' is available",
      tone: "success",
    });
    expect(availabilityMessage("username", "ada", { available: false })).toEqual({
      text: "Username 'ada' is already taken",
      tone: "danger",
    });
    expect(availabilityMessage("email", "a@b.co", { available: true }).text).toBe(
      "Email 'a@b.co' is available",
    );
    expect(availabilityMessage("email", "a@b.co", { available: false }).text).toBe(
      "Email 'a@b.co' is already registered",
    );
  });

  it("says the server's own words in the interface's language, naming the value (decision 0155)", async () => {
    await setLanguage("de");
    expect(
      availabilityMessage("username", "ada", { available: true, message: "Username 'Ada' is available" }),
    ).toEqual({
      text: "Der Benutzername „Ada“ ist verfügbar",
      tone: "success",
    });
    expect(
      availabilityMessage("email", "a@b.co", {
        available: false,
        message: "Email 'a@b.co' is already registered",
      }),
    ).toEqual({ text: "Die E-Mail-Adresse „a@b.co“ ist schon registriert", tone: "danger" });
    expect(authErrorMessage(new ApiError(409, "Username 'ada' is already taken"))).toBe(
      "Der Benutzername „ada“ ist schon vergeben",
    );
  });

  it("is green exactly when the words say 'available' (not a quoted name that does)", () => {
    expect(availabilityTone("Username 'ada' is available")).toBe("success");
    expect(availabilityTone("That one is available!")).toBe("success");
    expect(availabilityTone("Username 'available_ada' is already taken")).toBe("danger");
    expect(availabilityTone("Unable to check username availability. Boom")).toBe("danger");
  });

  it("names time-outs, network failures and anything else", () => {
    expect(availabilityErrorMessage("username", new ApiError(0, TIMEOUT_ERROR_MESSAGE)).text).toBe(
      "Request timed out. Please try again.",
    );
    expect(availabilityErrorMessage("email", new ApiError(0, NETWORK_ERROR_MESSAGE)).text).toBe(
      "Network connection error. Please check your internet and try again.",
    );
    expect(availabilityErrorMessage("email", new ApiError(429, "Too many requests")).text).toBe(
      "Unable to check email availability. Too many requests",
    );
    expect(
      availabilityErrorMessage("username", new ApiError(200, "Invalid response format from server", false)),
    ).toEqual({
      text: "Unable to check username availability. Invalid response format from server",
      tone: "danger",
    });
  });
});

describe("what a sign-in or registration answer leads to", () => {
  const response = (patch: Partial<AuthResponse>): AuthResponse => ({
    access_token: "tok",
    token_type: "bearer",
    user_id: "u1",
    email: "ada@example.com",
    username: "ada",
    requires_verification: false,
    email_verified: true,
    credits_remaining: 15,
    ...patch,
  });
  const pending = { email: "ada@example.com", username: "ada", credits_remaining: 15 };

  it("signs in with the token and the user", () => {
    expect(authOutcome("signin", response({}))).toEqual({
      kind: "signed-in",
      token: "tok",
      user: { id: "u1", email: "ada@example.com", username: "ada", credits_remaining: 15 },
    });
  });

  it("sends an account that must verify its email to the verification screen", () => {
    expect(
      authOutcome(
        "signin",
        response({ access_token: null, requires_verification: true, email_verified: false }),
      ),
    ).toEqual({ kind: "verify", pending });
    expect(authOutcome("register", response({ access_token: null, email_verified: false }))).toEqual({
      kind: "verify",
      pending,
    });
  });

  it("signs a new account straight in when the server needs no verification", () => {
    expect(authOutcome("register", response({ email_verified: false })).kind).toBe("signed-in");
  });

  it("treats a missing access token as an error", () => {
    expect(authOutcome("signin", response({ access_token: null }))).toEqual({
      kind: "error",
      message: "An error occurred during authentication",
    });
  });

  it("words failures from the server's detail, else the auth fallback", () => {
    expect(authErrorMessage(new ApiError(401, "Incorrect email, username or password."))).toBe(
      "Incorrect email, username or password.",
    );
    expect(authErrorMessage(new Error("boom"))).toBe("An error occurred during authentication");
  });
});

describe("mail link failures", () => {
  it("verification: the server's detail, the fallback, or the network text", () => {
    expect(verifyErrorMessage(new ApiError(400, "This verification link has expired."))).toBe(
      "This verification link has expired.",
    );
    expect(verifyErrorMessage(new ApiError(502, "Bad Gateway", false))).toBe(
      "Email verification failed. The link may be expired.",
    );
    expect(verifyErrorMessage(new ApiError(0, NETWORK_ERROR_MESSAGE))).toBe(
      "Email verification failed. Please try again.",
    );
  });

  it("resend and reset", () => {
    expect(resendErrorMessage(new ApiError(500, "Internal server error"))).toBe(
      "Failed to send verification email. Please try again.",
    );
    expect(resendErrorMessage(new ApiError(429, "Too many requests. Try again in 5 minutes."))).toBe(
      "Too many requests. Try again in 5 minutes.",
    );
    expect(
      resetErrorMessage(new ApiError(400, "This reset link has expired. Please request a new one.")),
    ).toBe("This reset link has expired. Please request a new one.");
    expect(resetErrorMessage(new Error("?"))).toBe(
      "Password reset failed. The link may be expired or invalid.",
    );
  });
});

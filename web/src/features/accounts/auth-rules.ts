// The account screens' rules as pure functions: form validation, the words of the live
// availability checks and what a sign-in or registration response leads to.
import {
  type AuthResponse,
  EMAIL_VERIFIED_MESSAGE,
  emailSchema,
  PASSWORD_MIN_LENGTH,
  RESEND_VERIFICATION_MESSAGE,
  USERNAME_MIN_LENGTH,
  usernameSchema,
} from "@storyverse/contract/accounts";
import { ApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_ERROR_MESSAGE } from "../../lib/api-errors";
import type { PendingUser, StoredUser } from "../../lib/storage";
import type { AvailabilityKind, AvailabilityResult } from "./api/check-availability";

export type AuthMode = "signin" | "register";

export interface AuthFormValues {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}

export const EMPTY_AUTH_FORM: AuthFormValues = { email: "", username: "", password: "", confirmPassword: "" };

export const MESSAGES = {
  signInRequired: "Please enter your email or username and your password",
  registerRequired: "Please fill in all fields",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordsDiffer: "Passwords do not match",
  authFallback: "An error occurred during authentication",
  emailRequired: "Please enter your email address",
  resetRequired: "Please enter and confirm your new password",
  resetTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  resetFailed: "Password reset failed. The link may be expired or invalid.",
  verified: EMAIL_VERIFIED_MESSAGE,
  verifyFailed: "Email verification failed. The link may be expired.",
  verifyNetwork: "Email verification failed. Please try again.",
  resendSent: RESEND_VERIFICATION_MESSAGE,
  resendFailed: "Failed to send verification email. Please try again.",
  resendNoEmail: "No email address found. Please try registering again.",
  verificationRequired: "Email verification required. Please check your inbox for the link we sent you.",
  sessionExpired: "Session expired. Please log in again.",
} as const;

export const registrationNotice = (email: string) =>
  `Registration successful! We've sent a verification email to ${email}. Open its link to activate your account.`;

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message ?? null;

/** The first problem with the form, in the product's fixed words, or null when it may be sent. */
export function validateAuthForm(mode: AuthMode, values: AuthFormValues): string | null {
  if (mode === "signin") {
    return values.email.trim() === "" || values.password === "" ? MESSAGES.signInRequired : null;
  }
  const { username, email, password, confirmPassword } = values;
  if ([username, email, password, confirmPassword].some((value) => value.trim() === "")) {
    return MESSAGES.registerRequired;
  }
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password !== confirmPassword) return MESSAGES.passwordsDiffer;
  // The contract's own rules for the names, so the server never has to refuse what we could.
  return firstIssue(usernameSchema.safeParse(username)) ?? firstIssue(emailSchema.safeParse(email));
}

export type RegisterField = "username" | "email" | "password" | "confirmPassword";

const REQUIRED_FIELD: Record<RegisterField, string> = {
  username: "Choose a username",
  email: "Enter your email address",
  password: "Choose a password",
  confirmPassword: "Type the password again",
};

/**
 * Every register field's own problem, in the product's words where it has them, recomputed from the values
 * as they are: a message disappears the moment its field is fixed.
 */
export function registerFieldErrors(values: AuthFormValues): Partial<Record<RegisterField, string>> {
  const errors: Partial<Record<RegisterField, string>> = {};
  const { username, email, password, confirmPassword } = values;
  if (username.trim() === "") errors.username = REQUIRED_FIELD.username;
  else {
    const problem = firstIssue(usernameSchema.safeParse(username));
    if (problem) errors.username = problem;
  }
  if (email.trim() === "") errors.email = REQUIRED_FIELD.email;
  else {
    const problem = firstIssue(emailSchema.safeParse(email));
    if (problem) errors.email = problem;
  }
  if (password === "") errors.password = REQUIRED_FIELD.password;
  else if (password.length < PASSWORD_MIN_LENGTH) errors.password = MESSAGES.passwordTooShort;
  if (confirmPassword === "") errors.confirmPassword = REQUIRED_FIELD.confirmPassword;
  else if (password !== confirmPassword) errors.confirmPassword = MESSAGES.passwordsDiffer;
  return errors;
}

/** The reset step: both fields required, at least 6 characters, and the two must match. */
export function validateNewPassword(password: string, confirmPassword: string): string | null {
  if (password === "" || confirmPassword === "") return MESSAGES.resetRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.resetTooShort;
  if (password !== confirmPassword) return MESSAGES.passwordsDiffer;
  return null;
}

/** The forgot-password email step: required, then a well-formed address. */
export function validateResetEmail(email: string): string | null {
  if (email.trim() === "") return MESSAGES.emailRequired;
  return firstIssue(emailSchema.safeParse(email));
}

// ---------------------------------------------------------------------------------------------------
// Live availability checks

export interface AvailabilityMessage {
  text: string;
  tone: "success" | "danger";
}

/** Whether a value is worth asking the server about: 3+ characters, or an at-sign. */
export function isCheckable(kind: AvailabilityKind, value: string): boolean {
  const trimmed = value.trim();
  return kind === "username" ? trimmed.length >= USERNAME_MIN_LENGTH : trimmed.includes("@");
}

/** A local answer for a value the server would reject as malformed, so no request is wasted. */
export function localAvailabilityProblem(kind: AvailabilityKind, value: string): string | null {
  return firstIssue((kind === "username" ? usernameSchema : emailSchema).safeParse(value));
}

/**
 * Green when the text says "available". The name the user typed is quoted in the text and is
 * left out of the test, so a taken name like 'available_ada' does not turn its own refusal green.
 */
export function availabilityTone(text: string): "success" | "danger" {
  return text.replace(/'[^']*'/g, "").includes("available") ? "success" : "danger";
}

export function availabilityMessage(
  kind: AvailabilityKind,
  value: string,
  result: AvailabilityResult,
): AvailabilityMessage {
  const fallback =
    kind === "username"
      ? `Username '${value}' is ${result.available ? "available" : "already taken"}`
      : `Email '${value}' is ${result.available ? "available" : "already registered"}`;
  const text = result.message?.trim() ? result.message : fallback;
  return { text, tone: availabilityTone(text) };
}

export function availabilityErrorMessage(kind: AvailabilityKind, error: unknown): AvailabilityMessage {
  let text: string;
  if (error instanceof ApiError && error.message === TIMEOUT_ERROR_MESSAGE) text = TIMEOUT_ERROR_MESSAGE;
  else if (error instanceof ApiError && error.message === NETWORK_ERROR_MESSAGE) text = NETWORK_ERROR_MESSAGE;
  else {
    const detail = error instanceof Error && error.message ? error.message : "An error occurred";
    text = `Unable to check ${kind} availability. ${detail}`;
  }
  return { text, tone: "danger" };
}

// ---------------------------------------------------------------------------------------------------
// What a sign-in or registration answer leads to

export type AuthOutcome =
  | { kind: "signed-in"; token: string; user: StoredUser }
  | { kind: "verify"; pending: PendingUser }
  | { kind: "error"; message: string };

export function authOutcome(mode: AuthMode, response: AuthResponse): AuthOutcome {
  const pending: PendingUser = {
    email: response.email,
    username: response.username,
    credits_remaining: response.credits_remaining,
  };
  if (response.requires_verification) return { kind: "verify", pending };
  // A new account that has not verified its email and got no session waits for the mail.
  if (mode === "register" && !response.email_verified && !response.access_token) {
    return { kind: "verify", pending };
  }
  // A sign-in without a token is a broken answer, not a session.
  if (!response.access_token) return { kind: "error", message: MESSAGES.authFallback };
  return {
    kind: "signed-in",
    token: response.access_token,
    user: {
      id: response.user_id,
      email: response.email,
      username: response.username,
      credits_remaining: response.credits_remaining,
    },
  };
}

/** The words for a failed sign-in or registration: the server's detail, else a fixed fallback. */
export function authErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.message ? error.message : MESSAGES.authFallback;
}

// ---------------------------------------------------------------------------------------------------
// Email links

/** The server's reason for refusing a verification link, or fixed fallbacks. */
export function verifyErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 0) return MESSAGES.verifyNetwork;
  if (error instanceof ApiError && error.fromServer) return error.message;
  return MESSAGES.verifyFailed;
}

/** Resend failures read fixed words, except a rate limit, whose detail says when to try again. */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && error.fromServer) return error.message;
  return MESSAGES.resendFailed;
}

export function resetErrorMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 0 || error.fromServer)) return error.message;
  return MESSAGES.resetFailed;
}

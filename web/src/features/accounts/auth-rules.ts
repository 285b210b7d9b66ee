// The account screens' rules as pure functions: form validation, the words of the live
// availability checks and what a sign-in or registration response leads to. Every message is returned in the
// interface's language (decision 0155): the web's own words from the `accounts` namespace, the contract's and
// the server's (a schema's rule, an error's detail) through translateServerMessage.
import {
  type AuthResponse,
  EMAIL_VERIFIED_MESSAGE,
  emailSchema,
  PASSWORD_MIN_LENGTH,
  RESEND_VERIFICATION_MESSAGE,
  USERNAME_MIN_LENGTH,
  usernameSchema,
} from "@storyverse/contract/accounts";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";
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

/** The account screens' fixed words, read in the interface's language each time one is used. */
export const MESSAGES = {
  get signInRequired() {
    return i18n.t("accounts:messages.signInRequired");
  },
  get registerRequired() {
    return i18n.t("accounts:messages.registerRequired");
  },
  get passwordTooShort() {
    return i18n.t("accounts:messages.passwordTooShort", { min: PASSWORD_MIN_LENGTH });
  },
  get passwordsDiffer() {
    return i18n.t("accounts:messages.passwordsDiffer");
  },
  get authFallback() {
    return i18n.t("accounts:messages.authFallback");
  },
  get emailRequired() {
    return i18n.t("accounts:messages.emailRequired");
  },
  get resetRequired() {
    return i18n.t("accounts:messages.resetRequired");
  },
  get resetTooShort() {
    return i18n.t("accounts:messages.resetTooShort", { min: PASSWORD_MIN_LENGTH });
  },
  get resetFailed() {
    return i18n.t("accounts:messages.resetFailed");
  },
  /** The server's words (the contract's EMAIL_VERIFIED_MESSAGE). */
  get verified() {
    return translateServerMessage(EMAIL_VERIFIED_MESSAGE);
  },
  get verifyFailed() {
    return i18n.t("accounts:messages.verifyFailed");
  },
  get verifyNetwork() {
    return i18n.t("accounts:messages.verifyNetwork");
  },
  /** The server's words (the contract's RESEND_VERIFICATION_MESSAGE). */
  get resendSent() {
    return translateServerMessage(RESEND_VERIFICATION_MESSAGE);
  },
  get resendFailed() {
    return i18n.t("accounts:messages.resendFailed");
  },
  get resendNoEmail() {
    return i18n.t("accounts:messages.resendNoEmail");
  },
  get verificationRequired() {
    return i18n.t("accounts:messages.verificationRequired");
  },
  get sessionExpired() {
    return i18n.t("accounts:messages.sessionExpired");
  },
};

export const registrationNotice = (email: string) =>
  i18n.t("accounts:messages.registrationNotice", { email });

/** The first rule a value breaks, in the contract's words (shown in the interface's language). */
const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => {
  const message = result.error?.issues[0]?.message;
  return message ? translateServerMessage(message) : null;
};

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

const requiredField = (field: RegisterField): string => i18n.t(`accounts:requiredField.${field}`);

/**
 * Every register field's own problem, in the product's words where it has them, recomputed from the values
 * as they are: a message disappears the moment its field is fixed.
 */
export function registerFieldErrors(values: AuthFormValues): Partial<Record<RegisterField, string>> {
  const errors: Partial<Record<RegisterField, string>> = {};
  const { username, email, password, confirmPassword } = values;
  if (username.trim() === "") errors.username = requiredField("username");
  else {
    const problem = firstIssue(usernameSchema.safeParse(username));
    if (problem) errors.username = problem;
  }
  if (email.trim() === "") errors.email = requiredField("email");
  else {
    const problem = firstIssue(emailSchema.safeParse(email));
    if (problem) errors.email = problem;
  }
  if (password === "") errors.password = requiredField("password");
  else if (password.length < PASSWORD_MIN_LENGTH) errors.password = MESSAGES.passwordTooShort;
  if (confirmPassword === "") errors.confirmPassword = requiredField("confirmPassword");
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
 * left out of the test, so a taken name like 'available_ada' does not turn its own refusal green. Judged on the
 * server's English words, before they are shown in the interface's language.
 */
export function availabilityTone(text: string): "success" | "danger" {
  return text.replace(/'[^']*'/g, "").includes("available") ? "success" : "danger";
}

function availabilityFallback(kind: AvailabilityKind, value: string, available: boolean): string {
  if (kind === "username") {
    return available
      ? i18n.t("accounts:availability.usernameAvailable", { value })
      : i18n.t("accounts:availability.usernameTaken", { value });
  }
  return available
    ? i18n.t("accounts:availability.emailAvailable", { value })
    : i18n.t("accounts:availability.emailTaken", { value });
}

/**
 * The server's availability words ("Username 'ada' is available", also a sign-up's "Username 'ada' is already
 * taken") name the value, so no catalogue holds them: said again in the interface's language from their parts.
 */
const SERVER_AVAILABILITY = /^(Username|Email) '(.*)' is (available|already taken|already registered)$/s;

function serverWords(text: string): string {
  const match = SERVER_AVAILABILITY.exec(text);
  if (!match) return translateServerMessage(text);
  const [, subject, value = "", state] = match;
  return availabilityFallback(subject === "Username" ? "username" : "email", value, state === "available");
}

export function availabilityMessage(
  kind: AvailabilityKind,
  value: string,
  result: AvailabilityResult,
): AvailabilityMessage {
  if (result.message?.trim()) {
    return { text: serverWords(result.message), tone: availabilityTone(result.message) };
  }
  return {
    text: availabilityFallback(kind, value, result.available),
    tone: result.available ? "success" : "danger",
  };
}

export function availabilityErrorMessage(kind: AvailabilityKind, error: unknown): AvailabilityMessage {
  let text: string;
  if (error instanceof ApiError && error.message === TIMEOUT_ERROR_MESSAGE) {
    text = translateServerMessage(TIMEOUT_ERROR_MESSAGE);
  } else if (error instanceof ApiError && error.message === NETWORK_ERROR_MESSAGE) {
    text = translateServerMessage(NETWORK_ERROR_MESSAGE);
  } else {
    const detail =
      error instanceof Error && error.message
        ? translateServerMessage(error.message)
        : i18n.t("accounts:availability.genericError");
    text =
      kind === "username"
        ? i18n.t("accounts:availability.usernameCheckFailed", { detail })
        : i18n.t("accounts:availability.emailCheckFailed", { detail });
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
  return error instanceof ApiError && error.message ? serverWords(error.message) : MESSAGES.authFallback;
}

// ---------------------------------------------------------------------------------------------------
// Email links

/** The server's reason for refusing a verification link, or fixed fallbacks. */
export function verifyErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 0) return MESSAGES.verifyNetwork;
  if (error instanceof ApiError && error.fromServer) return translateServerMessage(error.message);
  return MESSAGES.verifyFailed;
}

/** Resend failures read fixed words, except a rate limit, whose detail says when to try again. */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429 && error.fromServer) {
    return translateServerMessage(error.message);
  }
  return MESSAGES.resendFailed;
}

export function resetErrorMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 0 || error.fromServer)) {
    return translateServerMessage(error.message);
  }
  return MESSAGES.resetFailed;
}

// Accounts: registration, sign-in, email verification, password reset, sessions.
import { z } from "zod";

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const PASSWORD_MIN_LENGTH = 6;
/** Bounds the work one request can ask of the password hash. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;
export const NEW_ACCOUNT_CREDITS = 15;
export const RESET_LINK_TTL_MINUTES = 60;
export const VERIFY_LINK_TTL_HOURS = 24;

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, `Username must be at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(USERNAME_PATTERN, "Username may only contain letters, digits, _, . and -");

export const emailSchema = z
  .string()
  .trim()
  .min(1, "Email is required")
  .max(EMAIL_MAX_LENGTH, "Email is too long")
  .pipe(z.email("Please enter a valid email address"));

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/**
 * The interface languages the app is written in (decision 0155): English is the source, German and Spanish are
 * complete translations. A player's choice is kept on the account; the mails follow it.
 */
export const LOCALES = ["en", "de", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const localeSchema = z.enum(LOCALES, {
  error: () => `Language must be one of: ${LOCALES.join(", ")}`,
});

export const registerRequestSchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  password: passwordSchema,
  /** The language the player was using when they signed up: the verification mail is written in it. */
  locale: localeSchema.optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({
  /** An email address or a username. */
  email: z.string().trim().min(1, "Email or username is required").max(EMAIL_MAX_LENGTH),
  password: z.string().min(1, "Password is required").max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const authResponseSchema = z.object({
  /** null while the account still has to verify its email. */
  access_token: z.string().nullable(),
  token_type: z.literal("bearer"),
  user_id: z.string(),
  email: z.string(),
  username: z.string(),
  requires_verification: z.boolean(),
  email_verified: z.boolean(),
  credits_remaining: z.number(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const availabilityResponseSchema = z.object({ available: z.boolean(), message: z.string() });
export type AvailabilityResponse = z.infer<typeof availabilityResponseSchema>;

export const emailRequestSchema = z.object({ email: emailSchema });
export type EmailRequest = z.infer<typeof emailRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  token: z.string().min(1, "Reset token is required").max(200),
  password: passwordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** A mailed link that worked (verify email, reset password): also the account's address, for the sign-in. */
export const linkUsedResponseSchema = messageResponseSchema.extend({
  email: z
    .string()
    .optional()
    .describe("The account's email: the link's holder proved the mailbox, so the sign-in can be filled in"),
});
export type LinkUsedResponse = z.infer<typeof linkUsedResponseSchema>;

/** The verification link's answer: opened in the browser that signed up, it also brings a session (decision 0153). */
export const verifyEmailResponseSchema = linkUsedResponseSchema.extend({
  session: authResponseSchema
    .optional()
    .describe("A session, when the link was opened in the browser that signed up (the sign-up cookie)"),
});
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;
export const SIGNED_IN_BY_LINK_MESSAGE = "Email verified successfully! You're signed in.";

export const userSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  username: z.string(),
  email_verified: z.boolean(),
  /** -1 means unlimited. */
  credits_remaining: z.number(),
  created_at: z.string(),
  /** "admin" for an administrator (the app then offers the admin console); absent or "player" otherwise. */
  role: z.enum(["player", "admin"]).optional(),
  /** The interface language the player chose (decision 0155); null until they choose (the browser's then). */
  locale: localeSchema.nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** PATCH /api/profile: what a player may change about their own account. */
export const profileUpdateSchema = z.strictObject({ locale: localeSchema });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const verifyUserResponseSchema = userSchema.extend({ valid: z.literal(true) });
export type VerifyUserResponse = z.infer<typeof verifyUserResponseSchema>;

export const logoutResponseSchema = z.object({ success: z.literal(true) });

/** Messages the client shows word for word: the server sends them and the web shows them unchanged. */
export const forgotPasswordMessage = (email: string) =>
  `If an account exists with ${email}, we've sent a password reset link to your inbox.`;
/** A password sign-in, sign-up or reset where the install signs in only with its OIDC provider (403). */
export const passwordSignInOffMessage = (provider: string) =>
  `Signing in with a password is turned off here. Please sign in with ${provider}.`;
/** Confirming a deletion at the provider, for an account no provider account is linked to (403). */
export const oidcNotLinkedMessage = (provider: string) =>
  `This account does not sign in with ${provider}. Please confirm with your password.`;
export const RESEND_VERIFICATION_MESSAGE = "Verification email sent! Please check your inbox.";
export const EMAIL_VERIFIED_MESSAGE = "Email verified successfully! You can now log in.";

/**
 * Why a sign-in by OIDC was refused: the `reason` of the web app's `/auth/oidc#error=...` landing, which the app
 * says in its own words (never the fragment's text, which anyone could write into a link; decision 0147).
 */
export const OIDC_REFUSALS = [
  "provider_error",
  "state_mismatch",
  "untrusted_answer",
  "domain_not_allowed",
  "email_unverified",
  "registration_off",
] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

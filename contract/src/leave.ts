// Leaving with your data (issue #44 item 4, decision 0143): a whole-account archive made by a job
// (POST /api/account/export answers its id; GET /api/account/export/{id} its progress and, once made, a
// download link), and deleting the account (DELETE /api/account, confirmed by the current password; or, for an
// account that signs in through the OIDC provider, by a fresh sign-in there: decision 0158).
import { z } from "zod";

export const accountExportSchema = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  progress: z.number().describe("0 to 100"),
  /** What it is doing now, while queued or running ("Story 3 of 12"); null once it ended. */
  step: z.string().nullable(),
  error: z.string().nullable(),
  /** Once made: the archive's name, its size, a signed link that downloads it, and when the file is removed. */
  filename: z.string().nullable(),
  bytes: z.number().nullable(),
  download_url: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

export const accountExportResponseSchema = z.object({
  success: z.literal(true),
  export: accountExportSchema,
});
export type AccountExportResponse = z.infer<typeof accountExportResponseSchema>;

export const DELETE_PASSWORD_DETAIL = "password: enter your current password to delete your account.";

/** DELETE /api/account's body: the current password. */
export const deleteAccountRequestSchema = z.object({
  password: z.string({ error: DELETE_PASSWORD_DETAIL }).min(1, DELETE_PASSWORD_DETAIL).max(256),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

export const deleteAccountResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** How many ledger rows were kept, anonymised, for accounting. */
  ledger_rows_kept: z.number(),
});

/** Days a finished archive is kept before its file is removed. */
export const ACCOUNT_EXPORT_KEPT_DAYS = 7;

export const ACCOUNT_EXPORT_FAILED_MESSAGE = "Your archive could not be made. Please try again.";
export const WRONG_PASSWORD_DETAIL = "That password is not right. Nothing was deleted.";
export const ACCOUNT_DELETED_MESSAGE = "Your account and everything in it have been deleted.";

/** What the delete dialog says goes and what stays. */
export const DELETE_ACCOUNT_GOES =
  "Your stories with every branch and message, your gallery's pictures and clips, your Studio, your share links, your credits and your profile are deleted, and you are signed out everywhere.";
export const DELETE_ACCOUNT_KEPT =
  "For accounting, with nothing that names you: each credit purchase, charge and refund's amount, kind, date and payment reference.";

/**
 * Deleting by a fresh sign-in at the OIDC provider (decision 0158): how recent the provider's sign-in
 * (`auth_time`) must be when its answer reaches the server.
 */
export const FRESH_SIGN_IN_SECONDS = 300;

/** GET /api/auth/oidc/delete-account: whether this account signs in through the provider (so may confirm there). */
export const oidcDeleteOptionSchema = z.object({ linked: z.boolean() });
export type OidcDeleteOption = z.infer<typeof oidcDeleteOptionSchema>;

/** POST /api/auth/oidc/delete-account: the provider's sign-in page to send the browser to. */
export const oidcDeleteStartSchema = z.object({ url: z.string() });

/**
 * Why a deletion confirmed at the provider was refused: the `delete_refused` of the web app's
 * `/auth/oidc#...` landing, which the app words itself (the fragment's text is never shown). Nothing was deleted.
 */
export const OIDC_DELETE_REFUSALS = [
  /** The provider answered with an error (the person cancelled, or it refused). */
  "provider_error",
  /** Not begun in this browser, begun by another session, used already or expired. */
  "state_mismatch",
  /** The provider's answer failed its checks (code exchange, ID token). */
  "untrusted_answer",
  /** The provider did not sign the person in afresh (no `auth_time`, or older than FRESH_SIGN_IN_SECONDS). */
  "stale_sign_in",
  /** The person signed in at the provider as someone this account is not linked to. */
  "other_account",
  /** The session that began it has ended (signed out meanwhile). */
  "session_ended",
] as const;
export type OidcDeleteRefusal = (typeof OIDC_DELETE_REFUSALS)[number];

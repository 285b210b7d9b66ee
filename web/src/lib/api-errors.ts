// The error types every API call can end in, kept apart from the client so that code which only needs
// to recognise an error does not pull the client and its schemas into the landing page's first chunk.
import { i18n } from "../i18n/i18n";

export class ApiError extends Error {
  /** HTTP status, or 0 when no response arrived (network failure or time-out). */
  readonly status: number;
  readonly detail: string;
  /** The server explained itself (an error body with `detail`), rather than a status text or our fallback. */
  readonly fromServer: boolean;
  /** The whole error body the server sent (its extra fields, like a 402's quota_info), when there was one. */
  readonly body: unknown;
  /**
   * The error body's stable code (contract/src/errors.ts: "insufficient_credits", "not_authenticated"...),
   * which the app branches on instead of the detail's words; null when no error body arrived.
   */
  readonly code: string | null;

  constructor(status: number, detail: string, fromServer = status > 0, body?: unknown) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.fromServer = fromServer;
    this.body = body;
    const code = (body as { code?: unknown } | null | undefined)?.code;
    this.code = typeof code === "string" ? code : null;
  }
}

/** Input rejected by the contract's schema before any request was sent. */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** A failure the web words itself, already in the interface's language (a batch past its deadline): shown as it is. */
export class ShownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShownError";
  }
}

// The web's own messages for a call that got no usable answer. An ApiError carries them in English (code tells
// them apart by these words); errorMessage shows them in the interface's language.
export const NETWORK_ERROR_MESSAGE = "Network connection error. Please check your internet and try again.";
export const TIMEOUT_ERROR_MESSAGE = "Request timed out. Please try again.";
export const INVALID_RESPONSE_MESSAGE = "Invalid response format from server";
export const GENERIC_ERROR_MESSAGE = "An error occurred";

/** Each of the web's own messages, by its English words, in the interface's language at the time of the call. */
const OWN_MESSAGES: Record<string, () => string> = {
  [NETWORK_ERROR_MESSAGE]: () => i18n.t("common:apiErrors.network"),
  [TIMEOUT_ERROR_MESSAGE]: () => i18n.t("common:apiErrors.timeout"),
  [INVALID_RESPONSE_MESSAGE]: () => i18n.t("common:apiErrors.invalidResponse"),
  [GENERIC_ERROR_MESSAGE]: () => i18n.t("common:apiErrors.generic"),
};

/** One of the web's own messages in the interface's language; any other text (a server's) as it is. */
export function localizeOwnMessage(text: string): string {
  return Object.hasOwn(OWN_MESSAGES, text) ? (OWN_MESSAGES[text]?.() ?? text) : text;
}

/** "Request failed with status 502": a failed call whose answer explained nothing, in the interface's language. */
export function statusMessage(status: number): string {
  return i18n.t("common:apiErrors.status", { status });
}

/**
 * The words to show a user for a failed call or form: the server's detail, our own check, or a fallback. The
 * web's own messages come in the interface's language; a server's detail comes as it is (the element showing
 * it passes it through translateServerMessage).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.fromServer ? error.message : localizeOwnMessage(error.message);
  if (error instanceof InvalidInputError || error instanceof ShownError) return error.message;
  return localizeOwnMessage(GENERIC_ERROR_MESSAGE);
}

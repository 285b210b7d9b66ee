// The error types every API call can end in, kept apart from the client so that code which only needs
// to recognise an error does not pull the client and its schemas into the landing page's first chunk.

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

export const NETWORK_ERROR_MESSAGE = "Network connection error. Please check your internet and try again.";
export const TIMEOUT_ERROR_MESSAGE = "Request timed out. Please try again.";
export const INVALID_RESPONSE_MESSAGE = "Invalid response format from server";
export const GENERIC_ERROR_MESSAGE = "An error occurred";

/** The words to show a user for a failed call or form: the server's detail, our own check, or a fallback. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof InvalidInputError) return error.message;
  return GENERIC_ERROR_MESSAGE;
}

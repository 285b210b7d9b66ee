// The errors services throw, in the domain's words and with no HTTP in them: the same services run in job
// workers, where a status means nothing. Each carries a stable code (contract/src/errors.ts) and the detail a
// user can act on; the HTTP edge (http/errors.ts) gives each code its status.
import type { ErrorCode } from "@storyverse/contract/errors";

export type DomainErrorOptions = {
  /** Fields of the error body beside detail and code (a refused charge's quota_info). */
  extra?: Record<string, unknown>;
  /** How long to wait before trying again, when the refusal is for now only. */
  retryAfterSeconds?: number;
};

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** The request cannot be done as asked (a bad value, an unreadable file). */
export class InvalidInput extends DomainError {
  constructor(detail: string, code: "invalid_request" | "invalid_file" = "invalid_request") {
    super(code, detail);
  }
}

export class NotAuthenticated extends DomainError {
  constructor(detail = "Not authenticated") {
    super("not_authenticated", detail);
  }
}

export class Forbidden extends DomainError {
  constructor(detail = "Forbidden") {
    super("forbidden", detail);
  }
}

/** Not there, or not the caller's: the two look the same. */
export class NotFound extends DomainError {
  constructor(detail = "Not found") {
    super("not_found", detail);
  }
}

/** Not now: the thing is in a state that does not allow it (a turn being written, the last branch). */
export class Conflict extends DomainError {
  /** A specific code where a client must act differently (a turn or a picture still being made, the last branch). */
  constructor(
    detail: string,
    code: "conflict" | "turn_in_progress" | "media_in_progress" | "last_branch" = "conflict",
  ) {
    super(code, detail);
  }
}

/** The player stopped the work before it made anything. */
export class Stopped extends DomainError {
  constructor(detail: string) {
    super("stopped", detail);
  }
}

export class TooLarge extends DomainError {
  constructor(detail: string) {
    super("payload_too_large", detail);
  }
}

/** Too much at once from one player: try again shortly. */
export class Busy extends DomainError {
  constructor(detail: string, retryAfterSeconds?: number) {
    super("rate_limited", detail, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }
}

/** A vendor (text, picture, voice, payments) failed or said no. */
export class ProviderFailed extends DomainError {
  constructor(detail: string) {
    super("provider_failed", detail);
  }
}

/** A vendor could not be reached or answered that it cannot serve now (a turn, a picture edit, a Studio batch). */
export class ProviderUnavailable extends ProviderFailed {}

/** The server cannot do it now (a feature off, the database busy). */
export class Unavailable extends DomainError {
  constructor(detail: string, options: DomainErrorOptions = {}) {
    super("unavailable", detail, options);
  }
}

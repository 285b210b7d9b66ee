// Typed errors thrown by services, and the one handler that turns any error into `{detail, code}`.
// 5xx bodies never carry internals; the log keeps them.
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { isTransientDatabaseError } from "../db/transient";
import { RateLimited } from "../platform/rate-limit";

/** The stable `code` beside `detail` for each status (contract/src/errors.ts lists them). */
const CODES: Record<number, string> = {
  400: "invalid_request",
  401: "not_authenticated",
  402: "insufficient_credits",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  416: "range_not_satisfiable",
  429: "rate_limited",
  500: "internal_error",
  502: "provider_failed",
  503: "unavailable",
};

function errorCode(status: number): string {
  return CODES[status] ?? `http_${status}`;
}

/** The body of an error answer: the detail, its stable code, and any extra fields. */
export function errorBody(status: number, detail: string, extra: Record<string, unknown> = {}) {
  return { detail, code: errorCode(status), ...extra };
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    /** Extra fields of the body, beside detail (e.g. quota_exceeded). */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export class BadRequest extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}
export class Unauthorized extends HttpError {
  constructor(detail = "Not authenticated") {
    super(401, detail);
  }
}
export class Forbidden extends HttpError {
  constructor(detail = "Forbidden") {
    super(403, detail);
  }
}
export class NotFound extends HttpError {
  constructor(detail = "Not found") {
    super(404, detail);
  }
}
export class Conflict extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(detail: string) {
    super(503, detail);
  }
}

/**
 * The HTTP form of an error the edge knows: an HttpError as it is, and the platform's refusals mapped to
 * their status (a rate limit: 429 with Retry-After). Anything else is not the client's to see.
 */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof RateLimited) {
    return new HttpError(429, error.detail, {}, { "retry-after": String(error.retryAfterSeconds) });
  }
  return undefined;
}

/** "body.email: Please enter a valid email address" from a zod issue list. */
function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return "Invalid request";
  const where = first.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const context = error.validationContext ?? "request";
  return `Invalid ${context}${where ? ` field ${where}` : ""}: ${first.message ?? "invalid value"}`;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = asHttpError(error);
    if (known) {
      return reply
        .code(known.statusCode)
        .headers(known.headers)
        .send(errorBody(known.statusCode, known.detail, known.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, describeValidation(error)));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
      return reply.code(500).send(errorBody(500, "Internal server error"));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type, rate limits).
      return reply.code(status).send(errorBody(status, error.message));
    }
    if (isTransientDatabaseError(error)) {
      // The database is short of connections or broke a deadlock: the request may simply be tried again.
      request.log.error({ err: error }, "database busy");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send(errorBody(503, "The server is too busy right now. Please try again in a moment."));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody(500, "Internal server error"));
  });
}

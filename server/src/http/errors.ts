// The HTTP edge's errors: the status of each domain error (platform/errors.ts), and the one handler that turns
// any error into `{detail, code}`.
// 5xx bodies never carry internals; the log keeps them.
import type { ErrorCode } from "@storyverse/contract/errors";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { isDatabaseUnreachable, isTransientDatabaseError } from "../db/transient";
import { DomainError } from "../platform/errors";
import { RateLimited } from "../platform/rate-limit";

/** The status each domain error's code answers with (platform/errors.ts; contract/src/errors.ts lists them). */
const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_file: 400,
  not_authenticated: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  turn_in_progress: 409,
  media_in_progress: 409,
  last_branch: 409,
  media_in_use: 409,
  stopped: 499,
  payload_too_large: 413,
  storage_full: 413,
  range_not_satisfiable: 416,
  rate_limited: 429,
  usage_cap: 429,
  account_disabled: 403,
  internal_error: 500,
  provider_failed: 502,
  unavailable: 503,
};

/** The code of an answer the edge itself makes (a validation failure, one of Fastify's own refusals). */
function codeOfStatus(status: number): string {
  const named = Object.entries(STATUS_OF).find(
    ([code, known]) => known === status && code !== "invalid_file",
  );
  return named ? named[0] : `http_${status}`;
}

/** The body of an error answer: the detail, its stable code, and any extra fields. */
export function errorBody(status: number, detail: string, extra: Record<string, unknown> = {}) {
  return { detail, code: codeOfStatus(status), ...extra };
}

/** An error as the edge answers it: status, body and headers. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    /** Fields of the body beside detail (quota_info), and its code when it is not the status's. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/**
 * The HTTP form of an error the edge knows: a service's domain error by its code, and the platform's rate
 * limit as a 429 with Retry-After. Anything else is not the client's to see.
 */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) {
    const { extra = {}, retryAfterSeconds } = error.options;
    return new HttpError(
      STATUS_OF[error.code],
      error.detail,
      { code: error.code, ...extra },
      retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) },
    );
  }
  if (error instanceof RateLimited) {
    return new HttpError(429, error.detail, {}, { "retry-after": String(error.retryAfterSeconds) });
  }
  return undefined;
}

/** What a player is told while the database cannot be reached (stopped, restarting, its connections cut). */
const DATABASE_UNAVAILABLE_DETAIL = "Storyverse is unavailable right now. Please try again in a moment.";
/** ...and while it is reachable but overloaded (too many clients, a deadlock, a statement time-out). */
const DATABASE_BUSY_DETAIL = "The server is too busy right now. Please try again in a moment.";

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
    if (isDatabaseUnreachable(error)) {
      // The database is down or restarting: nothing is wrong with the request, and nobody is served now.
      request.log.error({ err: error }, "database unreachable");
      return reply.code(503).header("retry-after", "5").send(errorBody(503, DATABASE_UNAVAILABLE_DETAIL));
    }
    if (isTransientDatabaseError(error)) {
      // The database is short of connections or broke a deadlock: the request may simply be tried again.
      request.log.error({ err: error }, "database busy");
      return reply.code(503).header("retry-after", "5").send(errorBody(503, DATABASE_BUSY_DETAIL));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody(500, "Internal server error"));
  });
}

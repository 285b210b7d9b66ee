// Typed errors thrown by services, and the one handler that turns any error into `{detail}`.
// 5xx bodies never carry internals; the log keeps them.
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { isTransientDatabaseError } from "../db/transient";

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
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ detail: error.detail, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ detail: describeValidation(error) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
      return reply.code(500).send({ detail: "Internal server error" });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, body too large, unsupported media type, rate limits).
      return reply.code(status).send({ detail: error.message });
    }
    if (isTransientDatabaseError(error)) {
      // The database is short of connections or broke a deadlock: the request may simply be tried again.
      request.log.error({ err: error }, "database busy");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ detail: "The server is too busy right now. Please try again in a moment." });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ detail: "Internal server error" });
  });
}

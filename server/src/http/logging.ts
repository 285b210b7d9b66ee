// What the server's log may hold (decision 0124): no secret a reader of the log could use, and no email
// address. Secrets travel in addresses (a verification link's token, a share link, a signed media link's
// signature), in headers (a session's bearer token, cookies) and in error messages (a failed query's
// parameters: an email, a share token). The request serializer writes each request's address with those
// parts replaced; headers are never written, and redacted should a line carry them; errors are written with
// their messages scrubbed and without a failed query's parameters; every message and string field of a
// line (inside plain objects too) is scrubbed the same way.
import type { FastifyRequest, FastifyServerOptions } from "fastify";

const REDACTED = "[redacted]";

/** Query parameters whose values are secrets or personal: link tokens, signatures, checkout ids, addresses. */
const SECRET_QUERY =
  /([?&](?:token|sig|signature|exp|expires|session_id|code|email|access_token|key|x-amz-[a-z-]+)=)[^&#\s"']*/gi;
/**
 * Path segments that are secrets: the one after these prefixes (a verification token, a shared story's token,
 * an email whose availability is asked, a sandbox checkout or billing portal id).
 */
const SECRET_PATH =
  /(\/(?:api\/verify-email|api\/check-email|api\/shared|s|sandbox\/portal|sandbox\/checkout)\/)[^/?#\s"']+/g;
/** An email address, also percent-encoded (%40) as it is in an address. */
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** A credential in an Authorization header's form. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
/** Drizzle writes a failed query as "Failed query: <sql>\nparams: <values>": the values are the user's. */
const QUERY_PARAMS = /\nparams: [^\n]*/g;

/** The text with every secret or email address this module knows replaced. */
export function scrubSecrets(text: string): string {
  return text
    .replace(QUERY_PARAMS, `\nparams: ${REDACTED}`)
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(SECRET_PATH, `$1${REDACTED}`)
    .replace(EMAIL, "[email]")
    .replace(BEARER, `$1 ${REDACTED}`);
}

/** A request as its log lines show it: the address scrubbed, no headers. */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: scrubSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Error fields never written: a failed query's parameters (Drizzle's DrizzleQueryError keeps them). */
const UNLOGGED_ERROR_FIELDS = new Set(["params", "cause", "errors"]);

/** A value with its strings scrubbed, into arrays and plain objects a few levels deep (a vendor error's body). */
function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubSecrets(value);
  if (depth >= 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, depth + 1)]));
}

/** An error as its log lines show it: type, scrubbed message and stack, its own fields, its causes. */
function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? scrubSecrets(error) : error;
  const shown: Record<string, unknown> = {
    type: error.constructor?.name ?? "Error",
    message: scrubSecrets(error.message),
    stack: error.stack === undefined ? undefined : scrubSecrets(error.stack),
  };
  for (const [name, value] of Object.entries(error)) {
    if (name in shown || UNLOGGED_ERROR_FIELDS.has(name)) continue;
    shown[name] = scrubValue(value, 0);
  }
  if (depth < 5) {
    if (error.cause !== undefined) shown.cause = errorForLog(error.cause, depth + 1);
    if (error instanceof AggregateError) shown.errors = error.errors.map((e) => errorForLog(e, depth + 1));
  }
  return shown;
}

/** Headers a line might carry (a plugin's or a future serializer's), written as "[redacted]". */
const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  "headers.authorization",
  "headers.cookie",
  "authorization",
  "cookie",
];

type ErrorFields = { [key: string]: unknown; type: string; message: string; stack: string };

type LoggerOptions = Exclude<FastifyServerOptions["logger"], boolean | undefined>;

/**
 * The app's pino options at a level, writing to `stream` when given (tests read everything written there),
 * else to standard output.
 */
export function loggerOptions(
  level: string,
  stream?: { write: (line: string) => void },
): LoggerOptions & Record<string, unknown> {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: { req: requestForLog, err: (error: Error) => errorForLog(error) as ErrorFields },
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    formatters: {
      // Strings, also inside plain objects and arrays; a request, an answer and an error have their serializers.
      log: (fields: Record<string, unknown>) => scrubValue(fields, 0) as Record<string, unknown>,
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
        const scrubbed = args.map((arg) => (typeof arg === "string" ? scrubSecrets(arg) : arg));
        return method.apply(this, scrubbed);
      },
    },
  };
}

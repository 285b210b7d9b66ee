// Which database failures are the database being busy or briefly unreachable, not a fault of the request or
// the code: worth answering "try again" (503) instead of a bare 500. PostgreSQL names them by SQLSTATE; the
// pg driver gives connection losses without one; Drizzle wraps a failed query with the driver's error as
// its cause.

/** SQLSTATE classes and codes of failures that a later try of the same request may not meet. */
const TRANSIENT_CLASSES = ["08", "53"]; // connection exception; insufficient resources (too many clients)
const TRANSIENT_CODES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
  "57014", // query_canceled (statement_timeout)
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
]);
/** The driver's own errors when the connection is gone or cannot be had in time. */
const DRIVER_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
];
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);

/** The failures that mean the database cannot be reached at all (down, restarting, the network gone). */
const UNREACHABLE_CODES = new Set(["57P01", "57P02", "57P03"]);
const UNREACHABLE_CLASSES = ["08"];
const UNREACHABLE_MESSAGES = [/connection terminated/i, /client has encountered a connection error/i];

/** The first error in the cause chain that matches, within five links. */
function someInChain(error: unknown, test: (code: string | undefined, message: string) => boolean) {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const { code } = current as { code?: unknown };
    if (test(typeof code === "string" ? code : undefined, current.message)) return true;
    current = current.cause;
  }
  return false;
}

export function isTransientDatabaseError(error: unknown): boolean {
  return someInChain(
    error,
    (code, message) =>
      (code !== undefined &&
        (TRANSIENT_CODES.has(code) ||
          SOCKET_CODES.has(code) ||
          (code.length === 5 && TRANSIENT_CLASSES.includes(code.slice(0, 2))))) ||
      DRIVER_MESSAGES.some((pattern) => pattern.test(message)),
  );
}

/**
 * A transient failure that is the database being out of reach (stopped, restarting, its connections cut),
 * rather than busy (too many clients, a deadlock, a statement time-out, the pool's wait for a connection).
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  return someInChain(
    error,
    (code, message) =>
      (code !== undefined &&
        (UNREACHABLE_CODES.has(code) ||
          SOCKET_CODES.has(code) ||
          (code.length === 5 && UNREACHABLE_CLASSES.includes(code.slice(0, 2))))) ||
      UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)),
  );
}

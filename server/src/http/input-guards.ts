// Checks every request makes before its route sees it: no NUL characters in any string of the body, query
// or path (PostgreSQL text cannot hold them, and no field of this app has a use for one); a short deadline
// for an ordinary request's body (upload routes, marked `config: { slowBody: true }`, get the longer
// REQUEST_TIMEOUT_SECONDS that Node enforces for every request); and a cap on open connections per client
// address (browsers open about six), so one host cannot hold the server's sockets.
import { Socket } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { InvalidInput } from "../platform/errors";

/** Arrays and plain records (query parsers make theirs from a null-prototype class); not buffers or streams. */
function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** The dotted path of the first string holding a NUL, or undefined. Iterative: deep JSON cannot overflow it. */
export function findNulField(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, ""]];
  while (pending.length > 0) {
    const [item, where] = pending.pop()!;
    if (typeof item === "string") {
      if (item.includes("\u0000")) return where;
      continue;
    }
    if (!isPlainContainer(item)) continue;
    for (const [key, child] of Object.entries(item)) {
      if (key.includes("\u0000")) return where ? `${where}.${key.replaceAll("\u0000", "")}` : "(a key)";
      pending.push([child, where ? `${where}.${key}` : key]);
    }
  }
  return undefined;
}

function refuseNul(request: FastifyRequest): void {
  const parts = [
    ["body", request.body],
    ["querystring", request.query],
    ["params", request.params],
  ] as const;
  for (const [context, value] of parts) {
    const field = findNulField(value);
    if (field !== undefined) {
      const where = field ? ` field ${field}` : "";
      throw new InvalidInput(`Invalid ${context}${where}: must not contain NUL characters`);
    }
  }
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** An upload route: its body may take REQUEST_TIMEOUT_SECONDS instead of BODY_TIMEOUT_SECONDS. */
    slowBody?: boolean;
  }
}

const TIMED_OUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/** Cuts off, with a 408 as Node itself answers, a request whose body is not in after `timeoutMs`. */
function installBodyDeadline(app: FastifyInstance, timeoutMs: number): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const raw = request.raw;
    // Nothing to wait for without a body (most requests: a timer and two listeners each were measurable).
    const bodyless =
      raw.headers["transfer-encoding"] === undefined && (raw.headers["content-length"] ?? "0") === "0";
    // Injected requests (tests, in-process) have no real socket to cut off.
    if (bodyless || raw.complete || request.routeOptions.config?.slowBody || !(raw.socket instanceof Socket))
      return done();
    const timer = setTimeout(() => {
      if (raw.complete || raw.socket.destroyed) return;
      raw.socket.end(TIMED_OUT);
      raw.socket.destroySoon();
    }, timeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once("end", clear);
    raw.once("close", clear);
    done();
  });
}

export function installInputGuards(
  app: FastifyInstance,
  options: {
    /** 0 for no cap. Behind a proxy every connection comes from the proxy, so the caller passes 0 there. */
    maxConnectionsPerAddress: number;
    bodyTimeoutMs: number;
  },
): void {
  // A callback hook: an async one costs every request a promise.
  app.addHook("preValidation", (request, _reply, done) => {
    // The path and query hold a NUL only as "%00" (the HTTP parser refuses a raw one): most requests are
    // bodiless reads whose address has none, and need no walk.
    if (request.body === undefined && !request.url.includes("%00")) return done();
    try {
      refuseNul(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  installBodyDeadline(app, options.bodyTimeoutMs);

  const cap = options.maxConnectionsPerAddress;
  if (cap <= 0) return;
  const open = new Map<string, number>();
  app.server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

// Checks every request makes before its route sees it: no NUL characters in any string of the body, query
// or path (PostgreSQL text cannot hold them, and no field of this app has a use for one), and a cap on open
// connections per client address (browsers open about six), so one host cannot hold the server's sockets.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { BadRequest } from "./errors";

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
      throw new BadRequest(`Invalid ${context}${where}: must not contain NUL characters`);
    }
  }
}

export function installInputGuards(
  app: FastifyInstance,
  /** 0 for no cap. Behind a proxy every connection comes from the proxy, so the caller passes 0 there. */
  options: { maxConnectionsPerAddress: number },
): void {
  app.addHook("preValidation", async (request) => refuseNul(request));

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

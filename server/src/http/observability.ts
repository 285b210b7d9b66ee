// What an operator sees of each request (decision 0128): its id, returned as X-Request-Id and carried by every
// log line written while it runs (also by services that log through the app's own logger), its duration in
// the metrics by route pattern, and GET /metrics behind METRICS_TOKEN.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import type { FastifyInstance } from "fastify";
import type { TrustProxy } from "../config";
import { NotAuthenticated, NotFound } from "../platform/errors";
import { metrics, metricsAllowed, metricsContentType, metricsText } from "../platform/metrics";

/** Letters, digits and - _ . : / + = (uuids, W3C trace ids, nginx's $request_id), 8 to 128 of them. */
const acceptableRequestId = /^[A-Za-z0-9._:/+=-]{8,128}$/;

/** Whether the hop that sent a request (the socket's peer) is a proxy TRUST_PROXY trusts. */
function trustsPeer(trust: TrustProxy): (address: string | undefined) => boolean {
  if (trust === false || trust === 0) return () => false;
  if (trust === true || typeof trust === "number") return () => true;
  const list = new BlockList();
  for (const entry of trust) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return list.check(plain, isIP(plain) === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * Fastify's genReqId: the X-Request-Id a trusted proxy sent (nginx's $request_id ties its access log to
 * ours), otherwise a new uuid. A client's own header is ignored unless the hop in front is trusted, so
 * nobody can make their requests' log lines look like someone else's.
 */
export function requestIdFor(trust: TrustProxy): (request: IncomingMessage) => string {
  const trusted = trustsPeer(trust);
  return (request) => {
    const given = request.headers["x-request-id"];
    if (
      typeof given === "string" &&
      acceptableRequestId.test(given) &&
      trusted(request.socket.remoteAddress)
    ) {
      return given;
    }
    return randomUUID();
  };
}

const currentRequest = new AsyncLocalStorage<string>();

/**
 * pino's mixin: the id of the request being handled, for lines written through the app's logger while it
 * runs (a service's ctx.log). request.log's own lines carry it already as Fastify's reqId binding.
 */
export function requestIdMixin(root: () => unknown) {
  return (_object: object, _level: number, logger: unknown): object => {
    if (logger !== root()) return {};
    const reqId = currentRequest.getStore();
    return reqId ? { reqId } : {};
  };
}

export function installObservability(
  app: FastifyInstance,
  options: { metricsToken: string | undefined },
): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    currentRequest.run(request.id, done);
  });
  // One histogram observe per request; the route is the registered pattern (/api/stories/:id), never the
  // address, so ids add no label values. Unmatched addresses share one label.
  app.addHook("onResponse", (request, reply, done) => {
    metrics.request(
      request.method,
      request.routeOptions.url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get("/metrics", { schema: { hide: true }, logLevel: "warn" }, async (request, reply) => {
    // Without a token the main port never serves metrics (METRICS_PORT may): as if there were no route.
    if (!options.metricsToken) throw new NotFound("No route GET /metrics");
    if (!metricsAllowed(options.metricsToken, request.headers.authorization)) {
      throw new NotAuthenticated("A valid metrics token is required");
    }
    return reply
      .header("cache-control", "no-store")
      .type(metricsContentType)
      .send(await metricsText());
  });
}

// The process's Prometheus metrics (decision 0128): one registry per process, written to by the modules that
// own each event (a request, a narrator turn, a job, a vendor call, a charge, an event stream) and read by
// GET /metrics. Never public: the main port serves it only behind METRICS_TOKEN, or METRICS_PORT serves it
// on a port of its own; with neither it is a 404. Each process (API or worker) reports its own figures and
// Prometheus scrapes each. Labels are bounded sets (route patterns, job kinds, vendors): never an id.
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import client from "prom-client";
import { createVendorMinutes, type VendorMinutes } from "./vendor-minutes";

const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const httpDuration = new client.Histogram({
  name: "storyverse_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern and status class: _count is the request rate, the buckets the latency",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const firstWord = new client.Histogram({
  name: "storyverse_narrator_first_word_seconds",
  help: "Streamed narrator turns: from asking the narrator (after the charge) to the first word shown",
  buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60],
  registers: [registry],
});

const jobDuration = new client.Histogram({
  name: "storyverse_job_duration_seconds",
  help: "Background job tries by kind and outcome (completed, failed)",
  labelNames: ["kind", "outcome"] as const,
  buckets: [0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

const vendorCalls = new client.Counter({
  name: "storyverse_vendor_calls_total",
  help: "AI vendor calls by vendor, kind (text, image, video, ...) and outcome (ok, error, cancelled)",
  labelNames: ["vendor", "kind", "outcome"] as const,
  registers: [registry],
});

const vendorErrors = new client.Counter({
  name: "storyverse_vendor_errors_total",
  help: "Failed AI vendor calls by vendor, kind and reason (busy, timeout, unreachable, rejected, ...)",
  labelNames: ["vendor", "kind", "reason"] as const,
  registers: [registry],
});

const creditsCharged = new client.Counter({
  name: "storyverse_credits_charged_total",
  help: "Credits charged, by price kind (unlimited accounts are charged 0)",
  labelNames: ["kind"] as const,
  registers: [registry],
});

const creditsRefunded = new client.Counter({
  name: "storyverse_credits_refunded_total",
  help: "Credits given back for work not delivered",
  registers: [registry],
});

const eventStreams = new client.Gauge({
  name: "storyverse_event_streams_open",
  help: "Live event streams (GET /api/events) open on this process",
  registers: [registry],
});

const redisUp = new client.Gauge({
  name: "storyverse_redis_up",
  help: "1 while this process's Redis connection (REDIS_URL) is up, 0 while it is lost; absent without Redis",
  registers: [registry],
});

/** Vendor calls by minute, written to the database for the admin console's Health (decisions 0150, 0159). */
const vendorMinutes = createVendorMinutes();
let eventStreamsOpen = 0;

type QueueDepth = () => Promise<{ kind: string; state: string; count: number }[]>;
let queueDepthSource: QueueDepth | undefined;

new client.Gauge({
  name: "storyverse_jobs_waiting",
  help: "Jobs not finished, by kind and state (created, retry, active): the same database-wide figure from every process",
  labelNames: ["kind", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!queueDepthSource) return;
    // A scrape while the database is away still answers, without this gauge's values.
    const rows = await queueDepthSource().catch(() => []);
    for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
  },
});

/** The one place each module records what it owns; every call is a map lookup and an add. */
export const metrics = {
  request(method: string, route: string, statusCode: number, seconds: number): void {
    httpDuration.observe({ method, route, status: `${Math.floor(statusCode / 100)}xx` }, seconds);
  },
  firstWord(seconds: number): void {
    firstWord.observe(seconds);
  },
  job(kind: string, outcome: "completed" | "failed", seconds: number): void {
    jobDuration.observe({ kind, outcome }, seconds);
  },
  vendorCall(
    vendor: string,
    kind: string,
    outcome: "ok" | "error" | "cancelled",
    reason?: string,
    seconds?: number,
  ): void {
    vendorCalls.inc({ vendor, kind, outcome });
    if (outcome === "error") vendorErrors.inc({ vendor, kind, reason: reason ?? "other" });
    // A call the player stopped says nothing about the vendor's speed or health.
    if (seconds !== undefined && outcome !== "cancelled")
      vendorMinutes.record(vendor, kind, seconds * 1000, outcome === "error");
  },
  /** This process's vendor calls by minute, vendor and kind, not yet written for the Health tab. */
  vendorMinutes(): VendorMinutes {
    return vendorMinutes;
  },
  charged(kind: string, credits: number): void {
    if (credits > 0) creditsCharged.inc({ kind }, credits);
  },
  refunded(credits: number): void {
    if (credits > 0) creditsRefunded.inc(credits);
  },
  eventStreamOpened(): void {
    eventStreams.inc();
    eventStreamsOpen += 1;
  },
  eventStreamClosed(): void {
    eventStreams.dec();
    eventStreamsOpen = Math.max(0, eventStreamsOpen - 1);
  },
  /** Live event streams open on this process now. */
  eventStreamsOpen(): number {
    return eventStreamsOpen;
  },
  redis(up: boolean): void {
    redisUp.set(up ? 1 : 0);
  },
  /** The job queue of this process reports its depth at each scrape; the answer forgets it again. */
  queueDepthFrom(source: QueueDepth): () => void {
    queueDepthSource = source;
    return () => {
      if (queueDepthSource === source) queueDepthSource = undefined;
    };
  },
};

export const metricsContentType = registry.contentType;

export function metricsText(): Promise<string> {
  return registry.metrics();
}

/**
 * Whether a request may read the metrics: with a token configured only `Authorization: Bearer <token>`
 * may (compared in constant time); without one, anyone who reaches the metrics port may.
 */
export function metricsAllowed(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const match = /^Bearer (.+)$/i.exec(authorization ?? "");
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function answer(response: ServerResponse, status: number, body: string, type = "application/json"): void {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}

/** GET /metrics on a port of its own (METRICS_PORT); anything else there is a 404. */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  token: string | undefined;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method !== "GET" || path !== "/metrics") {
      answer(response, 404, JSON.stringify({ detail: "Not found" }));
      return;
    }
    if (!metricsAllowed(options.token, request.headers.authorization)) {
      answer(response, 401, JSON.stringify({ detail: "A valid metrics token is required" }));
      return;
    }
    metricsText().then(
      (text) => answer(response, 200, text, metricsContentType),
      () => answer(response, 500, JSON.stringify({ detail: "Metrics could not be collected" })),
    );
  });
  return listenOn(server, options.port, options.host);
}

/** Listens and answers the address and a close that waits for open sockets. */
export function listenOn(
  server: Server,
  port: number,
  host: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      const shownHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

// A worker-only process's own health check (WORKER=only and WORKER_HEALTH_PORT, decision 0128): it has no
// HTTP app, so a tiny server answers GET /health: 200 while its database answers and its job loop is alive,
// 503 (with what is wrong) otherwise. Nothing else is served there.
import { createServer } from "node:http";
import { listenOn } from "../platform/metrics";
import type { JobQueue } from "./queue";

/** A loop that has not looked for ready jobs for this long is stuck (it looks every 2 s). */
export const STUCK_LOOP_MS = 30_000;

export function startWorkerHealthServer(options: {
  port: number;
  host: string;
  jobs: Pick<JobQueue, "alive">;
  pingDatabase: () => Promise<void>;
  /** The ping's own limit: a database that does not answer in time is unreachable. */
  pingTimeoutMs?: number;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const timeoutMs = options.pingTimeoutMs ?? 5_000;
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      response.end(JSON.stringify(body));
    };
    const path = (request.url ?? "").split("?")[0];
    if ((request.method !== "GET" && request.method !== "HEAD") || path !== "/health") {
      send(404, { detail: "Not found" });
      return;
    }
    if (!options.jobs.alive(STUCK_LOOP_MS)) {
      send(503, { detail: "The job loop is stopped or stuck" });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const tooSlow = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
    });
    Promise.race([options.pingDatabase(), tooSlow])
      .then(
        () => send(200, { status: "ok", details: { database: "ok", jobs: "ok" } }),
        () => send(503, { detail: "Database unavailable" }),
      )
      .finally(() => clearTimeout(timer));
  });
  return listenOn(server, options.port, options.host);
}

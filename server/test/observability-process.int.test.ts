// Real processes, as an operator runs them (decision 0128): with S3 configured every line a start prints is
// JSON (the AWS SDK's multi-line warning about Node 20 included), each request's id is in its log lines and a
// trusted proxy's is kept, metrics on their own port; a worker-only process logs a start line and answers its
// health check on its own port.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type Started, spawnServer, startServer } from "./processes";

type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

/** Every line printed, parsed; a line that is not one JSON object fails the test with the line shown. */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
        return parsed as Record<string, unknown>;
      } catch {
        throw new Error(`a line that is not JSON: ${line}`);
      }
    });
}

async function stopped(child: Started["child"]): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("a server process with S3, a trusted proxy and a metrics port", () => {
  let s3: S3rverInstance;
  let dirs: string[] = [];
  let server: Started;
  let metricsPort: number;

  beforeAll(async () => {
    const s3Dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-s3rver-"));
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-obs-"));
    dirs = [s3Dir, dataDir];
    s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: "media" }],
    });
    const { port: s3Port } = await s3.run();
    metricsPort = await freePort();
    server = await startServer({
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      TRUST_PROXY: "127.0.0.1",
      METRICS_PORT: String(metricsPort),
      MEDIA_STORAGE: "s3",
      S3_BUCKET: "media",
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    });
  }, 120_000);
  afterAll(async () => {
    if (server) await stopped(server.child);
    await s3?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("keeps a trusted proxy's request id, puts each request's id in its log lines, and prints only JSON lines", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const proxyId = `nginx-${randomUUID().replaceAll("-", "")}`;
    const viaProxy = await fetch(`${base}/api/config`, { headers: { "x-request-id": proxyId } });
    expect(viaProxy.headers.get("x-request-id")).toBe(proxyId);
    const own = await fetch(`${base}/api/config`);
    const ownId = own.headers.get("x-request-id");
    expect(ownId).toMatch(/^[0-9a-f-]{36}$/);

    // Metrics on their own port (no token set: the port itself is the guard); the main port has none.
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(
      /^storyverse_http_request_duration_seconds_count\{method="GET",route="\/api\/config",status="2xx"\} 2$/m,
    );
    expect((await fetch(`${base}/metrics`)).status).toBe(404);

    await stopped(server.child);
    const lines = jsonLines(server.output());
    for (const id of [proxyId, ownId]) {
      const about = lines.filter((line) => line.reqId === id);
      expect(about.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    }
    expect(lines.some((line) => String(line.msg).startsWith("Storyverse is running on"))).toBe(true);
    // On Node before 22 the AWS SDK warns at the S3 client's start: a JSON line now, not plain text.
    if (Number(process.versions.node.split(".")[0]) < 22) {
      const warning = lines.find((line) => String(line.msg).startsWith("process warning"));
      expect(warning?.msg).toMatch(/^process warning: NodeVersionSupportWarning: The AWS SDK for JavaScript/);
      expect(String((warning?.warning as { message: string }).message)).toContain("upgrade to node >=22");
    }
  });
});

describe("a worker-only process", () => {
  it("logs a start line and answers GET /health on WORKER_HEALTH_PORT", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-worker-"));
    const healthPort = await freePort();
    const { child, output } = spawnServer({
      DATA_DIR: dataDir,
      WORKER: "only",
      WORKER_HEALTH_PORT: String(healthPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    });
    try {
      const deadline = Date.now() + 80_000;
      let status = 0;
      while (Date.now() < deadline && child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${healthPort}/health`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status, output()).toBe(200);
      await stopped(child);
      const start = jsonLines(output()).find((line) =>
        String(line.msg).startsWith("Storyverse worker is running"),
      );
      expect(start).toMatchObject({
        level: "info",
        worker: "only",
        health: `http://127.0.0.1:${healthPort}/health`,
      });
    } finally {
      await stopped(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

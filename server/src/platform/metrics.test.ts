// The metrics port (METRICS_PORT, decision 0128): GET /metrics and nothing else, behind the token when one is set.
import { afterEach, describe, expect, it } from "vitest";
import { metrics, startMetricsServer } from "./metrics";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(token: string | undefined) {
  const server = await startMetricsServer({ port: 0, host: "127.0.0.1", token });
  close = server.close;
  return server.url;
}

describe("the metrics port", () => {
  it("serves Prometheus text without a token, and 404s anything but GET /metrics", async () => {
    const url = await start(undefined);
    metrics.request("GET", "/api/config", 200, 0.002);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toMatch(
      /^storyverse_http_request_duration_seconds_count\{method="GET",route="\/api\/config",status="2xx"\} [1-9]/m,
    );
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("asks for the token when one is set", async () => {
    const token = "a-metrics-token-of-some-length";
    const url = await start(token);
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.text()).not.toContain("storyverse_");
    expect((await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
  });
});

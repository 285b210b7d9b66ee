// What an operator sees (decision 0128): GET /metrics only for the metrics token, its counters moving with
// requests, a streamed turn, its charge, its vendor call and its picture job; and each request's id, a trusted
// proxy's one kept and a client's own ignored.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser } from "../../test/factories";
import { freePort } from "../../test/processes";
import { postTurnStream } from "../../test/sse";
import { charge, refund } from "../credits/service";

const TOKEN = "metrics-token-for-tests-0123456789";

/** The value of one sample of the Prometheus text, 0 when the series has none yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.startsWith(name)) continue;
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

describe("GET /metrics on the main port", () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        METRICS_TOKEN: TOKEN,
        REQUIRE_EMAIL_VERIFICATION: "false",
        OFFLINE_TEXT_WORDS_PER_SECOND: "200",
      },
    });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const scrape = async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it("is refused without the token or with a wrong one, and served with it", async () => {
    const none = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(none.statusCode).toBe(401);
    expect(none.json().detail).toBe("A valid metrics token is required");
    expect(none.body).not.toContain("storyverse_");
    const wrong = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    // Node's own process figures come with the app's.
    expect(right.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(right.body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it("counts requests by route pattern, never by the address's ids", async () => {
    const route = { method: "GET", route: "/api/stories/:id/messages", status: "4xx" };
    const before = sample(await scrape(), "storyverse_http_request_duration_seconds_count", route);
    const user = await createUser(t);
    const id = randomUUID();
    const res = await t.app.inject({
      method: "GET",
      url: `/api/stories/${id}/messages`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.statusCode).toBe(404);
    const after = await scrape();
    expect(sample(after, "storyverse_http_request_duration_seconds_count", route)).toBe(before + 1);
    expect(after).not.toContain(id);
  });

  it("moves time to first word, the vendor's calls, the credits charged and the picture job after a streamed turn", async () => {
    const before = await scrape();
    const user = await createUser(t);
    const stream = await postTurnStream(base, "/api/chat", user.token, {
      prompt: "I light the lantern and step into the cave",
      chat_mode: "image",
    });
    expect(stream.status).toBe(200);
    await stream.next((event) => event.event === "done");
    // The turn's picture is a job: wait until the media status says it is done.
    let after = await scrape();
    for (let i = 0; i < 100; i += 1) {
      if (
        sample(after, "storyverse_job_duration_seconds_count", {
          kind: "chat-generate-media",
          outcome: "completed",
        }) >
        sample(before, "storyverse_job_duration_seconds_count", {
          kind: "chat-generate-media",
          outcome: "completed",
        })
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await scrape();
    }
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved("storyverse_narrator_first_word_seconds_count")).toBe(1);
    // The narrator's streamed answer and the picture job's scene prompt, both from the text vendor.
    expect(moved("storyverse_vendor_calls_total", { vendor: "offline", kind: "text", outcome: "ok" })).toBe(
      2,
    );
    expect(moved("storyverse_vendor_calls_total", { vendor: "offline", kind: "image", outcome: "ok" })).toBe(
      1,
    );
    expect(moved("storyverse_credits_charged_total", { kind: "image" })).toBeGreaterThan(0);
    expect(
      moved("storyverse_job_duration_seconds_count", { kind: "chat-generate-media", outcome: "completed" }),
    ).toBe(1);
  });

  it("counts credits charged by kind and refunded, a refund once per reference", async () => {
    const before = await scrape();
    const user = await createUser(t);
    const paidFor = randomUUID();
    const paid = await charge(t.ctx.db, user.userId, "image", 2, new Date(), "two pictures", paidFor);
    const reference = `refund:${paidFor}`;
    expect(
      await refund(t.ctx.db, user.userId, paid.chargedTenths / 2, reference, new Date(), "one not made"),
    ).toBe(true);
    // The same refund again gives nothing back, and counts nothing.
    expect(await refund(t.ctx.db, user.userId, paid.chargedTenths / 2, reference, new Date(), "again")).toBe(
      false,
    );
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      Math.round((sample(after, name, labels) - sample(before, name, labels)) * 10) / 10;
    expect(moved("storyverse_credits_charged_total", { kind: "image" })).toBe(paid.chargedTenths / 10);
    expect(moved("storyverse_credits_refunded_total")).toBe(paid.chargedTenths / 20);
  });

  it("shows the event streams open on this process", async () => {
    const user = await createUser(t);
    const before = sample(await scrape(), "storyverse_event_streams_open");
    const controller = new AbortController();
    const res = await fetch(`${base}/api/events`, {
      headers: { authorization: `Bearer ${user.token}` },
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    expect(sample(await scrape(), "storyverse_event_streams_open")).toBe(before + 1);
    controller.abort();
    await reader.read().catch(() => undefined);
    for (let i = 0; i < 50 && sample(await scrape(), "storyverse_event_streams_open") !== before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sample(await scrape(), "storyverse_event_streams_open")).toBe(before);
  });

  it("gives each request an id in X-Request-Id and ignores one a client sends when no proxy is trusted", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/config" });
    const second = await t.app.inject({
      method: "GET",
      url: "/api/config",
      headers: { "x-request-id": "client-chosen-id-1234" },
    });
    expect(first.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    // Refusals carry it too.
    const refused = await t.app.inject({ method: "GET", url: "/api/stories" });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("GET /metrics without a token", () => {
  it("is a 404 on the main port, not the web app's page", async () => {
    const t = await createTestApp({ workers: false });
    try {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBeTruthy();
      expect(res.body).not.toContain("storyverse_");
    } finally {
      await t.cleanup();
    }
  });
});

describe("X-Request-Id behind a proxy", () => {
  const idFor = async (trustProxy: string, sent: string) => {
    const t = await createTestApp({ workers: false, env: { TRUST_PROXY: trustProxy } });
    try {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/config",
        headers: { "x-request-id": sent },
      });
      return res.headers["x-request-id"];
    } finally {
      await t.cleanup();
    }
  };

  it("keeps the id a trusted proxy sends (by hop count or by its address)", async () => {
    expect(await idFor("1", "nginx-0123456789abcdef")).toBe("nginx-0123456789abcdef");
    expect(await idFor("127.0.0.0/8", "trace-id:42:abcdef")).toBe("trace-id:42:abcdef");
  });

  it("ignores it from a hop that is not trusted, and any id that is too long or has other characters", async () => {
    expect(await idFor("10.0.0.1", "nginx-0123456789abcdef")).not.toBe("nginx-0123456789abcdef");
    expect(await idFor("1", "a".repeat(129))).toMatch(/^[0-9a-f-]{36}$/);
    expect(await idFor("1", 'has spaces and "quotes"')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("a vendor that cannot be reached", () => {
  it("counts the failed call by vendor, kind and reason, and the service's log line carries the request's id", async () => {
    const written: string[] = [];
    // Nothing listens on this port: every call to the voice vendor is refused.
    const closedPort = await freePort();
    const t = await createTestApp({
      workers: false,
      logStream: { write: (line: string) => void written.push(line) },
      env: {
        LOG_LEVEL: "info",
        METRICS_TOKEN: TOKEN,
        TTS_PROVIDER: "elevenlabs",
        TTS_API_KEY: "test-key-not-used",
        TTS_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
      },
    });
    try {
      const scrape = async () =>
        (
          await t.app.inject({
            method: "GET",
            url: "/metrics",
            headers: { authorization: `Bearer ${TOKEN}` },
          })
        ).body;
      const failed = { vendor: "elevenlabs", kind: "voices", reason: "unreachable" };
      const before = sample(await scrape(), "storyverse_vendor_errors_total", failed);
      const user = await createUser(t);
      const res = await t.app.inject({
        method: "GET",
        url: "/api/voices",
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(sample(await scrape(), "storyverse_vendor_errors_total", failed)).toBe(before + 1);
      const id = res.headers["x-request-id"];
      const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
      // Written by the voices service through the app's logger, not by the request's own logger.
      const serviceLine = lines.find((line) => line.msg === "listing voices failed");
      expect(serviceLine?.reqId).toBe(id);
      expect(lines.filter((line) => line.reqId === id).map((line) => line.msg)).toEqual([
        "incoming request",
        "listing voices failed",
        "request completed",
      ]);
    } finally {
      await t.cleanup();
    }
  });
});

describe("queue depth", () => {
  it("shows a queued job by kind and state while no worker has taken it", async () => {
    // No workers in this process: the turn's picture job waits in the queue.
    const t = await createTestApp({ workers: false, env: { METRICS_TOKEN: TOKEN } });
    try {
      const waiting = async () =>
        sample(
          (
            await t.app.inject({
              method: "GET",
              url: "/metrics",
              headers: { authorization: `Bearer ${TOKEN}` },
            })
          ).body,
          "storyverse_jobs_waiting",
          { kind: "chat-generate-media", state: "created" },
        );
      const before = await waiting();
      const user = await createUser(t);
      const turn = await t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: { authorization: `Bearer ${user.token}` },
        payload: { prompt: "I open the door", chat_mode: "image" },
      });
      expect(turn.statusCode).toBe(200);
      expect(await waiting()).toBe(before + 1);
    } finally {
      await t.cleanup();
    }
  });
});

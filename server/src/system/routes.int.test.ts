import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";

describe("system routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("GET /api/health answers ok after a database round trip", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("GET /api/ready answers ready while the database answers and the process is not stopping", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ready", details: { database: "ok" } });
  });

  it("GET /api/config lists the capabilities that are on", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      capabilities: ["accounts", "email_verification", "text", "image", "video", "payments"],
      providers: { text: "offline", image: "offline", video: "offline", transcription: null },
      offline_providers: true,
      image_edit_kinds: ["inpaint", "outpaint", "vary", "upscale"],
      video_clip_features: { last_frame: true, camera: true },
    });
  });

  it("unknown API paths get a JSON 404 with a detail", async () => {
    for (const [method, url] of [
      ["GET", "/api/nope"],
      ["POST", "/api/stories/1/unknown"],
      ["GET", "/api"],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.json().detail).toContain(url);
    }
  });

  it("serves the SPA's index for every non-API path, including /verify-email?token=", async () => {
    for (const url of [
      "/",
      "/stories",
      "/stories/5f0c2a9e-8d1b-4c3a-9e7f-1a2b3c4d5e6f",
      "/verify-email?token=abc123",
      "/some/deep/link",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("<div id=root></div>");
    }
  });

  it("sends security headers with a strict Content-Security-Policy", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("sends the same security headers on API answers, errors included, as on pages", async () => {
    for (const url of ["/api/health", "/api/no-such-call", "/api/credit-balance"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(String(res.headers["content-security-policy"]), url).toContain("default-src 'self'");
      expect(String(res.headers["content-security-policy"]), url).toContain("frame-ancestors 'none'");
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["x-frame-options"], url).toBe("SAMEORIGIN");
      expect(res.headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      expect(res.headers["cross-origin-opener-policy"], url).toBe("same-origin");
    }
  });

  it("gives every page load its own style nonce, in the policy and in the page, and no inline script", async () => {
    const nonces = [];
    for (const url of ["/", "/stories"]) {
      const res = await t.app.inject({ method: "GET", url });
      const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      expect(res.body).toContain(`content="${nonce}"`);
      expect(res.body).not.toContain("__CSP_NONCE__");
      expect(String(res.headers["content-security-policy"])).toMatch(/script-src 'self';/);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("answers /robots.txt as plain text: pages and shared stories open to crawlers, the rest of /api/ not", async () => {
    const res = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body).not.toContain("<");
    const lines = res.body.trim().split("\n");
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain("Allow: /api/shared/");
    expect(lines).toContain("Allow: /");
    expect(lines).not.toContain("Disallow: /");
    expect(lines).not.toContain("Disallow: /s/");
  });

  it("sends built assets pre-compressed and cacheable for a year", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/assets/app-abc123.js",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.rawPayload.length).toBeLessThan(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("publishes an OpenAPI document generated from the contract schemas, with a UI", async () => {
    const doc = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    const health = spec.paths["/api/health"].get.responses["200"].content["application/json"].schema;
    expect(health.properties.status.enum).toEqual(["ok"]);
    const signup = spec.paths["/api/newsletter"].post.requestBody.content["application/json"].schema;
    expect(signup.required).toContain("email");

    const ui = await t.app.inject({ method: "GET", url: "/api/docs" });
    const page =
      ui.statusCode === 302 ? await t.app.inject({ method: "GET", url: ui.headers.location! }) : ui;
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("swagger-ui");
  });
});

describe("health and readiness when the database is down", () => {
  it("answers 503 with a detail", async () => {
    const t = await createTestApp();
    await t.jobs.stop(1_000);
    await t.database.close();
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: "Database unavailable", code: "unavailable" });
    const ready = await t.app.inject({ method: "GET", url: "/api/ready" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ detail: "Database unavailable", code: "unavailable" });
    await t.app.close();
    await t.cleanup().catch(() => {});
  });
});

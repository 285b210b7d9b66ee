// The central error handler: what a user is told when the database is busy rather than the request wrong.

import { createServer } from "node:net";
import type { QuotaInfo } from "@storyverse/contract/credits";
import Fastify from "fastify";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { InsufficientCredits } from "../credits/service";
import {
  Busy,
  Conflict,
  Forbidden,
  InvalidInput,
  NotAuthenticated,
  NotFound,
  ProviderFailed,
  Stopped,
  TooLarge,
  Unavailable,
} from "../platform/errors";
import { RateLimited } from "../platform/rate-limit";
import { HttpError, installErrorHandling } from "./errors";

async function answerTo(error: Error) {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  app.get("/fails", async () => {
    throw error;
  });
  const res = await app.inject({ method: "GET", url: "/fails" });
  await app.close();
  return res;
}

/** An error as the pg driver raises it for a SQLSTATE, wrapped by Drizzle as a failed query. */
const databaseError = (code: string) =>
  new Error("Failed query: select 1", { cause: Object.assign(new Error("database says no"), { code }) });

describe("the error handler", () => {
  it("answers 503 with Retry-After when the database is busy (too many clients, a deadlock)", async () => {
    for (const code of ["53300", "40P01", "40001", "57014"]) {
      const res = await answerTo(databaseError(code));
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.json().detail).toBe("The server is too busy right now. Please try again in a moment.");
    }
  });

  it("tells players Storyverse is unavailable, not too busy, while the database cannot be reached (audit: outage wording)", async () => {
    const unavailable = "Storyverse is unavailable right now. Please try again in a moment.";
    const unreachable = [
      databaseError("57P01"), // admin_shutdown: PostgreSQL stopping under an open connection
      databaseError("57P03"), // cannot_connect_now: starting up
      databaseError("08006"), // connection_failure
      new Error("Failed query: select 1", { cause: new Error("Connection terminated unexpectedly") }),
      new Error("Failed query: select 1", {
        cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      }),
    ];
    for (const error of unreachable) {
      const res = await answerTo(error);
      expect(res.statusCode, error.message).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.json()).toEqual({ detail: unavailable, code: "unavailable" });
    }
  });

  it("answers the pg driver's own error for a database that refuses connections as unavailable", async () => {
    // A port that was just free: nothing listens there, as when PostgreSQL is stopped.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const pool = new pg.Pool({ connectionString: `postgres://storyverse@127.0.0.1:${port}/storyverse` });
    const refused = await pool.query("select 1").then(
      () => new Error("the query should not have run"),
      (error: Error) => new Error("Failed query: select 1", { cause: error }),
    );
    await pool.end();
    const res = await answerTo(refused);
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toBe("Storyverse is unavailable right now. Please try again in a moment.");
  });

  it("still answers a bare 500 that leaks nothing for any other failure", async () => {
    const res = await answerTo(databaseError("23505"));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ detail: "Internal server error", code: "internal_error" });
  });

  it("gives every error body a stable code beside the detail, named by its status", async () => {
    const cases: [Error, number, string][] = [
      [new InvalidInput("Bad field"), 400, "invalid_request"],
      [new NotFound(), 404, "not_found"],
      [new Conflict("Busy"), 409, "conflict"],
      [new Conflict("Still writing", "turn_in_progress"), 409, "turn_in_progress"],
      [new Conflict("Still painting", "media_in_progress"), 409, "media_in_progress"],
      [new Conflict("Keep one", "last_branch"), 409, "last_branch"],
      [new HttpError(429, "Slow down", {}, { "retry-after": "3" }), 429, "rate_limited"],
      [new HttpError(418, "A teapot"), 418, "http_418"],
      [Object.assign(new Error("Body is too large"), { statusCode: 413 }), 413, "payload_too_large"],
    ];
    for (const [error, status, code] of cases) {
      const res = await answerTo(error);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ detail: error.message, code });
    }
    const extra = await answerTo(new HttpError(402, "Insufficient credits", { quota_exceeded: true }));
    expect(extra.json()).toEqual({
      detail: "Insufficient credits",
      code: "insufficient_credits",
      quota_exceeded: true,
    });
  });

  it("gives each domain error (thrown by services, which know no HTTP) its status, its code and its fields", async () => {
    const cases: [Error, number, string, Record<string, string>][] = [
      [new InvalidInput("Not a card file", "invalid_file"), 400, "invalid_file", {}],
      [new NotAuthenticated(), 401, "not_authenticated", {}],
      [new Forbidden(), 403, "forbidden", {}],
      [new Stopped("Stopped before a word"), 499, "stopped", {}],
      [new TooLarge("Too big"), 413, "payload_too_large", {}],
      [new Busy("Two at a time", 2), 429, "rate_limited", { "retry-after": "2" }],
      [new ProviderFailed("The painter failed"), 502, "provider_failed", {}],
      [
        new Unavailable("Narration is off", { retryAfterSeconds: 5 }),
        503,
        "unavailable",
        { "retry-after": "5" },
      ],
    ];
    for (const [error, status, code, headers] of cases) {
      const res = await answerTo(error);
      expect(res.statusCode, code).toBe(status);
      expect(res.json()).toEqual({ detail: error.message, code });
      expect(res.headers).toMatchObject(headers);
    }
    const quota = { cost: 1.5, remaining: 0.5 } as unknown as QuotaInfo;
    const refused = await answerTo(new InsufficientCredits(quota));
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      code: "insufficient_credits",
      quota_exceeded: true,
      quota_info: quota,
    });
  });

  it("answers the rate limiter's refusal as a 429 with Retry-After, though the limiter knows no HTTP", async () => {
    const res = await answerTo(new RateLimited(90));
    expect(res.statusCode).toBe(429);
    expect(res.headers["retry-after"]).toBe("90");
    expect(res.json()).toEqual({
      detail: "Too many attempts. Please wait 2 minutes and try again.",
      code: "rate_limited",
    });
    const worded = await answerTo(new RateLimited(1, (wait) => `Hold on for ${wait}.`));
    expect(worded.headers["retry-after"]).toBe("1");
    expect(worded.json()).toEqual({ detail: "Hold on for 1 second.", code: "rate_limited" });
  });
});

// The log's scrubbing where the full flow (logging.int.test.ts) does not reach: a failed query's parameters
// and messages naming an address, headers a line might carry, and a route's own log line naming a token.
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loggerOptions, scrubSecrets } from "./logging";

async function logOf(handler: (request: import("fastify").FastifyRequest) => void, url = "/x") {
  const written: string[] = [];
  const app = Fastify({ logger: loggerOptions("trace", { write: (line) => void written.push(line) }) });
  app.get("/*", async (request) => {
    handler(request);
    return "ok";
  });
  await app.inject({
    method: "GET",
    url,
    headers: { authorization: "Bearer sess-0123456789abcdef", cookie: "sid=c00k1e-secret" },
  });
  await app.close();
  return written.join("");
}

describe("the log's scrubbing", () => {
  it("writes a failed query without its parameters and an error without the addresses in its message", async () => {
    // Drizzle's error for a failed query: the SQL, then the user's values; the driver's error as its cause.
    const failed = Object.assign(
      new Error("Failed query: select * from users where lower(email) = $1\nparams: pat@example.org", {
        cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      }),
      { query: "select * from users where lower(email) = $1", params: ["pat@example.org"] },
    );
    // A vendor's error keeps the vendor's answer as a field (Stripe's `raw`).
    const vendor = Object.assign(new Error("No such customer"), {
      raw: { message: "No such customer: 'pat@example.org'", param: "customer" },
    });
    const log = await logOf((request) => {
      request.log.error({ err: failed }, "unhandled error");
      request.log.error({ err: vendor }, "stripe: checkout failed");
      request.log.warn({ err: new Error("no account for Pat.Smith+x@mail.example.co.uk") }, "lookup failed");
    });
    expect(log).toContain("Failed query: select * from users where lower(email) = $1");
    expect(log).toContain("ECONNREFUSED");
    expect(log).toContain('"param":"customer"');
    expect(log).not.toContain("example.org");
    expect(log).not.toContain("Pat.Smith");
  });

  it("redacts credentials in headers a line carries, and tokens in a message's addresses", async () => {
    const log = await logOf((request) => {
      request.log.info({ headers: request.headers }, "headers");
      request.log.info(`shared page ${request.url} opened`);
      request.log.info(
        { mail: { links: ["http://app.test/forgot-password?token=r3set-t0ken-value&x=1"] } },
        "mailed",
      );
    }, "/s/sh4re-t0ken-value");
    expect(log).toContain('"authorization":"[redacted]"');
    for (const secret of ["sess-0123456789abcdef", "c00k1e-secret", "sh4re-t0ken-value", "r3set-t0ken-value"])
      expect(log).not.toContain(secret);
    expect(log).toContain("shared page /s/[redacted] opened");
  });

  it("leaves what is not secret as it is", () => {
    const plain = "/api/stories/0b8c/messages?branch=main&limit=20";
    expect(scrubSecrets(plain)).toBe(plain);
    expect(scrubSecrets("/api/media/u/1/a.png?exp=1795903185&sig=ab12&w=640")).toBe(
      "/api/media/u/1/a.png?exp=[redacted]&sig=[redacted]&w=640",
    );
    expect(scrubSecrets("/api/check-email/pat%40example.org")).toBe("/api/check-email/[redacted]");
  });
});

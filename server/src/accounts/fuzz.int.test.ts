// Whatever a client sends to the account endpoints, the answer is a 4xx or 2xx with a JSON body, never a 5xx.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, freshAddress, registerByMail, type TestUser } from "../../test/factories";

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await registerByMail(t);
});
afterAll(async () => {
  await t.cleanup();
});

const jsonBodies = [
  "/api/register",
  "/api/login",
  "/api/resend-verification",
  "/api/forgot-password",
  "/api/reset-password",
];
const pathParams = ["/api/check-username/", "/api/check-email/", "/api/verify-email/"];
const authenticated = ["/api/user/verify", "/api/profile"];

function expectClean(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  label: string,
) {
  expect(res.statusCode, `${label} -> ${res.body}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(String(res.headers["content-type"])).toContain("application/json");
    expect(typeof JSON.parse(res.body).detail).toBe("string");
  }
}

describe("fuzzing the account endpoints", () => {
  it.each(jsonBodies)("POST %s with arbitrary JSON never fails with a 5xx", async (url) => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { "content-type": "application/json" },
          payload: JSON.stringify(value),
          remoteAddress: freshAddress(),
        });
        expectClean(res, `${url} ${JSON.stringify(value)}`);
      }),
      { numRuns: 60 },
    );
  });

  it.each(
    jsonBodies,
  )("POST %s with field-shaped objects of arbitrary values never fails with a 5xx", async (url) => {
    const field = fc.oneof(fc.string(), fc.jsonValue(), fc.emailAddress(), fc.constant(user.email));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ email: field, username: field, password: field, token: field }, { requiredKeys: [] }),
        async (value) => {
          const res = await t.app.inject({
            method: "POST",
            url,
            payload: value,
            remoteAddress: freshAddress(),
          });
          expectClean(res, `${url} ${JSON.stringify(value)}`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("POST with a body that is not JSON at all never fails with a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...jsonBodies),
        fc.string(),
        fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
        async (url, body, type) => {
          const res = await t.app.inject({
            method: "POST",
            url,
            headers: { "content-type": type },
            payload: body,
            remoteAddress: freshAddress(),
          });
          expectClean(res, `${url} ${type} ${body}`);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each(pathParams)("GET %s{arbitrary} never fails with a 5xx", async (prefix) => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (value) => {
        const res = await t.app.inject({
          method: "GET",
          url: prefix + encodeURIComponent(value),
          remoteAddress: freshAddress(),
        });
        expectClean(res, prefix + value);
      }),
      { numRuns: 60 },
    );
  });

  it.each(
    authenticated,
  )("GET %s with arbitrary Authorization headers never fails with a 5xx", async (url) => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (value) => {
        const header = value.replace(/[^\x20-\x7e]/g, "");
        const res = await t.app.inject({
          method: "GET",
          url,
          headers: { authorization: `Bearer ${header}` },
        });
        expectClean(res, `${url} ${header}`);
        expect(res.statusCode).toBe(401);
      }),
      { numRuns: 60 },
    );
    expect((await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).statusCode).toBe(200);
  });
});

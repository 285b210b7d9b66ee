// Two API processes on one database: a second app with its own connection pool and its own LISTEN
// connection (on PostgreSQL; on embedded PGlite, which is one process's database, it shares the database
// handle). A session revoked through one is refused by the other within a second, although the other had
// it in its session cache; the sign-in limit per account counts attempts made through both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, freshAddress, registerByMail } from "../../test/factories";
import { linkFrom } from "../../test/smtp-sink";
import { buildApp } from "../app";
import { type Database, openDatabase } from "../db/client";
import type { TypedApp } from "../http/route-module";

let t: TestApp;
let other: TypedApp;
let otherDatabase: Database;

beforeAll(async () => {
  t = await createTestApp();
  otherDatabase = t.database.kind === "postgres" ? await openDatabase(t.target) : t.database;
  other = await buildApp({
    config: t.config,
    database: otherDatabase,
    jobs: t.jobs,
    providers: t.providers,
    storage: t.storage,
    clock: t.clock,
    webDistDir: t.webDistDir,
    logger: false,
  });
  await other.ready();
});
afterAll(async () => {
  await other.close();
  if (otherDatabase !== t.database) await otherDatabase.close();
  await t.cleanup();
});

const verify = (app: TypedApp, token: string) =>
  app.inject({ method: "GET", url: "/api/user/verify", headers: bearer(token) });

/** Milliseconds until `app` refuses the token, polling every 20 ms; fails past `withinMs`. */
async function refusedWithin(app: TypedApp, token: string, withinMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const status = (await verify(app, token)).statusCode;
    const elapsed = performance.now() - started;
    if (status === 401) return elapsed;
    expect(status).toBe(200);
    if (elapsed > withinMs) throw new Error(`still accepted after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("two API processes on one database", () => {
  it("refuses a session on the other process within a second of logout, though it had it cached", async () => {
    const u = await registerByMail(t);
    // Both processes have seen the session: the other one now answers from its cache.
    expect((await verify(t.app, u.token)).statusCode).toBe(200);
    expect((await verify(other, u.token)).statusCode).toBe(200);
    expect((await verify(other, u.token)).statusCode).toBe(200);

    const logout = await t.app.inject({ method: "POST", url: "/api/logout", headers: bearer(u.token) });
    expect(logout.statusCode).toBe(200);
    expect(await refusedWithin(other, u.token, 1000)).toBeLessThan(1000);
    expect((await verify(t.app, u.token)).statusCode).toBe(401);
  });

  it("signs a user out of every process within a second of a password reset", async () => {
    const u = await registerByMail(t);
    const second = await other.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: u.email, password: u.password },
      remoteAddress: freshAddress(),
    });
    const secondToken = second.json().access_token as string;
    for (const token of [u.token, secondToken]) expect((await verify(other, token)).statusCode).toBe(200);

    await t.app.inject({
      method: "POST",
      url: "/api/forgot-password",
      payload: { email: u.email },
      remoteAddress: freshAddress(),
    });
    const mail = await t.smtp.waitForMail(u.email);
    const token = new URL(linkFrom(mail, `${t.config.appUrl}/forgot-password`)).searchParams.get("token")!;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token, password: "a-brand-new-secret" },
      remoteAddress: freshAddress(),
    });
    expect(reset.statusCode).toBe(200);
    for (const session of [u.token, secondToken]) {
      expect(await refusedWithin(other, session, 1000)).toBeLessThan(1000);
    }
  });

  it("holds the sign-in limit per account across both processes", async () => {
    const u = await registerByMail(t);
    const guesser = freshAddress();
    const guess = (app: TypedApp) =>
      app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: u.email, password: "a-wrong-guess" },
        remoteAddress: guesser,
      });
    // Ten failures, alternating between the processes: each saw only five.
    for (let i = 0; i < 10; i += 1) expect((await guess(i % 2 === 0 ? t.app : other)).statusCode).toBe(401);
    for (const app of [t.app, other]) {
      const refused = await app.inject({
        method: "POST",
        url: "/api/login",
        payload: { email: u.email, password: u.password },
        remoteAddress: guesser,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many attempts\. Please wait/);
    }
  });
});

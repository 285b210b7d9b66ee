import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client";
import { countSignups } from "../src/newsletter/repo";
import { createPostgresDatabase, testEngine } from "./database";
import { newCredentials } from "./factories";
import { freePort, type Started, spawnServer, startServer } from "./processes";
import { linkFrom, startSmtpSink } from "./smtp-sink";

/** These tests are about the production start: they run what `npm start` runs (node server/dist/main.js). */
const production = { production: true };

describe("the server process", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-proc-"));
    env = { DATA_DIR: dataDir };
    if (testEngine === "postgres") {
      const created = await createPostgresDatabase();
      env.DATABASE_URL = created.url;
      dropDatabase = created.drop;
    }
  });
  afterAll(async () => {
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses to start on a bad variable, printing one line that names it", async () => {
    const { child, output } = spawnServer({ PORT: "not-a-port", DATA_DIR: dataDir }, production);
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    const lines = output()
      .trim()
      .split("\n")
      .filter((line) => !line.startsWith("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
  });

  it("signs up a new user: register, verification link by mail, sign in, a PDF of a story, then a clean stop", async () => {
    const smtp = await startSmtpSink();
    let server: Started | undefined;
    try {
      server = await startServer({ ...env, SMTP_URL: smtp.url }, production);
      const base = `http://127.0.0.1:${server.port}`;
      const post = (url: string, payload: unknown) =>
        fetch(`${base}${url}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
        });
      const c = newCredentials();

      const registered = await post("/api/register", c);
      expect(registered.status, server.output()).toBe(200);
      expect(await registered.json()).toMatchObject({ requires_verification: true, credits_remaining: 15 });

      // Links point at the default APP_URL, which follows PORT.
      const mail = await smtp.waitForMail(c.email, { timeoutMs: 60_000 });
      const link = linkFrom(mail, `http://localhost:${server.port}/verify-email?token=`);
      const token = new URL(link).searchParams.get("token")!;
      const verified = await fetch(`${base}/api/verify-email/${encodeURIComponent(token)}`);
      expect(verified.status).toBe(200);

      const login = await post("/api/login", { email: c.email, password: c.password });
      const session = (await login.json()) as { access_token: string };
      expect(session).toMatchObject({
        access_token: expect.any(String),
        email_verified: true,
        credits_remaining: 15,
      });

      // The PDF is laid out in its own thread, whose file the build puts beside main.js.
      const auth = { authorization: `Bearer ${session.access_token}` };
      const created = await fetch(`${base}/api/stories`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ title: "Blank Pages", context: "" }),
      });
      expect(created.status, server.output()).toBe(200);
      const { id } = ((await created.json()) as { story: { id: string } }).story;
      const pdf = await fetch(`${base}/api/stories/${id}/export?format=pdf`, { headers: auth });
      expect(pdf.status, await pdf.clone().text()).toBe(200);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(bytes.toString("latin1")).toContain("(Blank Pages)");

      server.child.kill("SIGTERM");
      const [code] = await once(server.child, "exit");
      expect(code, server.output()).toBe(0);
    } finally {
      if (server?.child.exitCode === null) server.child.kill("SIGKILL");
      await smtp.close();
    }
  }, 240_000);

  it("stops cleanly on a SIGTERM that arrives the moment it first answers, while its workers may still be starting", async () => {
    const port = await freePort();
    const { child, output } = spawnServer({ ...env, PORT: String(port), HOST: "127.0.0.1" }, production);
    const deadline = Date.now() + 80_000;
    // Poll tightly: the window between listening and the workers being started is short.
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill("SIGTERM");
    const [code, signal] = await once(child, "exit");
    // Killed by the signal itself (code null) would mean the shutdown handler was not in place yet.
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("on SIGTERM fails readiness while still serving for SHUTDOWN_DELAY_SECONDS, then exits 0", async () => {
    const started = await startServer({ ...env, SHUTDOWN_DELAY_SECONDS: "3" }, production);
    const base = `http://127.0.0.1:${started.port}`;
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });

    const signalledAt = Date.now();
    started.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const draining = await fetch(`${base}/api/ready`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ detail: "Shutting down", code: "unavailable" });
    // Still serving meanwhile: liveness and ordinary requests answer.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/config`)).status).toBe(200);

    const [code] = await once(started.child, "exit");
    expect(code, started.output()).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(3000);
  }, 240_000);

  it("finishes an in-flight request on SIGTERM, exits 0, and keeps the data for the next start", async () => {
    const first = await startServer(env, production);
    const body = JSON.stringify({ email: "slow@example.com" });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: first.port,
          path: "/api/newsletter",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      // Half the body now, the signal while the request is in flight, the rest a moment later.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        first.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 400);
      }, 300);
    });

    const result = await response;
    expect(result.status).toBe(201);
    expect(JSON.parse(result.body)).toMatchObject({ subscribed: true });
    const [code] = await once(first.child, "exit");
    expect(code, first.output()).toBe(0);

    // A second start over the same data keeps what the first one stored.
    const second = await startServer(env, production);
    const again = await fetch(`http://127.0.0.1:${second.port}/api/newsletter`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(((await again.json()) as { message: string }).message).toBe(
      "You're on the list! We'll write when new worlds open.",
    );
    second.child.kill("SIGTERM");
    const [secondCode] = await once(second.child, "exit");
    expect(secondCode).toBe(0);

    const database = await openDatabase(
      env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: path.join(dataDir, "pglite") },
    );
    expect(await countSignups(database.db)).toBe(1);
    await database.close();
  }, 240_000);

  it("keeps a second process off a PGlite data directory in use, and takes over the lock of a killed one", async () => {
    const sharedEnv =
      testEngine === "postgres"
        ? env
        : { DATA_DIR: await mkdtemp(path.join(os.tmpdir(), "storyverse-lock-")) };
    const first = await startServer(sharedEnv, production);
    try {
      if (testEngine === "postgres") {
        // PostgreSQL serves any number of processes: a second one starts beside the first.
        const second = await startServer(sharedEnv, production);
        second.child.kill("SIGTERM");
        expect((await once(second.child, "exit"))[0]).toBe(0);
        return;
      }
      const port = await freePort();
      const second = spawnServer({ ...sharedEnv, PORT: String(port), HOST: "127.0.0.1" }, production);
      const [code] = await once(second.child, "exit");
      expect(code).toBe(1);
      expect(second.output()).toContain("is in use by another Storyverse process");
      expect(second.output()).toContain("stop the server first");

      // kill -9 leaves the lock file behind; the next start sees its owner is gone and takes it over.
      first.child.kill("SIGKILL");
      await once(first.child, "exit");
      const third = await startServer(sharedEnv, production);
      third.child.kill("SIGTERM");
      expect((await once(third.child, "exit"))[0], third.output()).toBe(0);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill("SIGKILL");
      if (sharedEnv !== env) await rm(sharedEnv.DATA_DIR!, { recursive: true, force: true });
    }
  }, 240_000);
});

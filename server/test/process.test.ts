// The real entry point in a child process: configuration errors, data kept across restarts, and a
// graceful stop that lets an in-flight request finish before the database closes.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/client";
import { countSignups } from "../src/newsletter/repo";
import { createPostgresDatabase, testEngine } from "./database";

const serverDir = path.resolve(import.meta.dirname, "..");

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

type Started = { child: ChildProcess; port: number; output: () => string };

function spawnServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function startServer(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const { child, output } = spawnServer({ ...env, PORT: String(port), HOST: "127.0.0.1" });
  const deadline = Date.now() + 80_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { child, port, output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not become healthy: ${output()}`);
}

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
    const { child, output } = spawnServer({ PORT: "not-a-port", DATA_DIR: dataDir });
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    const lines = output()
      .trim()
      .split("\n")
      .filter((line) => !line.startsWith("npm warn"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
  });

  it("finishes an in-flight request on SIGTERM, exits 0, and keeps the data for the next start", async () => {
    const first = await startServer(env);
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
    const second = await startServer(env);
    const again = await fetch(`http://127.0.0.1:${second.port}/api/newsletter`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(((await again.json()) as { message: string }).message).toBe(
      "You're already on the list. We'll be in touch.",
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
});

// A process that fails half-way through its start (here: its port is taken, after the database, the job
// queue and the app were opened) closes what it opened: the database (its PGlite directory can be opened
// again at once; on PostgreSQL no connection is left) and the job queue.
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createFakeWebDist } from "../test/app";
import { createPostgresDatabase, testEngine } from "../test/database";
import { freePort } from "../test/processes";
import { loadConfig } from "./config";
import { startServer } from "./server";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Connections other than `client`'s own to the database `name`. */
async function connectionsTo(url: string, name: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [name],
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe("a start that fails half-way", () => {
  it("closes the database and the job queue it opened when its port is taken", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-start-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = testEngine === "postgres" ? await createPostgresDatabase() : undefined;
    if (postgres) cleanups.push(postgres.drop);
    const taken = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => taken.close(() => resolve())));
    const env = {
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      WORKER: "on",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    };
    const webDistDir = await createFakeWebDist();

    await expect(startServer(loadConfig({ ...env, PORT: String(port) }), { webDistDir })).rejects.toThrow(
      /EADDRINUSE/,
    );
    if (postgres) {
      const name = new URL(postgres.url).pathname.slice(1);
      // The pool, the LISTEN connection and the queue's connections are all closed.
      let left = await connectionsTo(postgres.url, name);
      for (let i = 0; i < 20 && left > 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = await connectionsTo(postgres.url, name);
      }
      expect(left).toBe(0);
    }
    // The same data directory (PGlite: one process's lock) starts at once on a free port.
    const server = await startServer(loadConfig({ ...env, PORT: String(await freePort()) }), { webDistDir });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

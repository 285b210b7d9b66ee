// A worker-only process's health check (decision 0128): 200 while its database answers and its job loop
// goes round, 503 once the loop has stopped or the database does not answer; nothing else is served there.
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { startWorkerHealthServer } from "./health";
import { type JobQueue, startJobQueue } from "./queue";

let opened: { db: TestDatabase; jobs: JobQueue; close: () => Promise<void> } | undefined;
afterEach(async () => {
  await opened?.close();
  await opened?.jobs.stop(1_000).catch(() => undefined);
  await opened?.db.cleanup();
  opened = undefined;
});

async function start(pingDatabase?: () => Promise<void>) {
  const db = await createTestDatabase();
  const jobs = await startJobQueue(db.database, { pollingIntervalSeconds: 0.2 });
  const server = await startWorkerHealthServer({
    port: 0,
    host: "127.0.0.1",
    jobs,
    pingDatabase: pingDatabase ?? db.database.ping,
    pingTimeoutMs: 500,
  });
  opened = { db, jobs, close: server.close };
  return { jobs, url: server.url };
}

describe("the worker's GET /health", () => {
  it("answers 200 while the database answers and the job loop goes round, and 404 to anything else", async () => {
    const { url } = await start();
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", details: { database: "ok", jobs: "ok" } });
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    expect((await fetch(`${url}/health`, { method: "POST" })).status).toBe(404);
  });

  it("answers 503 when the database is gone", async () => {
    const { url } = await start();
    expect((await fetch(`${url}/health`)).status).toBe(200);
    await opened?.db.database.close();
    const down = await fetch(`${url}/health`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { detail: string }).detail).toBe("Database unavailable");
  });

  it("answers 503 when the database answers too late", async () => {
    // A database that takes 2 s to answer, as one under a lock or across a broken network would.
    let slow = false;
    const db = await createTestDatabase();
    const { url } = await start(async () => {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 2_000));
      await db.database.ping();
    });
    try {
      expect((await fetch(`${url}/health`)).status).toBe(200);
      slow = true;
      expect((await fetch(`${url}/health`)).status).toBe(503);
    } finally {
      await db.cleanup();
    }
  });

  it("answers 503 once the job loop has stopped", async () => {
    const { jobs, url } = await start();
    expect((await fetch(`${url}/health`)).status).toBe(200);
    await jobs.stop(1_000);
    const stopped = await fetch(`${url}/health`);
    expect(stopped.status).toBe(503);
    expect(((await stopped.json()) as { detail: string }).detail).toBe("The job loop is stopped or stuck");
  });
});

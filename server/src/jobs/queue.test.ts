import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase, type TestDatabase } from "../../test/database";
import { openDatabase } from "../db/client";
import { type JobSpec, startJobQueue } from "./queue";

const greet: JobSpec<{ name: string }> = {
  name: "test-greet",
  payload: z.object({ name: z.string() }),
  retryLimit: 3,
  retryDelaySeconds: 1,
  retryBackoff: false,
  expireInSeconds: 60,
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function persistentDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-jobs-"));
  const testDb = await createTestDatabase({ dir: path.join(dir, "pglite") });
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return testDb;
}

describe("job queue", () => {
  it("processes a job that was sent before a restart", async () => {
    const first = await persistentDatabase();
    const queueBefore = await startJobQueue(first.database, { pollingIntervalSeconds: 0.5 });
    await queueBefore.send(greet, { name: "Ada" });
    // The process goes away with the job still waiting: no worker ever ran.
    await queueBefore.stop(1_000);
    await first.database.close();

    const reopened = await openDatabase(first.target);
    cleanups.push(() => first.cleanup());
    const queueAfter = await startJobQueue(reopened, { pollingIntervalSeconds: 0.5 });
    cleanups.push(async () => {
      await queueAfter.stop(1_000);
      await reopened.close();
    });
    const processed = new Promise<string>((resolve) => {
      void queueAfter.work(greet, async ({ name }) => resolve(name));
    });
    await expect(processed).resolves.toBe("Ada");
  }, 120_000);

  it("retries a failing job until it succeeds", async () => {
    const testDb = await createTestDatabase();
    const queue = await startJobQueue(testDb.database, { pollingIntervalSeconds: 0.5 });
    cleanups.push(async () => {
      await queue.stop(1_000);
      await testDb.cleanup();
    });
    let attempts = 0;
    const succeeded = new Promise<number>((resolve) => {
      void queue.work(greet, async () => {
        attempts += 1;
        if (attempts < 2) throw new Error("vendor hiccup");
        resolve(attempts);
      });
    });
    await queue.send(greet, { name: "Grace" });
    await expect(succeeded).resolves.toBe(2);
  });

  it("refuses a payload that does not match the job's schema", async () => {
    const testDb = await createTestDatabase();
    const queue = await startJobQueue(testDb.database);
    cleanups.push(async () => {
      await queue.stop(1_000);
      await testDb.cleanup();
    });
    await expect(queue.send(greet, { name: 7 } as unknown as { name: string })).rejects.toThrow();
  });
});

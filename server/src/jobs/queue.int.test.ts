import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase, type TestDatabase, testEngine } from "../../test/database";
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

  it("an idle worker takes a job queued inside a transaction right after it commits, not at the next look", async () => {
    const testDb = await createTestDatabase();
    // Looks a minute apart: only the look after the commit can find the job within the test's time.
    const queue = await startJobQueue(testDb.database, { pollingIntervalSeconds: 60 });
    cleanups.push(async () => {
      await queue.stop(1_000);
      await testDb.cleanup();
    });
    const processed = new Promise<string>((resolve) => {
      void queue.work(greet, async ({ name }) => resolve(name));
    });
    await queue.ready(greet);
    // The worker has looked once and found nothing: it sleeps.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = performance.now();
    await testDb.database.db.transaction(async (tx) => {
      await queue.send(greet, { name: "Hedy" }, { tx });
    });
    await expect(processed).resolves.toBe("Hedy");
    expect(performance.now() - sent).toBeLessThan(10_000);
  });

  it("a job cut off by a crash is retried by the next worker within the dead-worker time", async () => {
    const testDb = await createTestDatabase();
    cleanups.push(() => testDb.cleanup());
    // Short times so the test is quick; production uses DEFAULT_DEAD_WORKER_SECONDS (60 s).
    const fast = { pollingIntervalSeconds: 0.5, deadWorkerSeconds: 2, maintenanceIntervalSeconds: 1 };
    const crashed = await startJobQueue(testDb.database, fast);
    const started = new Promise<void>((resolve) => {
      // The first worker starts the job and never finishes it: the process "dies" mid-run.
      void crashed.work(greet, () => {
        resolve();
        return new Promise<void>(() => {});
      });
    });
    await crashed.send(greet, { name: "Ada" });
    await started;
    await crashed.stop(100);

    const revived = await startJobQueue(testDb.database, fast);
    cleanups.push(() => revived.stop(1_000));
    const retried = new Promise<{ name: string; retryCount: number }>((resolve) => {
      void revived.work(greet, async ({ name }, attempt) =>
        resolve({ name, retryCount: attempt.retryCount }),
      );
    });
    // Within the test's time-out (far below the old 30-minute expiry): the new worker runs it again.
    await expect(retried).resolves.toEqual({ name: "Ada", retryCount: 1 });
  }, 60_000);

  it("a job running longer than the dead-worker time keeps its heartbeat and runs once", async () => {
    const testDb = await createTestDatabase();
    const queue = await startJobQueue(testDb.database, {
      pollingIntervalSeconds: 0.5,
      deadWorkerSeconds: 2,
      maintenanceIntervalSeconds: 1,
    });
    cleanups.push(async () => {
      await queue.stop(1_000);
      await testDb.cleanup();
    });
    let runs = 0;
    const finished = new Promise<void>((resolve) => {
      void queue.work(greet, async () => {
        runs += 1;
        // Several expiry periods and maintenance runs pass while this try is alive and beating.
        await new Promise((wait) => setTimeout(wait, 6_000));
        resolve();
      });
    });
    const id = await queue.send(greet, { name: "Grace" });
    await finished;
    for (let i = 0; i < 50; i++) {
      const { rows } = await testDb.database.executeSql("select state from pgboss.job where id = $1", [id]);
      if (rows[0]?.state === "completed") break;
      await new Promise((wait) => setTimeout(wait, 100));
    }
    const { rows } = await testDb.database.executeSql(
      "select state, retry_count from pgboss.job where id = $1",
      [id],
    );
    expect(rows[0]).toEqual({ state: "completed", retry_count: 0 });
    expect(runs).toBe(1);
  }, 60_000);

  it("refuses a payload that does not match the job's schema", async () => {
    const testDb = await createTestDatabase();
    const queue = await startJobQueue(testDb.database);
    cleanups.push(async () => {
      await queue.stop(1_000);
      await testDb.cleanup();
    });
    // @ts-expect-error a number where the payload's schema wants a string: the queue must refuse it at run time
    await expect(queue.send(greet, { name: 7 })).rejects.toThrow();
  });

  // PGlite is one connection in one process, so two processes' creations cannot interleave there.
  it.skipIf(testEngine !== "postgres")(
    "two processes creating the same queues at once on a new database both succeed (pg-boss's create_queue deadlocks between them)",
    async () => {
      const testDb = await createTestDatabase();
      const second = await openDatabase(testDb.target);
      const queues = [
        await startJobQueue(testDb.database, { pollingIntervalSeconds: 0.5 }),
        await startJobQueue(second, { pollingIntervalSeconds: 0.5 }),
      ];
      cleanups.push(async () => {
        for (const queue of queues) await queue.stop(1_000);
        await second.close();
        await testDb.cleanup();
      });
      // Each process's first senders wait on its one creation; a deadlock lost there failed them all.
      const specs = Array.from({ length: 12 }, (_, i) => ({ ...greet, name: `test-race-${i}` }));
      const sent = await Promise.allSettled(
        specs.flatMap((spec) =>
          queues.flatMap((queue) => [queue.send(spec, { name: "Ada" }), queue.send(spec, { name: "Bo" })]),
        ),
      );
      expect(sent.filter((result) => result.status === "rejected")).toEqual([]);
      const rows = await testDb.database.executeSql(
        "select name, count(*)::int as n from pgboss.job where name like 'test-race-%' group by name",
      );
      expect(rows.rows).toHaveLength(12);
      expect(rows.rows.every((row) => row.n === 4)).toBe(true);
    },
    120_000,
  );
});

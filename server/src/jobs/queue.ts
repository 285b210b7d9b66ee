// Durable background jobs on the app's own database (pg-boss), on PostgreSQL and on PGlite alike.
// A job is declared once as a JobSpec (name, zod payload, retry policy); payloads are validated
// when sent and again when picked up, so a stale or hand-inserted row cannot reach a handler malformed.
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Database } from "../db/client";

export type JobSpec<Payload> = {
  name: string;
  payload: z.ZodType<Payload>;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
};

/** Which try this is: a handler that fails on the last one should record the failure for good. */
export type JobAttempt = { jobId: string; retryCount: number; isLastAttempt: boolean };

export type JobQueue = {
  send<P>(spec: JobSpec<P>, payload: P): Promise<string>;
  work<P>(spec: JobSpec<P>, handler: (payload: P, attempt: JobAttempt) => Promise<void>): Promise<void>;
  /** Stops fetching, lets running handlers finish (up to timeoutMs), leaves the database open. */
  stop(timeoutMs?: number): Promise<void>;
};

export type QueueOptions = {
  /** How often idle workers look for new jobs; short in tests. */
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
};

export async function startJobQueue(database: Database, options: QueueOptions = {}): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) },
    schema: "pgboss",
    // One process on PGlite: maintenance is cheap, and a job stuck "active" by a crash is retried on expiry.
    supervise: true,
    schedule: false,
  });
  boss.on("error", (error) => options.onError?.(error));
  await boss.start();
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;

  // One creation per queue name per process: concurrent first sends must not race each other into
  // pg-boss's createQueue (on PostgreSQL that deadlocks).
  const queueReady = new Map<string, Promise<void>>();
  function ensureQueue(spec: JobSpec<unknown>): Promise<void> {
    let ready = queueReady.get(spec.name);
    if (!ready) {
      ready = (async () => {
        if (await boss.getQueue(spec.name)) return;
        await boss.createQueue(spec.name, {
          name: spec.name,
          retryLimit: spec.retryLimit,
          retryDelay: spec.retryDelaySeconds,
          retryBackoff: spec.retryBackoff,
          expireInSeconds: spec.expireInSeconds,
        });
      })();
      // A failed creation is retried by the next caller instead of being remembered.
      ready.catch(() => queueReady.delete(spec.name));
      queueReady.set(spec.name, ready);
    }
    return ready;
  }

  return {
    async send(spec, payload) {
      await ensureQueue(spec as JobSpec<unknown>);
      const data = spec.payload.parse(payload) as object;
      const id = await boss.send(spec.name, data, {
        retryLimit: spec.retryLimit,
        retryDelay: spec.retryDelaySeconds,
        retryBackoff: spec.retryBackoff,
        expireInSeconds: spec.expireInSeconds,
      });
      if (!id) throw new Error(`job ${spec.name} was not queued`);
      return id;
    },
    async work(spec, handler) {
      await ensureQueue(spec as JobSpec<unknown>);
      await boss.work<unknown>(
        spec.name,
        { pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            // A throw here marks the job failed; pg-boss retries it with the spec's backoff.
            await handler(spec.payload.parse(job.data), {
              jobId: job.id,
              retryCount: job.retryCount,
              isLastAttempt: job.retryCount >= job.retryLimit,
            });
          }
        },
      );
    },
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
    },
  };
}

// Durable background jobs on the app's own database (pg-boss), on PostgreSQL and on PGlite alike.
// A job is declared once as a JobSpec (name, zod payload, retry policy); payloads are validated
// when sent and again when picked up, so a stale or hand-inserted row cannot reach a handler malformed.
//
// Crash recovery: a running job proves its worker is alive with a heartbeat (it moves the job's start
// time forward), and every job row expires after `deadWorkerSeconds` without one. So a job whose process
// died (kill -9, power loss) is handed to the next worker within about a minute instead of waiting out the
// longest a try may legitimately take. How long one try may run is the JobSpec's own time-out
// (`expireInSeconds`), enforced here.
import { type SQL, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Database, Queryable } from "../db/client";
import { isTransientDatabaseError } from "../db/transient";
import { metrics } from "../platform/metrics";

export type JobSpec<Payload> = {
  name: string;
  payload: z.ZodType<Payload>;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** The longest one try may run; a try still running then counts as failed (and is retried). */
  expireInSeconds: number;
};

/** Which try this is: a handler that fails on the last one should record the failure for good. */
export type JobAttempt = { jobId: string; retryCount: number; isLastAttempt: boolean };

export type SendOptions = {
  /** The job's id (a uuid): lets the sender cancel it later without storing another id. */
  id?: string;
  /** Queue the job inside this transaction: it exists exactly when the rows it refers to do. */
  tx?: Queryable;
};

export type JobQueue = {
  /**
   * Creates the job's queue if needed. Call before sending inside a transaction: on PGlite the queue's own
   * queries would wait for that transaction to end.
   */
  ready<P>(spec: JobSpec<P>): Promise<void>;
  send<P>(spec: JobSpec<P>, payload: P, options?: SendOptions): Promise<string>;
  work<P>(spec: JobSpec<P>, handler: (payload: P, attempt: JobAttempt) => Promise<void>): Promise<void>;
  /** Cancels a job that has not finished; a running try is not interrupted, but is never retried. */
  cancel<P>(spec: JobSpec<P>, jobId: string, options?: { tx?: Queryable }): Promise<void>;
  /**
   * Stops fetching and lets running handlers finish (up to timeoutMs), leaving the database open. A
   * handler still running after that is abandoned as a crash would leave it: no completion, no failure and
   * no more heartbeats, so its job expires and is retried by a worker.
   */
  stop(timeoutMs?: number): Promise<void>;
  /**
   * Whether this process's job loop is alive: started, not stopping, and its look for ready jobs came round
   * within `withinMs` (a worker's health check answers 503 otherwise).
   */
  alive(withinMs: number): boolean;
  /** Jobs not finished, by kind and state (created, retry, active): the admin console's Health. */
  depth(): Promise<QueueDepthRow[]>;
  /** The newest jobs that failed for good (every try used), newest first. */
  failed(limit: number): Promise<FailedJob[]>;
  /** Queues a failed job again (the admin console's retry); false when no failed job has this kind and id. */
  retry(kind: string, jobId: string): Promise<boolean>;
};

export type QueueDepthRow = { kind: string; state: string; count: number };
export type FailedJob = { id: string; kind: string; failedAt: Date | null; error: string | null };

export type QueueOptions = {
  /** How often idle workers look for new jobs; short in tests. */
  pollingIntervalSeconds?: number;
  /** A running job with no heartbeat for this long belongs to a dead worker and is retried. */
  deadWorkerSeconds?: number;
  /** How often expired jobs are looked for (pg-boss maintenance). */
  maintenanceIntervalSeconds?: number;
  onError?: (error: Error) => void;
};

export const DEFAULT_DEAD_WORKER_SECONDS = 60;
export const DEFAULT_MAINTENANCE_INTERVAL_SECONDS = 15;
const SCHEMA = "pgboss";
/** When idle workers look for a job sent inside a transaction, in ms after the send (see `send`). */
const LOOKS_AFTER_A_TRANSACTION_MS = [0, 50, 250];

/** pg-boss's numbered-parameter SQL, run on a Drizzle transaction so its rows commit with the caller's. */
function inTransaction(tx: Queryable) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const query: SQL = sql.empty();
      text.split(/\$(\d+)/).forEach((part, index) => {
        query.append(index % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`);
      });
      const result = await tx.execute<Record<string, unknown>>(query);
      return { rows: result.rows };
    },
  };
}

class TryTimedOut extends Error {}

export async function startJobQueue(database: Database, options: QueueOptions = {}): Promise<JobQueue> {
  const deadWorkerSeconds = options.deadWorkerSeconds ?? DEFAULT_DEAD_WORKER_SECONDS;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) },
    schema: SCHEMA,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? DEFAULT_MAINTENANCE_INTERVAL_SECONDS,
    schedule: false,
  });
  boss.on("error", (error) => options.onError?.(error));
  await boss.start();
  const pollingMs = (options.pollingIntervalSeconds ?? 2) * 1000;
  const heartbeatMs = (deadWorkerSeconds * 1000) / 4;

  // One creation per queue name per process: concurrent first sends must not race each other into
  // pg-boss's createQueue (on PostgreSQL that deadlocks).
  const queueReady = new Map<string, Promise<void>>();
  // And one creation at a time per process: any two create_queue calls (even of different queues) can
  // deadlock, so each process adds at most one contender at a time.
  let creating: Promise<unknown> = Promise.resolve();
  function ensureQueue(spec: JobSpec<unknown>): Promise<void> {
    let ready = queueReady.get(spec.name);
    if (!ready) {
      ready = (async () => {
        // Across processes the race remains: two processes creating one queue on a new database deadlock
        // inside pg-boss's create_queue, and PostgreSQL aborts one. The loser looks again (the winner's
        // queue is there by then) instead of failing every request waiting on this creation (the scale
        // test's intermittent 500s on sign-up and turns).
        for (let attempt = 1; ; attempt += 1) {
          if (await boss.getQueue(spec.name)) return;
          const created = creating.then(() =>
            boss.createQueue(spec.name, {
              name: spec.name,
              retryLimit: spec.retryLimit,
              retryDelay: spec.retryDelaySeconds,
              retryBackoff: spec.retryBackoff,
              expireInSeconds: deadWorkerSeconds,
            }),
          );
          creating = created.catch(() => {});
          try {
            await created;
            return;
          } catch (error) {
            if (attempt >= 10 || !isTransientDatabaseError(error)) throw error;
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 200 * attempt));
          }
        }
      })();
      // A failed creation is retried by the next caller instead of being remembered.
      ready.catch(() => queueReady.delete(spec.name));
      queueReady.set(spec.name, ready);
    }
    return ready;
  }

  let stopping = false;
  const running = new Set<{ done: Promise<void>; abandon: () => void }>();
  const loops: Promise<void>[] = [];
  // Idle workers sleep until woken, by queue name. One probe per interval asks the database which of
  // the sleeping kinds have a job ready and wakes those, instead of each kind polling with pg-boss's
  // fetch (an UPDATE) on its own: on PGlite those polls ran in this process and kept an idle server busy
  // (decision 0121; the idle CPU before and after is in docs/benchmarks.md).
  const sleepers = new Map<string, Set<() => void>>();
  const wake = (name: string) => {
    for (const resolve of [...(sleepers.get(name) ?? [])]) resolve();
  };
  const wakeAll = () => {
    for (const name of sleepers.keys()) wake(name);
  };
  const idle = (name: string) =>
    new Promise<void>((resolve) => {
      const sleeping = sleepers.get(name) ?? new Set<() => void>();
      sleepers.set(name, sleeping);
      sleeping.add(function done() {
        sleeping.delete(done);
        resolve();
      });
    });

  async function probeReadyJobs(): Promise<void> {
    const names = [...sleepers].filter(([, waiting]) => waiting.size > 0).map(([name]) => name);
    if (names.length === 0) return;
    const { rows } = await database.executeSql(
      `SELECT DISTINCT name FROM ${SCHEMA}.job
        WHERE name = ANY($1::text[]) AND state < 'active' AND start_after < now()`,
      [names],
    );
    for (const row of rows) wake(String(row.name));
  }
  let stopProbing = () => {};
  // When the look for ready jobs last came round (whatever it found): a stuck loop stops moving it.
  let lastLookAt = Date.now();
  const probing = (async () => {
    while (!stopping) {
      lastLookAt = Date.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollingMs);
        stopProbing = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) return;
      await probeReadyJobs().catch((error: Error) => options.onError?.(error));
    }
  })();
  const depth = async (): Promise<QueueDepthRow[]> => {
    const { rows } = await database.executeSql(
      `SELECT name, state, count(*)::int AS count FROM ${SCHEMA}.job WHERE state < 'completed' GROUP BY name, state`,
    );
    return rows.map((row) => ({
      kind: String(row.name),
      state: String(row.state),
      count: Number(row.count),
    }));
  };
  // The metrics' queue depth, read at each scrape: the same database-wide figure from every process.
  const forgetDepth = metrics.queueDepthFrom(depth);

  const heartbeat = (name: string, id: string) =>
    database.executeSql(
      `UPDATE ${SCHEMA}.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active'`,
      [name, id],
    );

  async function runOne<P>(
    spec: JobSpec<P>,
    handler: (payload: P, attempt: JobAttempt) => Promise<void>,
    job: { id: string; data: unknown; retryCount: number; retryLimit: number },
  ): Promise<void> {
    let abandoned = false;
    const beat = setInterval(() => {
      heartbeat(spec.name, job.id).catch((error: Error) => options.onError?.(error));
    }, heartbeatMs);
    let timer: NodeJS.Timeout | undefined;
    const done = (async () => {
      let failure: unknown;
      const startedAt = performance.now();
      try {
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new TryTimedOut(`job ran longer than ${spec.expireInSeconds} s`)),
            spec.expireInSeconds * 1000,
          );
        });
        await Promise.race([
          handler(spec.payload.parse(job.data), {
            jobId: job.id,
            retryCount: job.retryCount,
            isLastAttempt: job.retryCount >= job.retryLimit,
          }),
          timedOut,
        ]);
      } catch (error) {
        failure = error;
      } finally {
        clearTimeout(timer);
        clearInterval(beat);
      }
      if (abandoned) return;
      metrics.job(
        spec.name,
        failure === undefined ? "completed" : "failed",
        (performance.now() - startedAt) / 1000,
      );
      // A throw marks the job failed; pg-boss retries it with the JobSpec's backoff.
      if (failure === undefined) await boss.complete(spec.name, job.id);
      else {
        const message = failure instanceof Error ? failure.message : String(failure);
        await boss.fail(spec.name, job.id, { message });
      }
    })().catch((error: Error) => options.onError?.(error));
    const entry = {
      done,
      abandon: () => {
        abandoned = true;
        clearInterval(beat);
      },
    };
    running.add(entry);
    try {
      await done;
    } finally {
      running.delete(entry);
    }
  }

  return {
    ready: (spec) => ensureQueue(spec as JobSpec<unknown>),
    async send(spec, payload, sendOptions = {}) {
      await ensureQueue(spec as JobSpec<unknown>);
      const data = spec.payload.parse(payload) as object;
      const id = await boss.send(spec.name, data, {
        ...(sendOptions.id ? { id: sendOptions.id } : {}),
        ...(sendOptions.tx ? { db: inTransaction(sendOptions.tx) } : {}),
        retryLimit: spec.retryLimit,
        retryDelay: spec.retryDelaySeconds,
        retryBackoff: spec.retryBackoff,
        expireInSeconds: deadWorkerSeconds,
      });
      if (!id) throw new Error(`job ${spec.name} was not queued`);
      // A job sent outside a transaction is visible now: this process's idle workers take it at once
      // rather than at the next probe (a sign-up's mail leaves without waiting out the interval). One sent
      // inside a transaction is visible once that commits, which the senders do right after: the workers
      // look then (on PGlite a look waits for the transaction to end; on PostgreSQL one made too early finds
      // nothing and the next one finds it), so a turn's picture starts without waiting out the interval.
      if (!sendOptions.tx) wake(spec.name);
      else {
        for (const ms of LOOKS_AFTER_A_TRANSACTION_MS) setTimeout(() => wake(spec.name), ms).unref();
      }
      return id;
    },
    async work(spec, handler) {
      await ensureQueue(spec as JobSpec<unknown>);
      // One try at a time per job kind and process; more processes run more.
      const loop = (async () => {
        while (!stopping) {
          const [job] = await boss
            .fetch<unknown>(spec.name, { batchSize: 1, includeMetadata: true })
            .catch((error: Error) => {
              options.onError?.(error);
              return [];
            });
          if (!job) {
            await idle(spec.name);
            continue;
          }
          await runOne(spec, handler, job);
        }
      })();
      loops.push(loop);
    },
    async cancel(spec, jobId, cancelOptions = {}) {
      // No queue creation here: cancelling in a queue that does not exist yet simply changes nothing.
      await boss.cancel(spec.name, jobId, cancelOptions.tx ? { db: inTransaction(cancelOptions.tx) } : {});
    },
    alive(withinMs) {
      return !stopping && Date.now() - lastLookAt <= withinMs;
    },
    depth,
    async failed(limit) {
      const { rows } = await database.executeSql(
        `SELECT id, name, completed_on, output FROM ${SCHEMA}.job WHERE state = 'failed'
          ORDER BY completed_on DESC NULLS LAST, id LIMIT $1`,
        [limit],
      );
      return rows.map((row) => {
        const output = row.output as { message?: unknown } | null;
        return {
          id: String(row.id),
          kind: String(row.name),
          failedAt: row.completed_on ? new Date(String(row.completed_on)) : null,
          error: typeof output?.message === "string" ? output.message.slice(0, 500) : null,
        };
      });
    },
    async retry(kind, jobId) {
      const { rows } = await database.executeSql(
        `SELECT 1 FROM ${SCHEMA}.job WHERE name = $1 AND id = $2 AND state = 'failed'`,
        [kind, jobId],
      );
      if (rows.length === 0) return false;
      await boss.retry(kind, jobId);
      wake(kind);
      return true;
    },
    async stop(timeoutMs = 30_000) {
      stopping = true;
      forgetDepth();
      stopProbing();
      wakeAll();
      // Each loop ends after the try it is running (or a job it is just fetching) is finished.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<"gave-up">((resolve) => {
        timer = setTimeout(() => resolve("gave-up"), timeoutMs);
      });
      if ((await Promise.race([Promise.all(loops), gaveUp])) === "gave-up") {
        for (const entry of running) entry.abandon();
      }
      clearTimeout(timer);
      await probing;
      await boss.stop({ graceful: false, wait: true, close: false });
    },
  };
}

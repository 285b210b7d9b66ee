// The job-crash tests' set-up (a test app whose worker "dies" mid-job, then a new worker on the same database):
// a short dead-worker window, a provider call that starts and never answers, and the revived worker. The
// process-level crash tests (`kill -9` of a real server) use crash-server.ts instead.
import { afterEach } from "vitest";
import { type JobQueue, startJobQueue } from "../src/jobs/queue";
import { createSmtpMailer } from "../src/mail/mailer";
import { startWorkers } from "../src/workers";
import { createTestApp, TEST_JOB_POLLING_SECONDS, type TestApp } from "./app";

/** The dead-worker window of these tests (production: 60 s), so a retry comes within seconds. */
export const DEAD_WORKER_SECONDS = 3;

/** How long a test waits for the revived worker to finish the job. */
export const REVIVAL_WAIT_MS = (DEAD_WORKER_SECONDS + 60) * 1000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A test app with the short dead-worker window (and `env` besides), removed after the test. */
export async function crashTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env: { DEAD_WORKER_SECONDS: String(DEAD_WORKER_SECONDS), ...env } });
  cleanups.push(() => t.cleanup());
  return t;
}

/**
 * A provider call that the "dying" worker makes: it starts (`started` resolves) and never answers, as a call
 * whose process was killed.
 */
export function hangingCall(): { started: Promise<void>; hang: () => Promise<never> } {
  let begin!: () => void;
  const started = new Promise<void>((resolve) => {
    begin = resolve;
  });
  return {
    started,
    hang: () => {
      begin();
      return new Promise<never>(() => {});
    },
  };
}

/**
 * A new worker process on the same database (with the app's providers as they are now), stopped after the test;
 * what its jobs run with, for a test that runs one by hand.
 */
export async function reviveWorker(t: TestApp) {
  const revived: JobQueue = await startJobQueue(t.database, {
    pollingIntervalSeconds: TEST_JOB_POLLING_SECONDS,
    deadWorkerSeconds: DEAD_WORKER_SECONDS,
    maintenanceIntervalSeconds: 1,
  });
  cleanups.push(() => revived.stop(5_000));
  const deps = { ...t.ctx, jobs: revived, mailer: createSmtpMailer(t.smtp.url, t.config.mailFrom) };
  await startWorkers(revived, deps);
  return deps;
}

// Builds the real app over a fresh test database, with its job workers and a real SMTP sink for mail.
// Requests go through app.inject (no network listener) unless a test listens itself.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildApp, type TypedApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import { type JobQueue, startJobQueue } from "../src/jobs/queue";
import { startWorkers } from "../src/jobs/workers";
import { createSmtpMailer } from "../src/mail/mailer";
import { type Clock, createFakeClock } from "../src/platform/clock";
import { capabilitiesFor } from "../src/system/capabilities";
import { createTestDatabase, type TestDatabase } from "./database";
import { type SmtpSink, startSmtpSink } from "./smtp-sink";

export type FakeClock = ReturnType<typeof createFakeClock>;

export type TestApp = TestDatabase & {
  app: TypedApp;
  config: Config;
  jobs: JobQueue;
  clock: FakeClock;
  smtp: SmtpSink;
  webDistDir: string;
};

/** A stand-in web build, so SPA fallback can be tested without building the web app. */
export async function createFakeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-web-"));
  await writeFile(
    path.join(dir, "index.html"),
    "<!doctype html><html><body><div id=root></div>SPA</body></html>",
  );
  return dir;
}

export async function createTestApp(options: { env?: Record<string, string> } = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const smtp = await startSmtpSink();
  const config = loadConfig({
    DATA_DIR: os.tmpdir(),
    LOG_LEVEL: "silent",
    APP_URL: "http://app.test",
    SMTP_URL: smtp.url,
    ...options.env,
  });
  // Fake time starts at the real time so pg-boss (which uses the database's clock) stays in step.
  const clock = createFakeClock(new Date());
  const jobs = await startJobQueue(testDb.database, { pollingIntervalSeconds: 0.5 });
  const mailer = createSmtpMailer(smtp.url, config.mailFrom);
  await startWorkers(jobs, { db: testDb.database.db, clock: clock as Clock, jobs, config, mailer });
  const webDistDir = await createFakeWebDist();
  const app = await buildApp({
    config,
    database: testDb.database,
    jobs,
    capabilities: capabilitiesFor(config),
    webDistDir,
    clock,
    logger: false,
  });
  await app.ready();
  return {
    ...testDb,
    app,
    config,
    jobs,
    clock,
    smtp,
    webDistDir,
    cleanup: async () => {
      await app.close();
      await jobs.stop(5_000);
      await smtp.close();
      await testDb.cleanup();
    },
  };
}

// Builds the real app over a fresh test database, with its job workers, a real SMTP sink for mail, local
// media storage in a temp folder and the offline providers (or whatever providers a test passes, e.g.
// adapters pointed at a fake vendor server). Requests go through app.inject unless a test listens itself.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../src/app";
import { composedParts } from "../src/composition";
import { type Config, loadConfig } from "../src/config";
import type { AppContext } from "../src/context";
import type { TypedApp } from "../src/http/route-module";
import { type JobQueue, startJobQueue } from "../src/jobs/queue";
import { createSmtpMailer } from "../src/mail/mailer";
import { createMediaStorage } from "../src/media/storage/create-storage";
import { meteredStorage } from "../src/media/storage/metered";
import type { MediaStorage } from "../src/media/storage/types";
import { createFakeClock, createTickingClock } from "../src/platform/clock";
import { createProviders } from "../src/providers/create-providers";
import type { Providers } from "../src/providers/types";
import { startWorkers } from "../src/workers";
import { createTestDatabase, type TestDatabase } from "./database";
import { type SmtpSink, startSmtpSink } from "./smtp-sink";

/** How often a test app's idle workers look for jobs (production: 2 s). */
export const TEST_JOB_POLLING_SECONDS = 0.2;

export type FakeClock = ReturnType<typeof createFakeClock>;

export type TestApp = TestDatabase & {
  app: TypedApp;
  config: Config;
  jobs: JobQueue;
  clock: FakeClock;
  smtp: SmtpSink;
  storage: MediaStorage;
  providers: Providers;
  ctx: AppContext;
  webDistDir: string;
};

/** A stand-in web build, so SPA fallback can be tested without building the web app. */
export async function createFakeWebDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-web-"));
  await writeFile(
    path.join(dir, "index.html"),
    '<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__"></head><body><div id=root></div>SPA</body></html>',
  );
  // A built asset with its pre-compressed twin, as scripts/compress-dist.mjs writes them.
  const { brotliCompressSync } = await import("node:zlib");
  const script = `console.log(${JSON.stringify("x".repeat(4000))});`;
  await mkdir(path.join(dir, "assets"), { recursive: true });
  await writeFile(path.join(dir, "assets", "app-abc123.js"), script);
  await writeFile(path.join(dir, "assets", "app-abc123.js.br"), brotliCompressSync(script));
  return dir;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    providers?: Partial<Providers>;
    workers?: boolean;
    tickingClock?: boolean;
    /** Where the app (and its workers) write their log lines, at the env's LOG_LEVEL; else no log. */
    logStream?: { write: (line: string) => void };
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const smtp = await startSmtpSink();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-data-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    APP_URL: "http://app.test",
    SMTP_URL: smtp.url,
    // Slow inputs made fast where they are not the subject: small offline pictures and clips, and a
    // narrator that streams without pauses. Tests of full-size media or of streaming set their own.
    OFFLINE_MEDIA_SCALE: "0.25",
    OFFLINE_TEXT_WORDS_PER_SECOND: "0",
    ...options.env,
  });
  // Fake time starts at the real time so pg-boss (which uses the database's clock) stays in step. A
  // ticking clock (real time plus what a test adds) suits tests that order things made one after another.
  const clock = options.tickingClock ? createTickingClock() : createFakeClock(new Date());
  const jobs = await startJobQueue(testDb.database, {
    pollingIntervalSeconds: TEST_JOB_POLLING_SECONDS,
    deadWorkerSeconds: config.deadWorkerSeconds,
  });
  const providers: Providers = { ...createProviders(config.providers), ...options.providers };
  const storage = meteredStorage(
    createMediaStorage(config.storage, config.sessionSecret, clock),
    testDb.database.db,
    config.mediaQuotaMb,
  );
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const ctx: AppContext = {
    config,
    db: testDb.database.db,
    clock,
    jobs,
    providers,
    storage,
    log: silent,
    notify: testDb.database.notifier,
    ...composedParts,
  };
  const withWorkers = async (log: AppContext["log"]) => {
    if (options.workers !== false)
      await startWorkers(jobs, { ...ctx, log, mailer: createSmtpMailer(smtp.url, config.mailFrom) });
  };
  // With a log stream the workers write to the app's log, as a server process's do, so they start after it.
  if (!options.logStream) await withWorkers(silent);
  const webDistDir = await createFakeWebDist();
  const app = await buildApp({
    config,
    database: testDb.database,
    jobs,
    providers,
    storage,
    clock,
    webDistDir,
    logger: options.logStream !== undefined,
    logStream: options.logStream,
  });
  await app.ready();
  if (options.logStream) await withWorkers(app.log);
  return {
    ...testDb,
    app,
    config,
    jobs,
    clock,
    smtp,
    storage,
    providers,
    ctx,
    webDistDir,
    cleanup: async () => {
      await app.close();
      await jobs.stop(5_000);
      await smtp.close();
      await testDb.cleanup();
    },
  };
}

// The process lifecycle: open the database, migrate, start jobs and HTTP; stop in the reverse order
// so in-flight requests finish, running jobs finish, and only then the database closes.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, type TypedApp } from "./app";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { type JobQueue, startJobQueue } from "./jobs/queue";
import { startWorkers } from "./jobs/workers";
import { createLogMailer, createSmtpMailer, type Mailer } from "./mail/mailer";
import { systemClock } from "./platform/clock";
import { capabilitiesFor } from "./system/capabilities";

export const defaultWebDistDir = fileURLToPath(new URL("../../web/dist", import.meta.url));

export type RunningServer = {
  app: TypedApp | undefined;
  database: Database;
  jobs: JobQueue;
  /** The address HTTP listens on, e.g. http://127.0.0.1:3000. */
  url: string | undefined;
  stop: () => Promise<void>;
};

export function databaseTarget(config: Config) {
  return config.databaseUrl
    ? { url: config.databaseUrl }
    : { pgliteDir: path.join(config.dataDir, "pglite") };
}

export async function startServer(
  config: Config,
  options: { webDistDir?: string } = {},
): Promise<RunningServer> {
  const database = await openDatabase(databaseTarget(config));
  try {
    await runMigrations(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const jobs = await startJobQueue(database);
  const clock = systemClock;
  const capabilities = capabilitiesFor(config);

  let app: TypedApp | undefined;
  let url: string | undefined;
  if (config.worker !== "only") {
    app = await buildApp({
      config,
      database,
      jobs,
      capabilities,
      webDistDir: options.webDistDir ?? defaultWebDistDir,
      clock,
    });
    url = await app.listen({ port: config.port, host: config.host });
  }
  if (config.worker !== "off") {
    const mailer: Mailer = config.smtpUrl
      ? createSmtpMailer(config.smtpUrl, config.mailFrom)
      : createLogMailer(app?.log ?? { info: () => {} });
    await startWorkers(jobs, { db: database.db, clock, jobs, config, mailer });
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // close() stops accepting connections, answers new requests with 503 and waits for in-flight ones.
      await app?.close();
      await jobs.stop();
      await database.close();
    })();
    return stopping;
  };
  return { app, database, jobs, url, stop };
}

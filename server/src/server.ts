// The process lifecycle: open the database, migrate, start jobs and HTTP; stop in the reverse order
// so in-flight requests finish, running jobs finish, and only then the database closes.
import path from "node:path";
import { type HealthReport, startDeletedAccountArchiveSweep, startHealthReport } from "./admin/index";
import { buildApp } from "./app";
import { composedParts } from "./composition";
import type { Config } from "./config";
import type { AppContext, Logger } from "./context";
import { startUnsettledChargeSweep } from "./credits";
import { type Database, openDatabase } from "./db/client";
import { startHousekeeping } from "./db/housekeeping";
import { describeMigrations, migrateThen } from "./db/migrate";
import { databaseTarget } from "./db/target";
import type { Lifecycle } from "./http/route-kit";
import type { TypedApp } from "./http/route-module";
import { startRestoreSweep } from "./interop";
import { type JobQueue, startJobQueue } from "./jobs/queue";
import { storedKeyReferrers } from "./jobs/stored-key-referrers";
import { startAccountArchiveSweep } from "./leave";
import { createLogMailer, createSmtpMailer, type Mailer } from "./mail/mailer";
import { createMediaStorage, meteredStorage, startOrphanedMediaSweep } from "./media";
import { systemClock } from "./platform/clock";
import { serverDir } from "./platform/server-dir";
import { createProviders } from "./providers/create-providers";
import { startSpeechChunkSweep } from "./voice";
import { startWorkers } from "./workers";

export const defaultWebDistDir = path.join(serverDir, "../web/dist");

export type RunningServer = {
  app: TypedApp | undefined;
  database: Database;
  jobs: JobQueue;
  /** The address HTTP listens on, e.g. http://127.0.0.1:3000. */
  url: string | undefined;
  stop: () => Promise<void>;
};

/** JSON lines on stdout for a worker-only process, which has no Fastify logger. */
const consoleLogger: Logger = {
  info: (obj, msg) => console.log(JSON.stringify({ level: "info", msg, ...obj })),
  warn: (obj, msg) => console.warn(JSON.stringify({ level: "warn", msg, ...obj })),
  error: (obj, msg) => console.error(JSON.stringify({ level: "error", msg, ...obj })),
};

const levels = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
/** Whether LOG_LEVEL lets a line of this level through. */
const logs = (config: Config, level: "info" | "warn") =>
  config.logLevel !== "silent" && levels.indexOf(level) >= levels.indexOf(config.logLevel);

export async function startServer(
  config: Config,
  options: { webDistDir?: string } = {},
): Promise<RunningServer> {
  const database = await openDatabase(databaseTarget(config));
  // What is open so far: a step that throws closes it all again (in reverse order), so a process that
  // fails half-way through its start leaks no connection, queue poller, worker or listening socket.
  let jobs: JobQueue | undefined;
  let app: TypedApp | undefined;
  let stopSweep: (() => Promise<void>) | undefined;
  let stopHousekeeping: (() => Promise<void>) | undefined;
  let healthReport: HealthReport | undefined;
  try {
    // The job queue installs or upgrades its own schema as it starts: under the migrations' lock too.
    const { report, result: queue } = await migrateThen(database, () =>
      startJobQueue(database, { deadWorkerSeconds: config.deadWorkerSeconds }),
    );
    jobs = queue;
    // One line per start: the migrations it applied (or none pending), also on a worker with no HTTP logger.
    const migrations = describeMigrations(report);
    if (logs(config, migrations.level)) consoleLogger[migrations.level](migrations.fields, migrations.msg);
    const clock = systemClock;
    const providers = createProviders(config.providers);
    const storage = meteredStorage(
      createMediaStorage(config.storage, config.sessionSecret, clock),
      database.db,
      config.mediaQuotaMb,
    );

    // This process's vendor calls and streams for the Health tab (decision 0159), written until the very end:
    // jobs still finishing after HTTP closes make vendor calls too.
    const logOf = () => app?.log ?? consoleLogger;
    healthReport = startHealthReport(
      { db: database.db, log: { info: (o, m) => logOf().info(o, m), warn: (o, m) => logOf().warn(o, m) } },
      { role: config.worker === "only" ? "worker" : config.worker === "off" ? "http" : "both" },
    );

    let url: string | undefined;
    const lifecycle: Lifecycle = { draining: false };
    if (config.worker !== "only") {
      app = await buildApp({
        config,
        database,
        jobs,
        providers,
        storage,
        clock,
        webDistDir: options.webDistDir ?? defaultWebDistDir,
        lifecycle,
        healthReport,
      });
      url = await app.listen({ port: config.port, host: config.host });
    }
    if (config.worker !== "off") {
      const log = app?.log ?? consoleLogger;
      const mailer: Mailer = config.smtpUrl
        ? createSmtpMailer(config.smtpUrl, config.mailFrom)
        : createLogMailer(log, { printMails: config.appEnv !== "production" });
      const ctx: AppContext = {
        config,
        db: database.db,
        clock,
        jobs,
        providers,
        storage,
        log,
        notify: database.notifier,
        ...composedParts,
      };
      await startWorkers(jobs, { ...ctx, mailer });
      const stopChargeSweep = startUnsettledChargeSweep(ctx);
      // What stopped restores left (issue #39): hidden stories, their files, upload folders.
      const stopRestoreSweep = startRestoreSweep(ctx);
      // Media objects no row names, a day old (issue #39): a bounded batch each run.
      const stopOrphanSweep = startOrphanedMediaSweep(ctx, storedKeyReferrers);
      // Pieces of stored narrations, kept a while for a player still fetching them (decision 0133).
      const stopChunkSweep = startSpeechChunkSweep(ctx);
      // Account archives past their 7 days lose their file (decision 0143).
      const stopArchiveSweep = startAccountArchiveSweep(ctx);
      // Archives of deleted accounts past DELETED_ACCOUNT_ARCHIVE_DAYS lose their file and row (decision 0157).
      const stopDeletedArchiveSweep = startDeletedAccountArchiveSweep(ctx);
      stopSweep = async () => {
        await Promise.all([
          stopChargeSweep(),
          stopRestoreSweep(),
          stopOrphanSweep(),
          stopChunkSweep(),
          stopArchiveSweep(),
          stopDeletedArchiveSweep(),
        ]);
      };
    }
    stopHousekeeping = startHousekeeping(database, app?.log ?? consoleLogger);
    return running(config, {
      app,
      database,
      jobs,
      url,
      lifecycle,
      stopSweep,
      stopHousekeeping,
      stopHealthReport: healthReport.stop,
    });
  } catch (error) {
    const quietly = (step: Promise<unknown> | undefined) => step?.catch(() => undefined);
    await quietly(app?.close());
    await quietly(stopSweep?.());
    await quietly(stopHousekeeping?.());
    await quietly(jobs?.stop(5_000));
    await quietly(healthReport?.stop());
    await quietly(database.close());
    throw error;
  }
}

/** The started process, and its stop: the reverse of the start. */
function running(
  config: Config,
  parts: {
    app: TypedApp | undefined;
    database: Database;
    jobs: JobQueue;
    url: string | undefined;
    lifecycle: Lifecycle;
    stopSweep: (() => Promise<void>) | undefined;
    stopHousekeeping: () => Promise<void>;
    stopHealthReport: () => Promise<void>;
  },
): RunningServer {
  const { app, database, jobs, url, lifecycle, stopSweep, stopHousekeeping, stopHealthReport } = parts;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Readiness fails first, while requests are still served, so a balancer can stop sending new ones.
      lifecycle.draining = true;
      if (app && config.shutdownDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      // close() stops accepting connections, answers new requests with 503 and waits for in-flight ones.
      await app?.close();
      // Running jobs finish (at most 30 s; past that they are abandoned and another worker retries them).
      await jobs.stop();
      await stopSweep?.();
      await stopHousekeeping();
      // The last vendor calls written and this process's heartbeat removed, before the database closes.
      await stopHealthReport();
      await database.close();
    })();
    return stopping;
  };
  return { app, database, jobs, url, stop };
}

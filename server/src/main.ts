// Entry point: read config, start, and shut down gracefully on SIGINT/SIGTERM.
import { ConfigError, loadConfig } from "./config";
import { startWorkerHealthServer } from "./jobs/health";
import { startMetricsServer } from "./platform/metrics";
import { processLogger, routeProcessWarnings } from "./platform/process-log";
import { startServer } from "./server";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before anything starts: a library's warning at start (the AWS SDK's about Node 20) is a JSON line too.
  const log = processLogger(config.logLevel);
  routeProcessWarnings(log);

  // The handlers go in before anything starts: the server answers /api/health as soon as it listens, while
  // the workers may still be starting, and a SIGTERM then must still mean "finish, then stop", not die.
  let signals = 0;
  let starting: ReturnType<typeof startServer> | undefined;
  let stopOps = async () => {};
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      log.error({ signal }, `${signal} again: exiting without waiting`);
      process.exit(1);
    }
    if (!starting) process.exit(0);
    starting
      .then((server) => {
        // A worker-only process has no app: its drain is logged too, on the process logger.
        (server.app?.log ?? log).info(
          { signal },
          `${signal} received: finishing in-flight work, then stopping`,
        );
        return server.stop().then(() => stopOps());
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error instanceof Error ? error.message : String(error) }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  starting = startServer(config);
  const server = await starting;
  if (config.ffmpeg.source === "bundled") {
    const warning = `Using the bundled ffmpeg (4.1, from 2018) at ${config.ffmpeg.path} to decode media: install a current one (Debian: apt-get install ffmpeg) or set FFMPEG_PATH`;
    (server.app?.log ?? log).warn({}, warning);
  }
  if (server.url) {
    server.app?.log.info(`Storyverse is running on ${config.appUrl} (listening on ${server.url})`);
  }
  // The operator's own ports (decision 0128): metrics, and a worker-only process's health check.
  const closing: (() => Promise<void>)[] = [];
  if (config.metricsPort) {
    const metrics = await startMetricsServer({
      port: config.metricsPort,
      host: config.host,
      token: config.metricsToken,
    });
    closing.push(metrics.close);
    (server.app?.log ?? log).info({ metrics: `${metrics.url}/metrics` }, "Metrics served on their own port");
  }
  if (config.worker === "only") {
    let health: string | undefined;
    if (config.workerHealthPort) {
      const started = await startWorkerHealthServer({
        port: config.workerHealthPort,
        host: config.host,
        jobs: server.jobs,
        pingDatabase: server.database.ping,
      });
      closing.push(started.close);
      health = `${started.url}/health`;
    }
    log.info({ worker: "only", health }, "Storyverse worker is running (jobs only, no HTTP app)");
  }
  stopOps = () => Promise.all(closing.map((close) => close())).then(() => undefined);
}

main().catch((error: unknown) => {
  console.error("Storyverse failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
